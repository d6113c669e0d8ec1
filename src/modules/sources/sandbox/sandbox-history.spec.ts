import { computeCostBasis, type LedgerEntry } from '../../../domain/cost-basis/index.js';
import { checkSourceTransaction } from '../connectors/source-transaction.rules.js';
import type { SourceTransaction } from '../connectors/source-connector.js';
import { generateSandboxHistories } from './sandbox-history.js';
import { SANDBOX_SCRIPTS, sandboxHouseholdSeed } from './sandbox-fixtures.js';

const UNTIL = new Date('2026-04-01T12:00:00Z');

function ledger(histories: ReturnType<typeof generateSandboxHistories>): LedgerEntry[] {
  return [...histories].flatMap(([key, history]) =>
    history.transactions.map((tx) => ({
      accountId: key,
      transactionId: tx.transactionId,
      symbol: tx.symbol,
      direction: tx.direction,
      amount: tx.amount,
      priceUsd: tx.priceUsd ?? '0',
      ...(tx.feeUsd ? { feeUsd: tx.feeUsd } : {}),
      timestamp: tx.occurredAt,
      ...(tx.transferId ? { transferId: tx.transferId } : {}),
    })),
  );
}

describe('sandbox account histories', () => {
  const histories = generateSandboxHistories(sandboxHouseholdSeed('sandbox'), SANDBOX_SCRIPTS, UNTIL);

  it('are deterministic and prefix-stable: an earlier end gives a prefix of the same history', () => {
    const again = generateSandboxHistories(sandboxHouseholdSeed('sandbox'), SANDBOX_SCRIPTS, UNTIL);
    expect(again.get('kraken-trading')!.transactions).toEqual(histories.get('kraken-trading')!.transactions);
    const earlier = generateSandboxHistories(
      sandboxHouseholdSeed('sandbox'),
      SANDBOX_SCRIPTS,
      new Date('2023-07-15T09:00:00Z'),
    );
    for (const [key, history] of earlier) {
      const full = histories.get(key)!.transactions;
      expect(full.slice(0, history.transactions.length)).toEqual(history.transactions);
    }
  });

  it('differ between tenants', () => {
    const other = generateSandboxHistories(sandboxHouseholdSeed('sandbox-b'), SANDBOX_SCRIPTS, UNTIL);
    expect(other.get('coinbase-main')!.transactions[0]).not.toEqual(
      histories.get('coinbase-main')!.transactions[0],
    );
  });

  it('have a few hundred valid transactions per active account, since 2020', () => {
    const sizes = Object.fromEntries([...histories].map(([key, h]) => [key, h.transactions.length]));
    expect(sizes['coinbase-main']).toBeGreaterThan(150);
    expect(sizes['kraken-trading']).toBeGreaterThan(300);
    expect(sizes['coinbase-main']).toBeLessThan(1_000);
    expect(sizes['kraken-trading']).toBeLessThan(1_000);
    for (const history of histories.values()) {
      for (const tx of history.transactions) expect(checkSourceTransaction(tx, UNTIL)).toEqual([]);
      const ids = new Set(history.transactions.map((tx: SourceTransaction) => tx.transactionId));
      expect(ids.size).toBe(history.transactions.length);
    }
    expect(histories.get('coinbase-main')!.transactions[0].occurredAt.getUTCFullYear()).toBe(2020);
  });

  it('only the history-gap account sells more than it holds; transfers match', () => {
    const result = computeCostBasis(ledger(histories), { method: 'fifo' });
    const short = new Set(
      result.issues.filter((i) => i.kind === 'insufficient_holdings').map((i) => i.accountId),
    );
    expect([...short]).toEqual(['kraken-legacy']);
    expect(result.removals.filter((r) => r.reason === 'unmatched_transfer_out')).toEqual([]);
    const transfers = histories
      .get('btc-cold-storage')!
      .transactions.filter((t) => t.direction === 'transfer_in');
    expect(transfers.length).toBeGreaterThan(3);
  });

  it('reports true balances that match the history of consistent exchange accounts', () => {
    const result = computeCostBasis(ledger(histories), { method: 'fifo' });
    const open = new Map<string, number>();
    for (const lot of result.openLots.filter((l) => l.accountId === 'gemini-earn'))
      open.set(lot.symbol, (open.get(lot.symbol) ?? 0) + Number(lot.quantity));
    for (const [symbol, quantity] of histories.get('gemini-earn')!.trueBalances)
      expect(open.get(symbol) ?? 0).toBeCloseTo(Number(quantity), 8);
  });
});
