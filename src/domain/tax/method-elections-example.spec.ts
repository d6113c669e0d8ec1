/**
 * The method-elections worked example of test/e2e/tax/cost-basis-method.cases.ts (issue 19 item 1;
 * docs/cost-basis.md, "Method elections"), pinned on the domain (issue 29 item 4: the arithmetic
 * moves down; the e2e suite keeps each endpoint's success and its error paths). One account, BTC:
 *
 *   b1 2025-01-10  buy 1 BTC at 40,000 + 10 fee   basis 40,010
 *   b2 2025-02-10  buy 2 BTC at 50,000 + 20 fee   basis 100,020 (50,010 a unit)
 *   b3 2025-03-10  buy 1 BTC at 45,000            basis 45,000
 *   s1 2025-06-01  sell 1.5 at 60,000 − 30 fee    proceeds 89,970
 *   s2 2026-03-15T10:00Z sell 1 at 70,000         proceeds 70,000
 *
 * FIFO throughout: s1 = b1 (59,980 − 40,010 = 19,970) + ½ b2 (29,990 − 25,005 = 4,985) = 24,955;
 * s2 = 1 of b2 (70,000 − 50,010) = 19,990; realized 44,945.
 * A tenant-wide LIFO election effective 2026-03-15 applies to s2 (its UTC date): s2 takes b3,
 * 70,000 − 45,000 = 25,000; s1 (2025) stays FIFO; realized 24,955 + 25,000 = 49,955. An explicit
 * method (a what-if) ignores the elections: FIFO's 19,990 for 2026.
 * Then the account elects HIFO from 2026-03-20; b4 2026-03-18 buys 1 BTC at 30,000 and s3
 * 2026-03-22 sells 0.5 at 80,000 = 40,000: HIFO takes b2 (50,010 a unit > 30,000):
 * 40,000 − 25,005 = 14,995 (LIFO would take b4: 40,000 − 15,000 = 25,000). Realized 64,950;
 * 2026: 25,000 + 14,995 = 39,995, and 2025 (24,955) + 2026 = 64,950. Open on 2026-03-25, in HIFO
 * order: b2's last unit (50,010), b4 (30,000).
 * The standing orders on 2025's s1: LOFO takes b1 (40,010) then ½ b3 (22,500): 59,980 − 40,010 +
 * 29,990 − 22,500 = 27,460. LTFO: no lot is long-term on 2025-06-01, so highest basis first:
 * 1.5 of b2, 89,970 − 75,015 = 14,955.
 */
import {
  computeCostBasis,
  methodForElections,
  type CostBasisMethod,
  type LedgerEntry,
  type MethodElection,
} from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { sumExact } from '../money/exact-decimal.js';
import { roundUsdToCents } from '../money/format.js';
import { computeTaxYear, summarizeGains, type TaxAccount } from './tax-year-report.js';

const ACCOUNT: TaxAccount = { id: 'acct-a', syncStatus: 'synced', address: null, chain: null };
const RECORDED = new Date('2026-03-15T12:00:00.000Z');

const FIRST: readonly LedgerEntry[] = [
  ledgerEntry({
    tx: 'b1',
    at: '2025-01-10T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    feeUsd: '10',
  }),
  ledgerEntry({
    tx: 'b2',
    at: '2025-02-10T10:00:00Z',
    direction: 'buy',
    amount: '2',
    priceUsd: '50000',
    feeUsd: '20',
  }),
  ledgerEntry({ tx: 'b3', at: '2025-03-10T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '45000' }),
  ledgerEntry({
    tx: 's1',
    at: '2025-06-01T10:00:00Z',
    direction: 'sell',
    amount: '1.5',
    priceUsd: '60000',
    feeUsd: '30',
  }),
  ledgerEntry({ tx: 's2', at: '2026-03-15T10:00:00Z', direction: 'sell', amount: '1', priceUsd: '70000' }),
];
const LATER: readonly LedgerEntry[] = [
  ...FIRST,
  ledgerEntry({ tx: 'b4', at: '2026-03-18T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '30000' }),
  ledgerEntry({ tx: 's3', at: '2026-03-22T10:00:00Z', direction: 'sell', amount: '0.5', priceUsd: '80000' }),
];

const TENANT_LIFO: MethodElection = {
  accountId: null,
  method: 'lifo',
  effectiveFrom: '2026-03-15',
  recordedAt: RECORDED,
};
const ACCOUNT_HIFO: MethodElection = {
  accountId: ACCOUNT.id,
  method: 'hifo',
  effectiveFrom: '2026-03-20',
  recordedAt: RECORDED,
};

interface Books {
  readonly entries: readonly LedgerEntry[];
  readonly elections?: readonly MethodElection[];
  /** An explicit method: a what-if over the whole history, elections ignored. */
  readonly method?: CostBasisMethod;
}
const options = ({ elections = [], method }: Books) =>
  method === undefined ? { method: 'fifo' as const, methodFor: methodForElections(elections) } : { method };
/** The gains report's exact net gain of a year. */
const net = (taxYear: number, books: Books) => {
  const q = { taxYear, accounts: [ACCOUNT], entries: books.entries, ...options(books) };
  return summarizeGains(q, computeTaxYear(q)).exact.netGainUsd;
};
/** The balances' realizedGainLoss: every disposal's exact gain, summed, to the cent. */
const realized = (books: Books) =>
  roundUsdToCents(
    sumExact(computeCostBasis(books.entries, options(books)).disposals.map((d) => d.gainUsd)),
  ).toFixed(2);
const rows = (books: Books) =>
  computeCostBasis(books.entries, options(books)).disposals.map((d) => [
    d.transactionId,
    d.lotOriginTransactionId,
    d.quantity,
    d.gainUsd,
  ]);

describe('method elections: the worked example of test/e2e/tax/cost-basis-method.cases.ts', () => {
  it('without an election: FIFO everywhere, realized 44,945, 2026 19,990', () => {
    const books = { entries: FIRST };
    expect(rows(books)).toEqual([
      ['s1', 'b1', '1', '19970'],
      ['s1', 'b2', '0.5', '4985'],
      ['s2', 'b2', '1', '19990'],
    ]);
    expect(realized(books)).toBe('44945.00');
    expect(net(2026, books)).toBe('19990');
  });

  it('a tenant-wide LIFO election from 2026-03-15: s2 takes b3 (25,000), s1 stays FIFO (24,955), realized 49,955', () => {
    const books = { entries: FIRST, elections: [TENANT_LIFO] };
    expect(rows(books)).toEqual([
      ['s1', 'b1', '1', '19970'],
      ['s1', 'b2', '0.5', '4985'],
      ['s2', 'b3', '1', '25000'],
    ]);
    expect(realized(books)).toBe('49955.00');
    expect(net(2026, books)).toBe('25000');
    expect(net(2025, books)).toBe('24955');
    // An explicit method is a what-if over the whole history: FIFO's 19,990.
    expect(net(2026, { ...books, method: 'fifo' })).toBe('19990');
  });

  it('an account HIFO election from 2026-03-20: s3 takes ½ b2 (14,995, not LIFO’s b4 25,000); realized 64,950 = 2025 + 2026', () => {
    const books = { entries: LATER, elections: [TENANT_LIFO, ACCOUNT_HIFO] };
    expect(rows(books).slice(3)).toEqual([['s3', 'b2', '0.5', '14995']]);
    expect(rows({ entries: LATER, elections: [TENANT_LIFO] }).slice(3)).toEqual([
      ['s3', 'b4', '0.5', '25000'],
    ]);
    expect(realized(books)).toBe('64950.00');
    expect(net(2026, books)).toBe('39995');
    expect(net(2025, books)).toBe('24955');
    // Open lots as of 2026-03-25 (GET /taip/lots lists them for the clock's now), in HIFO order.
    const open = computeCostBasis(LATER, {
      ...options(books),
      openLotsAsOf: new Date('2026-03-25T12:00:00.000Z'),
    }).openLots.map((l) => [l.lotId, l.quantity, l.costBasisUsd]);
    expect(open).toEqual([
      ['b2', '1', '50010'],
      ['b4', '1', '30000'],
    ]);
  });

  it('the standing orders on 2025’s s1: LOFO 27,460, LTFO (nothing long-term yet: highest basis) 14,955', () => {
    expect(rows({ entries: FIRST, method: 'lofo' }).slice(0, 2)).toEqual([
      ['s1', 'b1', '1', '19970'],
      ['s1', 'b3', '0.5', '7490'],
    ]);
    expect(net(2025, { entries: FIRST, method: 'lofo' })).toBe('27460');
    expect(rows({ entries: FIRST, method: 'ltfo' }).slice(0, 1)).toEqual([['s1', 'b2', '1.5', '14955']]);
    expect(net(2025, { entries: FIRST, method: 'ltfo' })).toBe('14955');
  });
});
