/**
 * What every exchange connector spec (src/modules/sources/exchange/*.connector.spec.ts) builds the
 * same way: stored prices from a table, the engine's request for an exchange account, the legs of
 * a ready result, and those legs as the cost-basis engine's ledger entries.
 */
import type { LedgerEntry } from '../../src/domain/cost-basis/cost-basis.types.js';
import type {
  ConnectorRequest,
  ConnectorResult,
  SourceTransaction,
} from '../../src/modules/sources/index.js';

/** The market store's two reads the connector uses, from a table keyed `"<SYMBOL> <YYYY-MM-DD>"`. */
export function tablePrices(table: Readonly<Record<string, string>>, known: readonly string[]) {
  return {
    knownSymbols: async () => [...known],
    pricesOnDate: async (symbols: readonly string[], date: string) =>
      new Map(
        symbols.flatMap((symbol) =>
          table[`${symbol} ${date}`] ? [[symbol, table[`${symbol} ${date}`]!] as const] : [],
        ),
      ),
  };
}

/** The refresh engine's request for one exchange account (platform = the ccxt id). */
export function exchangeRequest(account: {
  readonly id: string;
  readonly platform: string;
  readonly credentials: Record<string, string>;
  readonly lastSyncedAt?: Date | null;
  /** The engine's clock; default 2025-03-15. */
  readonly now?: Date;
}): ConnectorRequest {
  return {
    account: {
      id: account.id,
      tenantId: '00000000-0000-4000-8000-000000000002',
      platform: account.platform,
      identity: `hh/${account.platform}`,
      address: null,
      chain: null,
      createdOn: new Date('2025-01-01T00:00:00Z'),
      lastSyncedAt: account.lastSyncedAt ?? null,
      sourceOptions: { exchange: account.platform },
    },
    credentials: account.credentials,
    now: account.now ?? new Date('2025-03-15T00:00:00Z'),
    signal: new AbortController().signal,
  };
}

/** Every leg of a `ready` result, all pages. */
export async function legsOf(result: ConnectorResult): Promise<SourceTransaction[]> {
  if (result.status !== 'ready') throw new Error('expected ready');
  const all: SourceTransaction[] = [];
  for await (const page of result.pages) all.push(...page);
  return all;
}

/** The legs as one account's ledger entries for computeCostBasis. */
export function asLedger(accountId: string, legs: readonly SourceTransaction[]): LedgerEntry[] {
  return legs.map((t) => ({
    accountId,
    transactionId: t.transactionId,
    symbol: t.symbol,
    direction: t.direction,
    amount: t.amount,
    priceUsd: t.priceUsd ?? '0',
    ...(t.feeUsd === null ? {} : { feeUsd: t.feeUsd }),
    timestamp: t.occurredAt,
    ...(t.transferId ? { transferId: t.transferId } : {}),
  }));
}
