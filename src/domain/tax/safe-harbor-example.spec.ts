/**
 * What test/e2e/tax/safe-harbor.cases.ts read over HTTP of the universal-to-per-wallet worked
 * example (docs/cost-basis.md, "Universal to per-wallet"; the allocation itself is pinned in
 * src/domain/cost-basis/safe-harbor.spec.ts): the balances' and the gains report's figures before
 * and after the confirmation, pinned on the domain (issue 29 item 4). acct-a an exchange, linked
 * first; acct-w a wallet, linked second:
 *
 *   b1 2024-01-10 A buy 1 at 40,000 · b2 2024-03-10 W buy 1 at 60,000
 *   b3 2024-06-10 A buy 1.5 at 50,000 + 10 fee · s1 2024-09-01 W sell 0.5 at 70,000
 *   s2 2025-03-01 W sell 0.5 at 80,000
 *
 * Per account: s1 and s2 each take ½ b2 (30,000): s1 35,000 − 30,000 = 5,000 (2024), s2 40,000 −
 * 30,000 = 10,000 (2025); W's realized 15,000.
 * Universal FIFO pool on 2024-12-31: b1 0.5 (20,000), b2 1 (60,000), b3 1.5 (75,010). Allocated:
 * A b1 0.5, b2 1, b3 1 (75,010 ÷ 1.5 = 50,006.666…667); W b3 0.5 (25,003.333…333). After the
 * confirmation s2 gains 40,000 − 25,003.333…333 = 14,996.666…667 (line basis 25,003.33); W's
 * realized 5,000 + 14,996.666…667 = 19,996.67; 2026 nothing. A holds 20,000 + 60,000 +
 * 50,006.666…667 = 130,006.666…667 of basis: 130,006.67 in the balances.
 */
import {
  computeCostBasis,
  computeSafeHarborAllocation,
  summarizeByAccountAndSymbol,
  type BasisTransition,
  type LedgerEntry,
} from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { roundUsdToCents } from '../money/format.js';
import { computeTaxYear, summarizeGains, type TaxAccount } from './tax-year-report.js';

const A: TaxAccount = { id: 'acct-a', syncStatus: 'synced', address: null, chain: null };
const W: TaxAccount = { id: 'acct-w', syncStatus: 'synced', address: null, chain: null };

const a = (fields: Omit<Parameters<typeof ledgerEntry>[0], 'account'>) =>
  ledgerEntry({ ...fields, account: A.id });
const w = (fields: Omit<Parameters<typeof ledgerEntry>[0], 'account'>) =>
  ledgerEntry({ ...fields, account: W.id });

const HISTORY: readonly LedgerEntry[] = [
  a({ tx: 'b1', at: '2024-01-10T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '40000' }),
  a({
    tx: 'b3',
    at: '2024-06-10T10:00:00Z',
    direction: 'buy',
    amount: '1.5',
    priceUsd: '50000',
    feeUsd: '10',
  }),
  w({ tx: 'b2', at: '2024-03-10T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '60000' }),
  w({ tx: 's1', at: '2024-09-01T10:00:00Z', direction: 'sell', amount: '0.5', priceUsd: '70000' }),
  w({ tx: 's2', at: '2025-03-01T10:00:00Z', direction: 'sell', amount: '0.5', priceUsd: '80000' }),
];

const allocation = computeSafeHarborAllocation({
  entries: HISTORY,
  universalMethod: 'fifo',
  accountOrder: [A.id, W.id],
});

/** The balances' row of an account's BTC: realizedGainLoss and costBasis, to the cent. */
const balances = (accountId: string, transition?: BasisTransition) => {
  const row = summarizeByAccountAndSymbol(computeCostBasis(HISTORY, { method: 'fifo', transition })).find(
    (p) => p.accountId === accountId && p.symbol === 'BTC',
  );
  return {
    realizedGainLoss: roundUsdToCents(row?.realizedGainUsd ?? 'NaN').toFixed(2),
    costBasis: roundUsdToCents(row?.costBasisUsd ?? 'NaN').toFixed(2),
  };
};
const year = (taxYear: number, transition?: BasisTransition) => {
  const q = { taxYear, method: 'fifo' as const, accounts: [W], entries: HISTORY, transition };
  const computed = computeTaxYear(q);
  return { lines: computed.lines, net: summarizeGains(q, computed).exact.netGainUsd };
};

describe('safe harbor: the figures test/e2e/tax/safe-harbor.cases.ts read over HTTP', () => {
  it('before the confirmation, per-account lots: W gains 5,000 in 2024 and 10,000 in 2025, realized 15,000', () => {
    expect(balances(W.id).realizedGainLoss).toBe('15000.00');
    expect(year(2024).net).toBe('5000');
    expect(year(2025).net).toBe('10000');
  });

  it('after it: s2 gains 14,996.666…667 (line basis 25,003.33), 2024 unchanged, 2026 nothing; W realized 19,996.67, A’s basis 130,006.67', () => {
    const { transition } = allocation;
    const y2025 = year(2025, transition);
    expect(y2025.net).toBe('14996.666666666666666666666666666667');
    expect(
      y2025.lines.map((l) => [l.transactionId, l.costBasisUsd.toFixed(2), l.gainUsd.toFixed(2)]),
    ).toEqual([['s2', '25003.33', '14996.67']]);
    expect(year(2024, transition).net).toBe('5000');
    expect(year(2026, transition).net).toBe('0');
    expect(balances(W.id, transition).realizedGainLoss).toBe('19996.67');
    expect(balances(A.id, transition).costBasis).toBe('130006.67');
  });
});
