/**
 * Typed factories for the accounts e2e suites: source transactions, CSV files, admin-created
 * accounts, and a scriptable connector the tests register to drive the refresh engine.
 */
import type { Direction } from '../../src/domain/cost-basis/index.js';
import { ConnectorRegistry } from '../../src/modules/sources/index.js';
import type {
  ConnectorRequest,
  ConnectorResult,
  SourceConnector,
  SourceTransaction,
} from '../../src/modules/sources/index.js';
import { toTransactionsCsv } from '../../src/modules/sources/index.js';
import { SANDBOX_ACCOUNT_FIXTURES, sandboxAccountIds } from '../../src/modules/sources/index.js';
import type { TestApp } from '../support/test-app.js';

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

let counter = 0;

export function sourceTx(
  fields: Partial<SourceTransaction> & { at?: string; direction?: Direction } = {},
): SourceTransaction {
  counter += 1;
  const direction = fields.direction ?? 'buy';
  return {
    transactionId: fields.transactionId ?? `tx-${String(counter).padStart(6, '0')}`,
    symbol: fields.symbol ?? 'BTC',
    direction,
    amount: fields.amount ?? '0.5',
    priceUsd:
      fields.priceUsd !== undefined
        ? fields.priceUsd
        : ['buy', 'sell', 'income', 'fee'].includes(direction)
          ? '40000'
          : null,
    feeUsd: fields.feeUsd ?? null,
    occurredAt: fields.occurredAt ?? new Date(fields.at ?? '2024-01-02T03:04:05Z'),
    transferId: fields.transferId ?? null,
  };
}

/** A month of weekly buys and a sale, from `start`. */
export function simpleHistory(
  prefix: string,
  start = '2024-01-01T10:00:00Z',
  count = 12,
): SourceTransaction[] {
  const base = Date.parse(start);
  const txs = Array.from({ length: count }, (_, i) =>
    sourceTx({
      transactionId: `${prefix}-${String(i + 1).padStart(3, '0')}`,
      occurredAt: new Date(base + i * 7 * 86_400_000),
      amount: '0.1',
      priceUsd: String(40_000 + i * 500),
      feeUsd: '2.5',
    }),
  );
  txs.push(
    sourceTx({
      transactionId: `${prefix}-sell`,
      direction: 'sell',
      occurredAt: new Date(base + count * 7 * 86_400_000),
      amount: '0.25',
      priceUsd: '52000',
      feeUsd: '5',
    }),
  );
  return txs;
}

export const csvOf = (transactions: readonly SourceTransaction[]) => toTransactionsCsv(transactions);

export interface CreatedAccount {
  accountId: string;
  collectionId: string;
  identity: string;
}

/** Links an account through the admin API, in tenant `sandbox` unless the body names another. */
export async function createAccount(
  t: TestApp,
  adminToken: string,
  body: Record<string, unknown>,
): Promise<CreatedAccount> {
  counter += 1;
  const res = await t.http
    .post('/admin/accounts')
    .set(bearer(adminToken))
    .send({
      tenant: 'sandbox',
      platform: 'coinbase',
      identity: `test-${counter}-${Date.now()}`,
      source: 'csv',
      ...body,
    });
  if (res.status !== 201) throw new Error(`create account: ${res.status} ${JSON.stringify(res.body)}`);
  return { accountId: res.body.accountId, collectionId: res.body.collectionId, identity: res.body.identity };
}

/** Imports a CSV through the admin API into an account of `tenant` (default `sandbox`). */
export function importCsv(
  t: TestApp,
  adminToken: string,
  accountId: string,
  csv: string,
  tenant = 'sandbox',
) {
  return t.http
    .post(`/admin/accounts/${accountId}/import?tenant=${tenant}`)
    .set(bearer(adminToken))
    .set('Content-Type', 'text/csv')
    .send(csv);
}

/** The deterministic ids of a sandbox fixture. */
export function sandboxAccount(tenantSlug: 'sandbox' | 'sandbox-b', key: string) {
  const fixture = SANDBOX_ACCOUNT_FIXTURES.find((f) => f.key === key);
  if (!fixture) throw new Error(`no sandbox fixture ${key}`);
  return sandboxAccountIds(tenantSlug, fixture);
}

type Behaviour = (request: ConnectorRequest) => Promise<ConnectorResult>;

/**
 * A connector whose answers the test scripts; counts calls and can hold a call until released
 * (to make refreshes overlap deterministically).
 */
export class ScriptedConnector implements SourceConnector {
  calls = 0;
  private behaviour: Behaviour = async () => ({
    status: 'ready',
    mode: 'full',
    pages: pages([]),
    reportedBalances: null,
  });
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;
  /** Resolves when a call has reached the connector (while the gate holds it). */
  entered: Promise<void> = Promise.resolve();
  private signalEntered: () => void = () => undefined;

  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    this.calls += 1;
    this.signalEntered();
    if (this.gate) await this.gate;
    return this.behaviour(request);
  }

  serves(
    transactions: readonly SourceTransaction[],
    options: { mode?: 'full' | 'incremental'; reportedBalances?: Record<string, string> } = {},
  ): this {
    this.behaviour = async () => ({
      status: 'ready',
      mode: options.mode ?? 'full',
      pages: pages([transactions]),
      reportedBalances: options.reportedBalances ? new Map(Object.entries(options.reportedBalances)) : null,
    });
    return this;
  }

  /** Yields `firstPage`, then fails: the source broke half-way through the history. */
  failsHalfway(firstPage: readonly SourceTransaction[], error: Error): this {
    this.behaviour = async () => ({
      status: 'ready',
      mode: 'full',
      pages: (async function* () {
        yield firstPage;
        throw error;
      })(),
      reportedBalances: null,
    });
    return this;
  }

  /** Serves several pages (e.g. a good one, then one with an invalid transaction). */
  servesPages(list: readonly (readonly SourceTransaction[])[]): this {
    this.behaviour = async () => ({
      status: 'ready',
      mode: 'full',
      pages: pages(list),
      reportedBalances: null,
    });
    return this;
  }

  throws(error: Error): this {
    this.behaviour = async () => {
      throw error;
    };
    return this;
  }

  pending(retryAt: Date | null): this {
    this.behaviour = async () => ({ status: 'pending', retryAt });
    return this;
  }

  /** Holds every call until release() is called. */
  hold(): this {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
    this.entered = new Promise((resolve) => (this.signalEntered = resolve));
    return this;
  }

  release(): void {
    this.openGate?.();
    this.gate = null;
  }
}

async function* pages(
  list: readonly (readonly SourceTransaction[])[],
): AsyncIterable<readonly SourceTransaction[]> {
  for (const page of list) yield page;
}

/** Registers a scripted connector under `source` for the test's lifetime. */
export function registerConnector(t: TestApp, source: string, connector: SourceConnector): () => void {
  return t.app.get(ConnectorRegistry).register(source, connector);
}
