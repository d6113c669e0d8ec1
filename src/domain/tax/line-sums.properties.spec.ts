/**
 * The gains report's sums in integer cents and its transaction counts in one pass (issue 28's
 * speed-up) against the plain definitions they replaced: decimal.js sums of the lines' columns,
 * and distinct (account, transaction) keys per asset. Bit for bit: the same decimal.js values.
 */
import fc from 'fast-check';
import type { Decimal } from 'decimal.js';
import type { Disposal } from '../cost-basis/index.js';
import { ZERO } from '../money/exact-decimal.js';
import { sumLines, toForm8949Lines, totalsByBox, type Form8949Line } from './form-8949-lines.js';
import { summarizeGains, termTotals, type TaxYear, type TaxYearInput } from './tax-year-report.js';

/** Decimal text as the engine writes it: canonical, up to 30 places, losses negative, zero "0". */
const amountText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.stringMatching(/^\d{0,30}$/))
  .map(([negative, whole, fraction]) => {
    const trimmed = fraction.replace(/0+$/, '');
    const text = trimmed === '' ? `${whole}` : `${whole}.${trimmed}`;
    return negative && text !== '0' ? `-${text}` : text;
  });

const anyDisposal: fc.Arbitrary<Disposal> = fc
  .record({
    accountId: fc.constantFrom('acc-a', 'acc-b'),
    transactionId: fc.constantFrom('t1', 't2', 't3', 't4'),
    symbol: fc.constantFrom('BTC', 'ETH', 'SOL'),
    proceedsUsd: amountText,
    costBasisUsd: amountText,
    term: fc.constantFrom('short' as const, 'long' as const),
    basisKnown: fc.boolean(),
    disposedDay: fc.integer({ min: 0, max: 365 }),
  })
  .map(({ disposedDay, ...fields }) => ({
    ...fields,
    direction: 'sell',
    quantity: '1',
    acquiredAt: new Date(Date.UTC(2023, 0, 1)),
    disposedAt: new Date(Date.UTC(2024, 0, 1) + disposedDay * 86_400_000),
    gainUsd: '0',
    lotOriginTransactionId: 'b1',
    acquiredInAccount: true,
    identifiedLate: false,
  }));

/** The definition: decimal.js sums of the columns (what sumLines computed before). */
function decimalSums(lines: readonly Form8949Line[]) {
  const sum = (pick: (line: Form8949Line) => Decimal) =>
    lines.reduce((total, line) => total.plus(pick(line)), ZERO);
  return {
    lines: lines.length,
    proceedsUsd: sum((line) => line.proceedsUsd),
    costBasisUsd: sum((line) => line.costBasisUsd),
    gainUsd: sum((line) => line.gainUsd),
  };
}

const distinct = (disposals: readonly Disposal[]) =>
  new Set(disposals.map((d) => `${d.accountId}\u0000${d.transactionId}`)).size;

describe('gains report sums and counts (fast paths)', () => {
  it('sums the lines in cents to the very decimal.js values of the plain sums, per term and per box', () => {
    fc.assert(
      fc.property(fc.array(anyDisposal, { maxLength: 40 }), (disposals) => {
        const lines = toForm8949Lines(disposals, 2024, () => 'custodial');
        // toStrictEqual compares decimal.js' digits, exponent and sign: the same value, the same form.
        expect(sumLines(lines)).toStrictEqual(decimalSums(lines));
        // Lines copied (revived from another thread, say) are summed by decimal.js: the same again.
        expect(sumLines(lines.map((line) => ({ ...line })))).toStrictEqual(sumLines(lines));
        const terms = termTotals(lines);
        expect(terms.shortTerm).toStrictEqual(decimalSums(lines.filter((line) => line.term === 'short')));
        expect(terms.longTerm).toStrictEqual(decimalSums(lines.filter((line) => line.term === 'long')));
        for (const box of totalsByBox(lines)) {
          const { part, box: name, term, ...sums } = box;
          expect(sums).toStrictEqual(decimalSums(lines.filter((line) => line.box === name)));
          expect({ part, term }).toEqual({
            part: lines.find((l) => l.box === name)!.part,
            term: lines.find((l) => l.box === name)!.term,
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('counts distinct transactions in all and per asset, rows of a sale together or apart', () => {
    fc.assert(
      fc.property(fc.array(anyDisposal, { maxLength: 40 }), (disposals) => {
        const lines = toForm8949Lines(disposals, 2024, () => 'custodial');
        const input = { taxYear: 2024, method: 'fifo', accounts: [], entries: [] } as unknown as TaxYearInput;
        const year = {
          disposals,
          lines,
          result: { incomeEvents: [] },
        } as unknown as TaxYear;
        const summary = summarizeGains(input, year);
        expect(summary.transactions).toBe(distinct(disposals));
        for (const asset of summary.assets) {
          expect(asset.transactions).toBe(distinct(disposals.filter((d) => d.symbol === asset.symbol)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
