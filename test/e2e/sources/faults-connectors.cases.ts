/**
 * Connector faults (issue 6, item 6), beyond sync.cases.ts (half-way failure, one invalid
 * amount, a failing database write, first syncs that fail): a synced account whose connector
 * throws (error, synchronous throw, non-Error), hangs (before answering, or between pages: the
 * refresh gives up after the connector's own timeout, short here through the registry), or sends
 * garbage in a later page or instead of a result. Every time the stored transactions, balances and
 * data version stay byte-identical, the account records the failure (`error`, the message, the
 * next retry), the lease is released, and the next good refresh goes through.
 */
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { ConnectorRegistry } from '../../../src/modules/sources/index.js';
import {
  SourceUnavailableError,
  type ConnectorRequest,
  type ConnectorResult,
  type SourceConnector,
  type SourceTransaction,
} from '../../../src/modules/sources/index.js';
import { STALE_AFTER_MS } from '../../../src/modules/sources/index.js';
import {
  bearer,
  createAccount,
  ScriptedConnector,
  simpleHistory,
  sourceTx,
} from '../../factories/accounts.factory.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';

const START = new Date('2026-03-15T12:00:00.000Z');
/** Short connector timeout for these tests (the default is 60 s). */
const TIMEOUT_MS = 300;

/** A connector whose behaviour the test swaps; records the abort signal of every call. */
class FaultyConnector implements SourceConnector {
  calls = 0;
  signals: AbortSignal[] = [];
  behaviour: (request: ConnectorRequest) => Promise<ConnectorResult> = async () => {
    throw new Error('no behaviour');
  };

  fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    this.calls += 1;
    this.signals.push(request.signal);
    return this.behaviour(request);
  }
}

const ready = (pages: AsyncIterable<readonly SourceTransaction[]>): ConnectorResult => ({
  status: 'ready',
  mode: 'full',
  pages,
  reportedBalances: null,
});

async function* listPages(
  list: readonly (readonly SourceTransaction[])[],
): AsyncIterable<readonly SourceTransaction[]> {
  for (const page of list) yield page;
}

describe('connector faults (e2e)', () => {
  let t: SuiteApp;
  let clock: ManualClock;
  let admin: string;
  let partner: string;
  /** The suite's tenant: the accounts it makes. */
  let tenant: string;
  let counter = 0;

  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startSuite({}, { clock, tenant: true });
    tenant = t.tenant!.slug;
    [partner, admin] = await Promise.all([t.token(), t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret)]);
  });
  afterAll(() => t.close());

  const adminRefresh = (accountId: string) =>
    t.http.post(`/admin/accounts/${accountId}/refresh?tenant=${tenant}`).set(bearer(admin)).expect(200);
  const accountState = async (accountId: string) =>
    (await t.http.get(`/admin/accounts/${accountId}?tenant=${tenant}`).set(bearer(admin)).expect(200)).body;

  /** The account's stored data, straight from the tables, plus what a partner sees. */
  async function storedData(accountId: string): Promise<string> {
    const db = t.app.get(DataSource);
    const rows = async (sql: string) =>
      ((await db.query(sql, [accountId])) as { r: string }[]).map((row) => row.r);
    const partnerView = async (path: string) => {
      const res = await t.http.get(`/v1/api/account/${accountId}/${path}`).set(bearer(partner)).expect(200);
      // The cache age grows with the (manual) clock only; the state fields are checked separately.
      const { cacheAgeSeconds: _age, syncStatus: _s, ...rest } = res.body.result;
      return rest;
    };
    return JSON.stringify({
      transactions: await rows(
        `SELECT row_to_json(t)::text AS r FROM "transaction" t WHERE account_id = $1 ORDER BY transaction_id`,
      ),
      snapshot: await rows(`SELECT row_to_json(s)::text AS r FROM balance_snapshot s WHERE account_id = $1`),
      assets: await rows(
        `SELECT row_to_json(a)::text AS r FROM balance_snapshot_asset a WHERE account_id = $1 ORDER BY symbol`,
      ),
      version: await rows(
        `SELECT json_build_array(data_version, last_synced_at)::text AS r FROM account WHERE id = $1`,
      ),
      balances: await partnerView('balances'),
      apiTransactions: await partnerView('transactions'),
    });
  }

  /** A fresh account on its own source, synced once; the connector then fails as the test says. */
  async function syncedAccount(timeoutMs = TIMEOUT_MS) {
    counter += 1;
    const source = `faulty-${counter}`;
    const connector = new FaultyConnector();
    const history = simpleHistory(source);
    connector.behaviour = async () => ready(listPages([history]));
    t.app.get(ConnectorRegistry).register(source, connector, { timeoutMs });
    const { accountId } = await createAccount(t, admin, { tenant, source, platform: 'kraken' });
    const first = await adminRefresh(accountId);
    expect(first.body).toMatchObject({ status: 'refreshed', inserted: history.length });
    clock.advanceMs(60_000);
    return { accountId, connector, history, before: await storedData(accountId) };
  }

  /** The failure left the data alone and was recorded on the account. */
  async function expectFailureRecorded(
    accountId: string,
    before: string,
    refreshBody: Record<string, unknown>,
    message: RegExp,
  ) {
    expect(refreshBody).toMatchObject({ status: 'failed', inserted: null });
    expect(String(refreshBody.message)).toMatch(message);
    expect(await storedData(accountId)).toBe(before);
    expect(await accountState(accountId)).toMatchObject({
      syncStatus: 'error',
      connectionStatus: 'connected',
      lastError: expect.stringMatching(message),
      lastRefreshAttemptAt: clock.now().toISOString(),
      nextRefreshAt: new Date(clock.now().getTime() + STALE_AFTER_MS).toISOString(),
    });
  }

  /** The lease was released and nothing is stuck: a good refresh goes through and syncs. */
  async function expectRecovers(accountId: string, connector: FaultyConnector, history: SourceTransaction[]) {
    connector.behaviour = async () => ready(listPages([history]));
    const again = await adminRefresh(accountId);
    expect(again.body).toMatchObject({
      status: 'refreshed',
      account: { syncStatus: 'synced', lastError: null },
    });
  }

  describe('a connector that throws', () => {
    const throwers: [string, () => Promise<ConnectorResult>, RegExp][] = [
      [
        'a SourceUnavailableError',
        async () => {
          throw new SourceUnavailableError('503 from the exchange');
        },
        /503 from the exchange/,
      ],
      [
        'a programming error (TypeError)',
        async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'data')");
        },
        /Cannot read properties of undefined/,
      ],
      [
        'synchronously, without returning a promise',
        () => {
          throw new Error('thrown synchronously');
        },
        /thrown synchronously/,
      ],
      [
        'something that is not an Error',
        async () => {
          throw 'a bare string';
        },
        /a bare string/,
      ],
    ];
    it.each(throwers)('keeps the data and records the failure: %s', async (_name, behaviour, message) => {
      const { accountId, connector, history, before } = await syncedAccount();
      connector.behaviour = behaviour;
      const refresh = await adminRefresh(accountId);
      await expectFailureRecorded(accountId, before, refresh.body, message);
      await expectRecovers(accountId, connector, history);
    });
  });

  describe('a connector that does not answer', () => {
    it('gives up after the connector timeout, aborts the call, and ignores its late answer', async () => {
      const { accountId, connector, history, before } = await syncedAccount();
      let answerLate: (result: ConnectorResult) => void = () => undefined;
      connector.behaviour = () => new Promise((resolve) => (answerLate = resolve));
      const startedAt = Date.now();
      const refresh = await adminRefresh(accountId);
      const elapsed = Date.now() - startedAt;
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 2_000);
      expect(connector.signals.at(-1)!.aborted).toBe(true);
      await expectFailureRecorded(accountId, before, refresh.body, /did not answer within 0.3 s/);

      // The source answers after all, with a new transaction: nothing is written.
      answerLate(
        ready(listPages([[...history, sourceTx({ transactionId: 'late-1', at: '2025-01-01T00:00:00Z' })]])),
      );
      await new Promise((r) => setTimeout(r, 50));
      expect(await storedData(accountId)).toBe(before);
      await expectRecovers(accountId, connector, history);
    });

    it('gives up when the pages stop coming half-way (first page served, then silence)', async () => {
      const { accountId, connector, history, before } = await syncedAccount();
      connector.behaviour = async (request) =>
        ready(
          (async function* () {
            yield [sourceTx({ transactionId: 'page-1', at: '2025-02-01T00:00:00Z' })];
            // Hangs until aborted, then ends as if the history were complete: must not be stored.
            await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
          })(),
        );
      const startedAt = Date.now();
      const refresh = await adminRefresh(accountId);
      expect(Date.now() - startedAt).toBeLessThan(TIMEOUT_MS + 2_000);
      await expectFailureRecorded(accountId, before, refresh.body, /did not answer within 0.3 s/);
      await new Promise((r) => setTimeout(r, 50));
      expect(await storedData(accountId)).toBe(before);
      await expectRecovers(accountId, connector, history);
    });

    it('keeps the 60-second default for connectors registered without a timeout', () => {
      const registry = t.app.get(ConnectorRegistry);
      expect(registry.timeoutOf('csv')).toBe(60_000);
      expect(() => registry.register('bad-timeout', new ScriptedConnector(), { timeoutMs: 0 })).toThrow(
        RangeError,
      );
    });
  });

  describe('a connector that sends garbage mid-refresh', () => {
    const garbage: [string, Record<string, unknown>, RegExp][] = [
      ['a negative amount', { amount: '-0.5' }, /amount must be a decimal number > 0/],
      ['a zero amount', { amount: '0' }, /amount must be a decimal number > 0/],
      ['an amount in exponent form', { amount: '1e3' }, /amount must be a decimal number > 0/],
      ['an amount as a JS number', { amount: 0.5 }, /amount must be a decimal number > 0/],
      ['an unparseable date', { occurredAt: new Date('not a date') }, /timestamp must be an ISO 8601/],
      ['a date as text, not a Date', { occurredAt: '2024-05-01T00:00:00Z' }, /timestamp must be an ISO 8601/],
      [
        'a date in the future',
        { occurredAt: new Date('2026-03-20T00:00:00Z') },
        /timestamp is in the future/,
      ],
      ['a date before Bitcoin', { occurredAt: new Date('2008-12-31T00:00:00Z') }, /timestamp is before 2009/],
      ['an unknown direction', { direction: 'airdrop' }, /direction must be one of/],
      ['a lower-case symbol', { symbol: 'btc' }, /symbol must be an upper-case ticker/],
      ['a buy without a price', { priceUsd: null }, /price is required for buy/],
      ['a negative price', { priceUsd: '-40000' }, /price must be a decimal number >= 0/],
      ['an id with a "|"', { transactionId: 'a|b' }, /transactionId must be 1-200 characters/],
      ['a transfer id on a buy', { transferId: 'pair-9' }, /transferId is only allowed on transfer/],
    ];
    it.each(garbage)('keeps the data and records the failure: %s', async (_name, fields, message) => {
      const { accountId, connector, history, before } = await syncedAccount();
      const bad = { ...sourceTx({ transactionId: 'garbage-1' }), ...fields } as unknown as SourceTransaction;
      connector.behaviour = async () =>
        ready(
          listPages([
            [...history, sourceTx({ transactionId: 'fine-1', at: '2025-03-01T00:00:00Z' })],
            [sourceTx({ transactionId: 'fine-2', at: '2025-03-02T00:00:00Z' }), bad],
          ]),
        );
      const refresh = await adminRefresh(accountId);
      await expectFailureRecorded(accountId, before, refresh.body, message);
      await expectRecovers(accountId, connector, history);
    });

    const malformed: [string, () => Promise<ConnectorResult>, RegExp][] = [
      [
        'the same transaction id twice (across pages)',
        async () =>
          ready(
            listPages([
              [sourceTx({ transactionId: 'twice', at: '2025-03-01T00:00:00Z' })],
              [sourceTx({ transactionId: 'twice', at: '2025-03-02T00:00:00Z' })],
            ]),
          ),
        /transaction twice twice/,
      ],
      [
        'null in a page',
        async () => ready(listPages([[null as unknown as SourceTransaction]])),
        /Cannot read properties of null \(reading 'transactionId'\)/,
      ],
      [
        'no result at all',
        async () => null as unknown as ConnectorResult,
        /Cannot read properties of null \(reading 'status'\)/,
      ],
      [
        'a ready result without pages',
        async () => ({ status: 'ready', mode: 'full', reportedBalances: null }) as unknown as ConnectorResult,
        /Cannot read properties of undefined/,
      ],
      [
        'a page that is a number',
        async () => ready(listPages([42 as unknown as SourceTransaction[]])),
        /page is not iterable/,
      ],
    ];
    it.each(malformed)('keeps the data and records the failure: %s', async (_name, behaviour, message) => {
      const { accountId, connector, history, before } = await syncedAccount();
      connector.behaviour = behaviour;
      const refresh = await adminRefresh(accountId);
      await expectFailureRecorded(accountId, before, refresh.body, message);
      await expectRecovers(accountId, connector, history);
    });
  });
});
