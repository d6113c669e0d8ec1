/**
 * The specific-identification worked example of test/e2e/tax/lot-selections.cases.ts (issue 19
 * item 2; docs/cost-basis.md, "Specific identification"), pinned on the domain (issue 29 item 4:
 * the arithmetic moves down; the e2e suite keeps each endpoint's success and its error paths).
 * One exchange account, BTC:
 *
 *   b1 2025-01-10  buy 1 BTC at 40,000 + 10 fee   basis 40,010
 *   b2 2025-02-10  buy 2 BTC at 50,000 + 20 fee   basis 100,020 (50,010 a unit)
 *   b3 2025-03-10  buy 1 BTC at 45,000            basis 45,000
 *   s1 2025-06-01  sell 1.5 at 60,000 − 30 fee    proceeds 89,970
 *   b4 2026-01-05  buy 1 BTC at 30,000            basis 30,000
 *   s2 2026-03-10  sell 1 at 70,000               proceeds 70,000
 *
 * FIFO: s1 = b1 (59,980 − 40,010 = 19,970) + ½ b2 (29,990 − 25,005 = 4,985) = 24,955;
 * s2 = 1 of b2 (70,000 − 50,010) = 19,990; realized 44,945.
 * s2 → b3 (recorded at the sale): 70,000 − 45,000 = 25,000; realized 24,955 + 25,000 = 49,955;
 * the lots left are b2 1.5 and b4 1.
 * Then s1 → b3 1, b1 0.5 (recorded at s1): 59,980 − 45,000 = 14,980 and 29,990 − 20,005 = 9,985
 * (24,965). s2's selection (b3) no longer fits: s2 falls back to FIFO, ½ b1 (35,000 − 20,005 =
 * 14,995) + ½ b2 (35,000 − 25,005 = 9,995) = 24,990, and 2026 needs review (lot_selection_invalid).
 * Realized 24,965 + 24,990 = 49,955. Without s2's selection: the same figures, no issue.
 * s2 → b4 recorded 2026-03-15T12:00Z, after the sale: a late identification, kept and not applied
 * (b4 would give 70,000 − 30,000 = 40,000; FIFO's 24,990 stands), the year flagged identified_late.
 */
import {
  computeCostBasis,
  lotSelectionKey,
  type LedgerEntry,
  type LotPick,
  type LotSelection,
} from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { sumExact } from '../money/exact-decimal.js';
import { roundUsdToCents } from '../money/format.js';
import { computeTaxYear, summarizeGains, type TaxAccount, type TaxYearInput } from './tax-year-report.js';

const ACCOUNT: TaxAccount = { id: 'acct-a', syncStatus: 'synced', address: null, chain: null };

const HISTORY: readonly LedgerEntry[] = [
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
  ledgerEntry({ tx: 'b4', at: '2026-01-05T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '30000' }),
  ledgerEntry({ tx: 's2', at: '2026-03-10T10:00:00Z', direction: 'sell', amount: '1', priceUsd: '70000' }),
];

type Picks = [string, string][];
/** A selection of `tx` recorded at `recordedAt`. */
const selection = (tx: string, picks: Picks, recordedAt: string): [string, LotSelection] => [
  lotSelectionKey(ACCOUNT.id, tx),
  Object.assign(
    picks.map(([lotId, quantity]): LotPick => ({ lotId, quantity })),
    { recordedAt: new Date(recordedAt) },
  ),
];
const S2_B3 = selection('s2', [['b3', '1']], '2026-03-10T10:00:00Z');
const S1_B3_B1 = selection(
  's1',
  [
    ['b3', '1'],
    ['b1', '0.5'],
  ],
  '2025-06-01T10:00:00Z',
);
const S2_B4_LATE = selection('s2', [['b4', '1']], '2026-03-15T12:00:00Z');

const input = (taxYear: number, selections: [string, LotSelection][]): TaxYearInput => ({
  taxYear,
  method: 'fifo',
  accounts: [ACCOUNT],
  entries: HISTORY,
  selections: new Map(selections),
});
const year = (taxYear: number, selections: [string, LotSelection][] = []) => {
  const q = input(taxYear, selections);
  const computed = computeTaxYear(q);
  return { ...computed, gains: summarizeGains(q, computed) };
};
/** The balances' realizedGainLoss: every disposal's exact gain, summed, to the cent. */
const realized = (selections: [string, LotSelection][] = []) => {
  const all = computeCostBasis(HISTORY, { method: 'fifo', selections: new Map(selections) });
  return roundUsdToCents(sumExact(all.disposals.map((d) => d.gainUsd))).toFixed(2);
};
const codes = (y: ReturnType<typeof year>) => y.readiness.reasons.map((r) => r.code);
const disposalRows = (y: ReturnType<typeof year>) =>
  y.disposals.map((d) => [d.transactionId, d.lotOriginTransactionId, d.quantity, d.gainUsd]);

describe('specific identification: the worked example of test/e2e/tax/lot-selections.cases.ts', () => {
  it('without a selection: FIFO, realized 44,945 (s1 24,955 in 2025, s2 19,990 in 2026)', () => {
    expect(realized()).toBe('44945.00');
    const y2025 = year(2025);
    expect(disposalRows(y2025)).toEqual([
      ['s1', 'b1', '1', '19970'],
      ['s1', 'b2', '0.5', '4985'],
    ]);
    expect(y2025.gains.exact.netGainUsd).toBe('24955');
    const y2026 = year(2026);
    expect(disposalRows(y2026)).toEqual([['s2', 'b2', '1', '19990']]);
    expect(y2026.gains.exact.netGainUsd).toBe('19990');
    expect(y2026.readiness).toEqual({ status: 'ready', reasons: [] });
  });

  it('s2 → b3, recorded at the sale: 25,000 in 2026, realized 49,955; b2 1.5 and b4 1 stay open', () => {
    const y2026 = year(2026, [S2_B3]);
    expect(disposalRows(y2026)).toEqual([['s2', 'b3', '1', '25000']]);
    expect(y2026.gains.exact.netGainUsd).toBe('25000');
    expect(codes(y2026)).toEqual([]);
    expect(y2026.result.openLots.map((l) => [l.lotId, l.quantity, l.costBasisUsd])).toEqual([
      ['b2', '1.5', '75015'],
      ['b4', '1', '30000'],
    ]);
    expect(realized([S2_B3])).toBe('49955.00');
  });

  it('then s1 → b3 1, b1 0.5: 24,965 in 2025; s2’s selection no longer fits, FIFO 24,990 and lot_selection_invalid naming b3', () => {
    const selections = [S2_B3, S1_B3_B1];
    const y2025 = year(2025, selections);
    expect(disposalRows(y2025)).toEqual([
      ['s1', 'b3', '1', '14980'],
      ['s1', 'b1', '0.5', '9985'],
    ]);
    expect(y2025.gains.exact.netGainUsd).toBe('24965');
    const y2026 = year(2026, selections);
    expect(disposalRows(y2026)).toEqual([
      ['s2', 'b1', '0.5', '14995'],
      ['s2', 'b2', '0.5', '9995'],
    ]);
    expect(y2026.gains.exact.netGainUsd).toBe('24990');
    expect(y2026.readiness.status).toBe('needs_review');
    const reason = y2026.readiness.reasons.find((r) => r.code === 'lot_selection_invalid');
    expect(reason?.count).toBe(1);
    expect(reason?.message).toMatch(/s2: lot b3 \(lot_not_open\)/);
    expect(realized(selections)).toBe('49955.00');
  });

  it('without s2’s selection: s2 takes ½ b1 + ½ b2 by FIFO (24,990) without an issue; realized 49,955', () => {
    const y2026 = year(2026, [S1_B3_B1]);
    expect(y2026.gains.exact.netGainUsd).toBe('24990');
    expect(y2026.readiness).toEqual({ status: 'ready', reasons: [] });
    expect(realized([S1_B3_B1])).toBe('49955.00');
  });

  it('s2 → b4 recorded after the sale: identified late, not applied (24,990, not 40,000), both lines flagged', () => {
    const selections = [S1_B3_B1, S2_B4_LATE];
    const y2026 = year(2026, selections);
    expect(disposalRows(y2026)).toEqual([
      ['s2', 'b1', '0.5', '14995'],
      ['s2', 'b2', '0.5', '9995'],
    ]);
    expect(y2026.gains.exact.netGainUsd).toBe('24990');
    expect(realized(selections)).toBe('49955.00');
    expect(y2026.readiness.status).toBe('needs_review');
    expect(codes(y2026)).toEqual(['identified_late']);
    const reason = y2026.readiness.reasons[0];
    expect(reason?.count).toBe(1);
    expect(reason?.message).toMatch(
      /s2: sold 2026-03-10T10:00:00.000Z, selection recorded 2026-03-15T12:00:00.000Z/,
    );
    expect(y2026.lines.map((l) => [l.transactionId, l.identifiedLate, l.reviewReason])).toEqual([
      ['s2', true, 'identified_late'],
      ['s2', true, 'identified_late'],
    ]);
    // Had it been recorded at the sale, b4 would have been taken: 70,000 − 30,000 = 40,000.
    const inTime = year(2026, [S1_B3_B1, selection('s2', [['b4', '1']], '2026-03-10T10:00:00Z')]);
    expect(inTime.gains.exact.netGainUsd).toBe('40000');
  });
});
