/**
 * Specific identification (docs/cost-basis.md, "Specific identification"), worked by hand.
 * Lots: b1 1 BTC for $40,000 (2024-01-10), b2 1 BTC for $30,000 (2024-02-10), b3 2 BTC for
 * $100,000 (2024-03-10).
 */
import { computeCostBasis, lotSelectionKey } from './cost-basis-engine.js';
import type { CostBasisResult, LedgerEntry, LotPick } from './cost-basis.types.js';
import { isoDate, ledgerEntry } from './testing/ledger-entry.factory.js';

const buys: LedgerEntry[] = [
  ledgerEntry({ tx: 'b1', at: '2024-01-10', direction: 'buy', amount: '1', priceUsd: '40000' }),
  ledgerEntry({ tx: 'b2', at: '2024-02-10', direction: 'buy', amount: '1', priceUsd: '30000' }),
  ledgerEntry({ tx: 'b3', at: '2024-03-10', direction: 'buy', amount: '2', priceUsd: '50000' }),
];

const select = (tx: string, picks: [string, string][], account = 'acct-a') =>
  new Map<string, readonly LotPick[]>([
    [lotSelectionKey(account, tx), picks.map(([lotId, quantity]) => ({ lotId, quantity }))],
  ]);

const rows = (result: CostBasisResult) =>
  result.disposals.map((d) => ({
    lot: d.lotOriginTransactionId,
    quantity: d.quantity,
    proceedsUsd: d.proceedsUsd,
    costBasisUsd: d.costBasisUsd,
    gainUsd: d.gainUsd,
    acquired: isoDate(d.acquiredAt),
  }));

const lots = (result: CostBasisResult) =>
  result.openLots.map((l) => ({ lotId: l.lotId, quantity: l.quantity, costBasisUsd: l.costBasisUsd }));

describe('computeCostBasis: specific identification', () => {
  it('a sale of 1 BTC that chooses the second lot consumes it, not the FIFO one', () => {
    const entries = [
      ...buys,
      ledgerEntry({ tx: 's1', at: '2024-06-01', direction: 'sell', amount: '1', priceUsd: '60000' }),
    ];
    const result = computeCostBasis(entries, { method: 'fifo', selections: select('s1', [['b2', '1']]) });
    // $60,000 − $30,000 = $30,000 (FIFO would take b1: $20,000).
    expect(rows(result)).toEqual([
      {
        lot: 'b2',
        quantity: '1',
        proceedsUsd: '60000',
        costBasisUsd: '30000',
        gainUsd: '30000',
        acquired: '2024-02-10',
      },
    ]);
    expect(lots(result)).toEqual([
      { lotId: 'b1', quantity: '1', costBasisUsd: '40000' },
      { lotId: 'b3', quantity: '2', costBasisUsd: '100000' },
    ]);
    expect(result.issues).toEqual([]);
  });

  it('partial picks over two lots, in the order given, with proceeds pro rata', () => {
    const entries = [
      ...buys,
      ledgerEntry({
        tx: 's1',
        at: '2024-06-01',
        direction: 'sell',
        amount: '1.5',
        priceUsd: '60000',
        feeUsd: '30',
      }),
    ];
    const result = computeCostBasis(entries, {
      method: 'hifo',
      selections: select('s1', [
        ['b3', '1'],
        ['b1', '0.5'],
      ]),
    });
    // Proceeds 1.5 × 60,000 − 30 = 89,970: b3 takes 1/1.5 = 59,980 against 50,000; b1 the rest,
    // 29,990, against half of 40,000.
    expect(rows(result)).toEqual([
      {
        lot: 'b3',
        quantity: '1',
        proceedsUsd: '59980',
        costBasisUsd: '50000',
        gainUsd: '9980',
        acquired: '2024-03-10',
      },
      {
        lot: 'b1',
        quantity: '0.5',
        proceedsUsd: '29990',
        costBasisUsd: '20000',
        gainUsd: '9990',
        acquired: '2024-01-10',
      },
    ]);
    // What is left, in HIFO order (per unit: b3 50,000, b1 40,000, b2 30,000).
    expect(lots(result)).toEqual([
      { lotId: 'b3', quantity: '1', costBasisUsd: '50000' },
      { lotId: 'b1', quantity: '0.5', costBasisUsd: '20000' },
      { lotId: 'b2', quantity: '1', costBasisUsd: '30000' },
    ]);
  });

  it('a withdrawal with a selection removes the chosen lot', () => {
    const entries = [
      ...buys,
      ledgerEntry({ tx: 'w1', at: '2024-06-01', direction: 'withdrawal', amount: '0.25' }),
    ];
    const result = computeCostBasis(entries, { method: 'fifo', selections: select('w1', [['b3', '0.25']]) });
    expect(result.removals.map((r) => [r.lotOriginTransactionId, r.quantity, r.costBasisUsd])).toEqual([
      ['b3', '0.25', '12500'],
    ]);
  });

  it.each<[string, [string, string][], string | null, string]>([
    // s0 (FIFO) consumed b1 before s1: the selection no longer fits.
    ['a lot consumed earlier', [['b1', '1']], 'b1', 'lot_not_open'],
    ['a lot that did not exist then', [['b9', '1']], 'b9', 'lot_not_open'],
    [
      'more than the lot holds',
      [
        ['b2', '0.6'],
        ['b2', '0.4'],
        ['b3', '0'],
      ],
      'b3',
      'exceeds_lot',
    ],
    [
      'more than the lot holds (in total)',
      [
        ['b2', '0.7'],
        ['b2', '0.7'],
      ],
      null,
      'quantity_mismatch',
    ],
    ['quantities not adding up', [['b2', '0.5']], null, 'quantity_mismatch'],
  ])('an invalid selection (%s) falls back to the method and is reported', (_name, picks, lotId, reason) => {
    const entries = [
      ...buys,
      ledgerEntry({ tx: 's0', at: '2024-04-01', direction: 'sell', amount: '1', priceUsd: '60000' }),
      ledgerEntry({ tx: 's1', at: '2024-06-01', direction: 'sell', amount: '1', priceUsd: '60000' }),
    ];
    const result = computeCostBasis(entries, { method: 'fifo', selections: select('s1', picks) });
    expect(result.issues).toEqual([
      {
        kind: 'lot_selection_invalid',
        accountId: 'acct-a',
        symbol: 'BTC',
        transactionId: 's1',
        lotId,
        reason,
      },
    ]);
    // FIFO instead: s0 took b1, s1 takes b2.
    expect(rows(result).map((r) => r.lot)).toEqual(['b1', 'b2']);
  });

  it('a lot asked for more than it holds is named', () => {
    const entries = [
      ...buys,
      ledgerEntry({ tx: 's1', at: '2024-06-01', direction: 'sell', amount: '1.5', priceUsd: '60000' }),
    ];
    const result = computeCostBasis(entries, { method: 'fifo', selections: select('s1', [['b2', '1.5']]) });
    expect(result.issues).toEqual([
      {
        kind: 'lot_selection_invalid',
        accountId: 'acct-a',
        symbol: 'BTC',
        transactionId: 's1',
        lotId: 'b2',
        reason: 'exceeds_lot',
      },
    ]);
  });

  it('a second lot of one origin (a transfer round trip) is <id>#2, in arrival order', () => {
    const entries = [
      ledgerEntry({ tx: 'b1', at: '2024-01-10', direction: 'buy', amount: '1', priceUsd: '40000' }),
      ledgerEntry({ tx: 'o1', at: '2024-02-01', direction: 'transfer_out', amount: '0.5', transferId: 't1' }),
      ledgerEntry({
        tx: 'i1',
        at: '2024-02-01',
        direction: 'transfer_in',
        amount: '0.5',
        transferId: 't1',
        account: 'acct-b',
      }),
      ledgerEntry({
        tx: 'o2',
        at: '2024-03-01',
        direction: 'transfer_out',
        amount: '0.5',
        transferId: 't2',
        account: 'acct-b',
      }),
      ledgerEntry({ tx: 'i2', at: '2024-03-01', direction: 'transfer_in', amount: '0.5', transferId: 't2' }),
      ledgerEntry({ tx: 's1', at: '2024-06-01', direction: 'sell', amount: '0.2', priceUsd: '60000' }),
    ];
    const result = computeCostBasis(entries, { method: 'fifo', selections: select('s1', [['b1#2', '0.2']]) });
    expect(result.issues).toEqual([]);
    expect(lots(result)).toEqual([
      { lotId: 'b1', quantity: '0.5', costBasisUsd: '20000' },
      { lotId: 'b1#2', quantity: '0.3', costBasisUsd: '12000' },
    ]);
  });
});
