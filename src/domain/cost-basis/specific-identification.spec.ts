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

/**
 * Late identification (issue 27 item 6; Treas. Reg. §1.1012-1(j)(3): the units must be identified
 * no later than the date and time of the sale). A selection recorded after its disposal is not
 * applied: the disposal takes lots by the standing method (the method in force: FIFO, or what was
 * elected), its rows say `identifiedLate`, and an `identified_late` issue names it.
 */
describe('computeCostBasis: a selection recorded after its disposal (late identification)', () => {
  const SALE_AT = '2024-06-01T10:00:00.000Z';
  const sale = ledgerEntry({ tx: 's1', at: SALE_AT, direction: 'sell', amount: '1', priceUsd: '60000' });
  const recorded = (at: string, picks: [string, string][]) =>
    new Map([
      [
        lotSelectionKey('acct-a', 's1'),
        Object.assign(
          picks.map(([lotId, quantity]) => ({ lotId, quantity })),
          { recordedAt: new Date(at) },
        ),
      ],
    ]);

  it('recorded a second after the sale: not applied, FIFO takes b1 (20,000, not b2’s 30,000), flagged', () => {
    const result = computeCostBasis([...buys, sale], {
      method: 'fifo',
      selections: recorded('2024-06-01T10:00:01.000Z', [['b2', '1']]),
    });
    expect(rows(result)).toEqual([
      {
        lot: 'b1',
        quantity: '1',
        proceedsUsd: '60000',
        costBasisUsd: '40000',
        gainUsd: '20000',
        acquired: '2024-01-10',
      },
    ]);
    expect(result.disposals.map((d) => d.identifiedLate)).toEqual([true]);
    expect(result.issues).toEqual([
      {
        kind: 'identified_late',
        accountId: 'acct-a',
        symbol: 'BTC',
        transactionId: 's1',
        recordedAt: new Date('2024-06-01T10:00:01.000Z'),
        disposedAt: new Date(SALE_AT),
      },
    ]);
    expect(lots(result).map((l) => l.lotId)).toEqual(['b2', 'b3']);
  });

  it.each([
    ['at the very time of the sale', SALE_AT],
    ['before the sale', '2024-05-31T09:00:00.000Z'],
  ])('recorded %s: applied (b2: 30,000), not flagged', (_name, at) => {
    const result = computeCostBasis([...buys, sale], {
      method: 'fifo',
      selections: recorded(at, [['b2', '1']]),
    });
    expect(rows(result).map((r) => [r.lot, r.gainUsd])).toEqual([['b2', '30000']]);
    expect(result.disposals.map((d) => d.identifiedLate)).toEqual([false]);
    expect(result.issues).toEqual([]);
  });

  it('the standing method is the one elected for the account then: HIFO takes b3 (50,000 a unit)', () => {
    const result = computeCostBasis([...buys, sale], {
      method: 'fifo',
      methodFor: () => 'hifo',
      selections: recorded('2027-01-01T00:00:00.000Z', [['b2', '1']]),
    });
    expect(rows(result).map((r) => [r.lot, r.gainUsd])).toEqual([['b3', '10000']]);
    expect(result.issues.map((i) => i.kind)).toEqual(['identified_late']);
  });

  it('a late selection is never checked against the lots: even one that no longer fits is only late', () => {
    const result = computeCostBasis([...buys, sale], {
      method: 'fifo',
      selections: recorded('2027-01-01T00:00:00.000Z', [['b9', '1']]),
    });
    expect(result.issues.map((i) => i.kind)).toEqual(['identified_late']);
    expect(rows(result).map((r) => r.lot)).toEqual(['b1']);
  });

  it('a late selection of a withdrawal: the method removes the lots, the issue names it', () => {
    const withdrawal = ledgerEntry({ tx: 's1', at: SALE_AT, direction: 'withdrawal', amount: '0.25' });
    const result = computeCostBasis([...buys, withdrawal], {
      method: 'fifo',
      selections: recorded('2024-07-01T00:00:00.000Z', [['b3', '0.25']]),
    });
    expect(result.removals.map((r) => [r.lotOriginTransactionId, r.quantity, r.costBasisUsd])).toEqual([
      ['b1', '0.25', '10000'],
    ]);
    expect(result.issues.map((i) => [i.kind, i.transactionId])).toEqual([['identified_late', 's1']]);
  });
});
