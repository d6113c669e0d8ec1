/**
 * The standing orders lowest_basis (LOFO) and long_term_first_highest_basis (LTFO) as methods
 * (docs/cost-basis.md, "Which lots a disposal consumes"), worked by hand. One account, BTC:
 *
 *   b4 2022-05-01 buy 1 at 30,000   long-term from 2023-05-02
 *   b1 2023-01-10 buy 1 at 40,000   long-term from 2024-01-11
 *   b2 2023-09-10 buy 1 at 20,000   long-term from 2024-09-11
 *   b3 2024-02-10 buy 1 at 60,000   long-term from 2025-02-11
 *   s1 2024-06-01 sell 2.5 at 50,000 (proceeds 125,000)
 *   s2 2024-10-01 sell 1 at 50,000
 */
import { computeCostBasis } from './cost-basis-engine.js';
import { STANDING_ORDERS } from './cost-basis-method.js';
import type { CostBasisResult, LedgerEntry } from './cost-basis.types.js';
import { ledgerEntry } from './testing/ledger-entry.factory.js';

const buys: LedgerEntry[] = [
  ledgerEntry({ tx: 'b4', at: '2022-05-01', direction: 'buy', amount: '1', priceUsd: '30000' }),
  ledgerEntry({ tx: 'b1', at: '2023-01-10', direction: 'buy', amount: '1', priceUsd: '40000' }),
  ledgerEntry({ tx: 'b2', at: '2023-09-10', direction: 'buy', amount: '1', priceUsd: '20000' }),
  ledgerEntry({ tx: 'b3', at: '2024-02-10', direction: 'buy', amount: '1', priceUsd: '60000' }),
];
const s1 = ledgerEntry({ tx: 's1', at: '2024-06-01', direction: 'sell', amount: '2.5', priceUsd: '50000' });
const s2 = ledgerEntry({ tx: 's2', at: '2024-10-01', direction: 'sell', amount: '1', priceUsd: '50000' });

const rows = (result: CostBasisResult) =>
  result.disposals.map((x) => [
    x.transactionId,
    x.lotOriginTransactionId,
    x.quantity,
    x.costBasisUsd,
    x.gainUsd,
    x.term,
  ]);
const open = (result: CostBasisResult) => result.openLots.map((l) => [l.lotId, l.quantity, l.costBasisUsd]);

describe('standing orders as methods', () => {
  it('maps the five standing orders onto methods', () => {
    expect(STANDING_ORDERS).toEqual({
      longest_held: 'fifo',
      shortest_held: 'lifo',
      highest_basis: 'hifo',
      lowest_basis: 'lofo',
      long_term_first_highest_basis: 'ltfo',
    });
  });

  it('LOFO takes the lowest basis per unit first: gain 55,000', () => {
    const result = computeCostBasis([...buys, s1], { method: 'lofo' });
    expect(rows(result)).toEqual([
      ['s1', 'b2', '1', '20000', '30000', 'short'],
      ['s1', 'b4', '1', '30000', '20000', 'long'],
      ['s1', 'b1', '0.5', '20000', '5000', 'long'],
    ]);
    expect(open(result)).toEqual([
      ['b1', '0.5', '20000'],
      ['b3', '1', '60000'],
    ]);
  });

  it('LTFO takes the lots long-term at the sale first, highest basis first, then short-term: gain 25,000', () => {
    const result = computeCostBasis([...buys, s1], { method: 'ltfo' });
    // Long-term on 2024-06-01: b1 (40,000), b4 (30,000); then short-term b3 (60,000) before b2 (20,000).
    expect(rows(result)).toEqual([
      ['s1', 'b1', '1', '40000', '10000', 'long'],
      ['s1', 'b4', '1', '30000', '20000', 'long'],
      ['s1', 'b3', '0.5', '30000', '-5000', 'short'],
    ]);
    // HIFO on the same sale: b3, b1, ½ b4: gain 10,000.
    expect(rows(computeCostBasis([...buys, s1], { method: 'hifo' })).map((r) => r[1])).toEqual([
      'b3',
      'b1',
      'b4',
    ]);
  });

  it('LTFO re-decides the term at each sale: on 2024-10-01 b2 has turned long-term and goes before b3', () => {
    const result = computeCostBasis([...buys, s1, s2], { method: 'ltfo' });
    expect(rows(result).slice(3)).toEqual([['s2', 'b2', '1', '20000', '30000', 'long']]);
    expect(open(result)).toEqual([['b3', '0.5', '30000']]);
  });

  it('LTFO lists open lots in the order it would take them at the last entry', () => {
    // On 2024-06-01 b2 is short-term: b3 (60,000 a unit) before b2 (20,000).
    expect(open(computeCostBasis([...buys, s1], { method: 'ltfo' }))).toEqual([
      ['b3', '0.5', '30000'],
      ['b2', '1', '20000'],
    ]);
  });
});
