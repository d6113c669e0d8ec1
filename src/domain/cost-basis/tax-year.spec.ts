import { computeCostBasis } from './cost-basis-engine.js';
import { disposalsInYear, splitByTerm } from './tax-year.js';
import { ledgerEntry } from './testing/ledger-entry.factory.js';

describe('disposalsInYear and splitByTerm', () => {
  const result = computeCostBasis(
    [
      ledgerEntry({ tx: 'b0', at: '2022-01-01', direction: 'buy', amount: '1', priceUsd: '10' }),
      ledgerEntry({ tx: 's0', at: '2023-01-10', direction: 'sell', amount: '1', priceUsd: '20' }), // +10 long
      ledgerEntry({ tx: 'b1', at: '2023-03-01', direction: 'buy', amount: '1', priceUsd: '100' }),
      ledgerEntry({
        tx: 's1',
        at: '2024-03-01',
        direction: 'sell',
        amount: '0.5',
        priceUsd: '200',
        feeUsd: '2',
      }), // 98 − 50 short
      ledgerEntry({ tx: 's2', at: '2024-03-02', direction: 'sell', amount: '0.5', priceUsd: '200' }), // 100 − 50 long
      ledgerEntry({ tx: 'b2', at: '2024-06-01', direction: 'buy', amount: '1', priceUsd: '300' }),
      ledgerEntry({ tx: 's3', at: '2024-12-31T23:59:59Z', direction: 'sell', amount: '1', priceUsd: '250' }), // 250 − 300 short
      ledgerEntry({ tx: 's4', at: '2025-01-01T00:00:00Z', direction: 'sell', amount: '1', priceUsd: '100' }), // uncovered
    ],
    { method: 'fifo' },
  );

  it.each([
    [2022, []],
    [2023, ['s0']],
    [2024, ['s1', 's2', 's3']],
    [2025, ['s4']],
  ])('selects the disposals of %i by UTC year', (taxYear, transactionIds) => {
    expect(disposalsInYear(result, taxYear).map((d) => d.transactionId)).toEqual(transactionIds);
  });

  it.each([
    [
      2024,
      {
        shortTermProceedsUsd: '348',
        shortTermCostBasisUsd: '350',
        shortTermGainUsd: '-2',
        longTermProceedsUsd: '100',
        longTermCostBasisUsd: '50',
        longTermGainUsd: '50',
        proceedsUsd: '448',
        costBasisUsd: '400',
        netGainUsd: '48',
        disposalCount: 3,
        unknownBasisDisposalCount: 0,
      },
    ],
    [
      2025,
      {
        shortTermProceedsUsd: '100',
        shortTermCostBasisUsd: '0',
        shortTermGainUsd: '100',
        longTermProceedsUsd: '0',
        longTermCostBasisUsd: '0',
        longTermGainUsd: '0',
        proceedsUsd: '100',
        costBasisUsd: '0',
        netGainUsd: '100',
        disposalCount: 1,
        unknownBasisDisposalCount: 1,
      },
    ],
  ])('totals %i by term', (taxYear, totals) => {
    expect(splitByTerm(disposalsInYear(result, taxYear))).toEqual(totals);
  });

  it('sums over all years to the realized gain of every disposal', () => {
    expect(splitByTerm(result.disposals).netGainUsd).toBe('158'); // 10 + 48 + 100
  });
});
