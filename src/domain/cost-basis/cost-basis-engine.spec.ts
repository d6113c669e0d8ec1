import { Decimal } from 'decimal.js';
import { computeCostBasis } from './cost-basis-engine.js';
import { InvalidLedgerEntryError } from './cost-basis.errors.js';
import type { CostBasisMethod, CostBasisResult, LedgerEntry } from './cost-basis.types.js';
import { isoDate, ledgerEntry } from './testing/ledger-entry.factory.js';

/** The columns a reader checks against the hand calculation. */
function disposalRows(result: CostBasisResult) {
  return result.disposals.map((d) => ({
    tx: d.transactionId,
    lot: d.lotOriginTransactionId,
    quantity: d.quantity,
    acquired: isoDate(d.acquiredAt),
    disposed: isoDate(d.disposedAt),
    proceedsUsd: d.proceedsUsd,
    costBasisUsd: d.costBasisUsd,
    gainUsd: d.gainUsd,
    term: d.term,
    basisKnown: d.basisKnown,
  }));
}

function openLotRows(result: CostBasisResult) {
  return result.openLots.map((l) => ({
    account: l.accountId,
    lot: l.originTransactionId,
    quantity: l.quantity,
    costBasisUsd: l.costBasisUsd,
    acquired: isoDate(l.acquiredAt),
    basisKnown: l.basisKnown,
  }));
}

describe('computeCostBasis: buys and sales', () => {
  // docs/cost-basis.md, worked example 1.
  const history: LedgerEntry[] = [
    ledgerEntry({
      tx: 'b1',
      at: '2024-01-10',
      direction: 'buy',
      amount: '1',
      priceUsd: '40000',
      feeUsd: '10',
    }),
    ledgerEntry({
      tx: 'b2',
      at: '2024-02-10',
      direction: 'buy',
      amount: '2',
      priceUsd: '50000',
      feeUsd: '20',
    }),
    ledgerEntry({ tx: 'b3', at: '2024-03-10', direction: 'buy', amount: '1', priceUsd: '45000' }),
    ledgerEntry({
      tx: 's1',
      at: '2024-06-01',
      direction: 'sell',
      amount: '1.5',
      priceUsd: '60000',
      feeUsd: '30',
    }),
  ];

  it('FIFO consumes the oldest lots, splits the last one and spreads proceeds pro rata', () => {
    const result = computeCostBasis(history, { method: 'fifo' });
    // proceeds 1.5 × 60000 − 30 = 89970; lot b1 basis 40000 + 10; lot b2 basis 100000 + 20, half of 1 BTC of it
    expect(disposalRows(result)).toEqual([
      {
        tx: 's1',
        lot: 'b1',
        quantity: '1',
        acquired: '2024-01-10',
        disposed: '2024-06-01',
        proceedsUsd: '59980',
        costBasisUsd: '40010',
        gainUsd: '19970',
        term: 'short',
        basisKnown: true,
      },
      {
        tx: 's1',
        lot: 'b2',
        quantity: '0.5',
        acquired: '2024-02-10',
        disposed: '2024-06-01',
        proceedsUsd: '29990',
        costBasisUsd: '25005',
        gainUsd: '4985',
        term: 'short',
        basisKnown: true,
      },
    ]);
    expect(openLotRows(result)).toEqual([
      {
        account: 'acct-a',
        lot: 'b2',
        quantity: '1.5',
        costBasisUsd: '75015',
        acquired: '2024-02-10',
        basisKnown: true,
      },
      {
        account: 'acct-a',
        lot: 'b3',
        quantity: '1',
        costBasisUsd: '45000',
        acquired: '2024-03-10',
        basisKnown: true,
      },
    ]);
    expect(result.issues).toEqual([]);
  });

  it('HIFO consumes the highest basis per unit first, so the same sale realizes less gain', () => {
    const result = computeCostBasis(history, { method: 'hifo' });
    // basis per unit: b1 40010, b2 50010, b3 45000 → 1.5 BTC all from b2
    expect(disposalRows(result)).toEqual([
      {
        tx: 's1',
        lot: 'b2',
        quantity: '1.5',
        acquired: '2024-02-10',
        disposed: '2024-06-01',
        proceedsUsd: '89970',
        costBasisUsd: '75015',
        gainUsd: '14955',
        term: 'short',
        basisKnown: true,
      },
    ]);
    // listed in the order HIFO would consume them next
    expect(openLotRows(result)).toEqual([
      {
        account: 'acct-a',
        lot: 'b2',
        quantity: '0.5',
        costBasisUsd: '25005',
        acquired: '2024-02-10',
        basisKnown: true,
      },
      {
        account: 'acct-a',
        lot: 'b3',
        quantity: '1',
        costBasisUsd: '45000',
        acquired: '2024-03-10',
        basisKnown: true,
      },
      {
        account: 'acct-a',
        lot: 'b1',
        quantity: '1',
        costBasisUsd: '40010',
        acquired: '2024-01-10',
        basisKnown: true,
      },
    ]);
  });

  it('LIFO consumes the newest lots first and splits the last one touched', () => {
    const result = computeCostBasis(history, { method: 'lifo' });
    // newest first: b3 (1 BTC, basis 45000), then 0.5 of b2 (basis 100020 × 0.5 / 2 = 25005).
    // proceeds 89970 pro rata: b3 89970 × 1/1.5 = 59980, b2 takes the rest 29990.
    expect(disposalRows(result)).toEqual([
      {
        tx: 's1',
        lot: 'b3',
        quantity: '1',
        acquired: '2024-03-10',
        disposed: '2024-06-01',
        proceedsUsd: '59980',
        costBasisUsd: '45000',
        gainUsd: '14980',
        term: 'short',
        basisKnown: true,
      },
      {
        tx: 's1',
        lot: 'b2',
        quantity: '0.5',
        acquired: '2024-02-10',
        disposed: '2024-06-01',
        proceedsUsd: '29990',
        costBasisUsd: '25005',
        gainUsd: '4985',
        term: 'short',
        basisKnown: true,
      },
    ]);
    // listed in the order LIFO would consume them next: the rest of b2 (100020 − 25005), then b1
    expect(openLotRows(result)).toEqual([
      {
        account: 'acct-a',
        lot: 'b2',
        quantity: '1.5',
        costBasisUsd: '75015',
        acquired: '2024-02-10',
        basisKnown: true,
      },
      {
        account: 'acct-a',
        lot: 'b1',
        quantity: '1',
        costBasisUsd: '40010',
        acquired: '2024-01-10',
        basisKnown: true,
      },
    ]);
  });

  it.each<[CostBasisMethod, string]>([
    ['fifo', '24955'],
    ['hifo', '14955'],
    ['lifo', '19965'],
  ])('%s realizes %s USD on the sale', (method, gainUsd) => {
    const gains = computeCostBasis(history, { method }).disposals.map((d) => new Decimal(d.gainUsd));
    expect(Decimal.sum(...gains).toFixed()).toBe(gainUsd);
  });

  it('breaks FIFO ties in acquisition time by the origin transactionId, and HIFO ties by age', () => {
    const sameInstant = [
      ledgerEntry({ tx: 'b-2', at: '2024-01-01', direction: 'buy', amount: '1', priceUsd: '10' }),
      ledgerEntry({ tx: 'b-1', at: '2024-01-01', direction: 'buy', amount: '1', priceUsd: '20' }),
      ledgerEntry({ tx: 'b-0', at: '2024-01-02', direction: 'buy', amount: '1', priceUsd: '20' }),
      ledgerEntry({ tx: 's', at: '2024-02-01', direction: 'sell', amount: '1', priceUsd: '30' }),
    ];
    expect(computeCostBasis(sameInstant, { method: 'fifo' }).disposals[0].lotOriginTransactionId).toBe('b-1');
    expect(computeCostBasis(sameInstant, { method: 'hifo' }).disposals[0].lotOriginTransactionId).toBe('b-1');
    // LIFO: newest (b-0) first; b-1 and b-2 tie in time, so the transactionId byte order decides
    const twoUnits = [...sameInstant.slice(0, 3), { ...sameInstant[3], amount: '2' }];
    expect(
      computeCostBasis(twoUnits, { method: 'lifo' }).disposals.map((d) => d.lotOriginTransactionId),
    ).toEqual(['b-0', 'b-1']);
  });

  it('keeps allocated basis and proceeds exact in total when the split does not terminate', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '3',
          priceUsd: '33.33',
          feeUsd: '0.01',
        }),
        ledgerEntry({ tx: 's1', at: '2024-02-01', direction: 'sell', amount: '1', priceUsd: '50' }),
        ledgerEntry({ tx: 's2', at: '2024-03-01', direction: 'sell', amount: '2', priceUsd: '50' }),
        ledgerEntry({ tx: 'b2', at: '2024-04-01', direction: 'buy', amount: '1', priceUsd: '1' }),
        ledgerEntry({ tx: 'b3', at: '2024-04-02', direction: 'buy', amount: '1', priceUsd: '1' }),
        ledgerEntry({ tx: 'b4', at: '2024-04-03', direction: 'buy', amount: '1', priceUsd: '1' }),
        ledgerEntry({
          tx: 's3',
          at: '2024-05-01',
          direction: 'sell',
          amount: '3',
          priceUsd: '33.34',
          feeUsd: '0.02',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.disposals.map((d) => [d.transactionId, d.proceedsUsd, d.costBasisUsd])).toEqual([
      // basis 100 split 1/3 : 2/3, rounded at the 30th decimal; the rest keeps the remainder
      ['s1', '50', '33.333333333333333333333333333333'],
      ['s2', '100', '66.666666666666666666666666666667'],
      // proceeds 100 split in three; the last piece takes the remainder
      ['s3', '33.333333333333333333333333333333', '1'],
      ['s3', '33.333333333333333333333333333333', '1'],
      ['s3', '33.333333333333333333333333333334', '1'],
    ]);
    expect(result.openLots).toEqual([]);
  });
});

describe('computeCostBasis: a method per disposal (elections)', () => {
  // docs/cost-basis.md, "Method elections", worked example: FIFO until 2024-07-01, then LIFO,
  // then HIFO from 2024-09-01.
  const history: LedgerEntry[] = [
    ledgerEntry({
      tx: 'b1',
      at: '2024-01-10',
      direction: 'buy',
      amount: '1',
      priceUsd: '40000',
      feeUsd: '10',
    }),
    ledgerEntry({
      tx: 'b2',
      at: '2024-02-10',
      direction: 'buy',
      amount: '2',
      priceUsd: '50000',
      feeUsd: '20',
    }),
    ledgerEntry({ tx: 'b3', at: '2024-03-10', direction: 'buy', amount: '1', priceUsd: '45000' }),
    ledgerEntry({
      tx: 's1',
      at: '2024-06-01',
      direction: 'sell',
      amount: '1.5',
      priceUsd: '60000',
      feeUsd: '30',
    }),
    ledgerEntry({ tx: 's2', at: '2024-08-01', direction: 'sell', amount: '1', priceUsd: '70000' }),
    ledgerEntry({ tx: 'b4', at: '2024-08-15', direction: 'buy', amount: '1', priceUsd: '30000' }),
    ledgerEntry({ tx: 's3', at: '2024-10-01', direction: 'sell', amount: '0.5', priceUsd: '80000' }),
  ];
  const elected = (_accountId: string, at: Date): CostBasisMethod =>
    at.toISOString().slice(0, 10) < '2024-07-01'
      ? 'fifo'
      : at.toISOString().slice(0, 10) < '2024-09-01'
        ? 'lifo'
        : 'hifo';

  it('takes each disposal in the method in force on its date', () => {
    const result = computeCostBasis(history, { method: 'fifo', methodFor: elected });
    expect(
      result.disposals.map((d) => [
        d.transactionId,
        d.lotOriginTransactionId,
        d.quantity,
        d.proceedsUsd,
        d.costBasisUsd,
        d.gainUsd,
      ]),
    ).toEqual([
      // FIFO: all of b1 (40010), then 0.5 of b2 (100020 / 2 × 0.5 = 25005); proceeds 89970 pro rata
      ['s1', 'b1', '1', '59980', '40010', '19970'],
      ['s1', 'b2', '0.5', '29990', '25005', '4985'],
      // LIFO: the newest lot is b3 (b4 is not bought yet): 70000 − 45000
      ['s2', 'b3', '1', '70000', '45000', '25000'],
      // HIFO: b2 at 50010 a unit beats b4 at 30000: 0.5 × 80000 − 75015 / 1.5 × 0.5
      ['s3', 'b2', '0.5', '40000', '25005', '14995'],
    ]);
    // listed in the order of the method at the last entry (HIFO)
    expect(openLotRows(result).map((l) => [l.lot, l.quantity, l.costBasisUsd])).toEqual([
      ['b2', '1', '50010'],
      ['b4', '1', '30000'],
    ]);
  });

  it('equals the single method when methodFor always answers it', () => {
    for (const method of ['fifo', 'hifo', 'lifo'] as const) {
      expect(computeCostBasis(history, { method: 'fifo', methodFor: () => method })).toEqual({
        ...computeCostBasis(history, { method }),
        method: 'fifo',
      });
    }
  });
});

describe('computeCostBasis: income and fees paid in the asset', () => {
  it('opens an income lot at market value, reports the income, and gains only on the later sale', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'stake-1',
          at: '2024-01-05',
          direction: 'income',
          amount: '0.1',
          priceUsd: '2000',
          symbol: 'ETH',
        }),
        ledgerEntry({
          tx: 's1',
          at: '2024-04-05',
          direction: 'sell',
          amount: '0.1',
          priceUsd: '2500',
          feeUsd: '5',
          symbol: 'ETH',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.incomeEvents).toEqual([
      {
        accountId: 'acct-a',
        symbol: 'ETH',
        transactionId: 'stake-1',
        quantity: '0.1',
        valueUsd: '200',
        receivedAt: new Date('2024-01-05'),
      },
    ]);
    expect(disposalRows(result)).toEqual([
      {
        tx: 's1',
        lot: 'stake-1',
        quantity: '0.1',
        acquired: '2024-01-05',
        disposed: '2024-04-05',
        proceedsUsd: '245',
        costBasisUsd: '200',
        gainUsd: '45',
        term: 'short',
        basisKnown: true,
      },
    ]);
  });

  it('treats a fee paid in the asset as a disposal at market value, with no second fee', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '1',
          priceUsd: '2000',
          symbol: 'ETH',
        }),
        ledgerEntry({
          tx: 'gas',
          at: '2024-02-01',
          direction: 'fee',
          amount: '0.01',
          priceUsd: '3000',
          symbol: 'ETH',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.disposals).toEqual([
      {
        accountId: 'acct-a',
        transactionId: 'gas',
        direction: 'fee',
        symbol: 'ETH',
        quantity: '0.01',
        acquiredAt: new Date('2024-01-01'),
        disposedAt: new Date('2024-02-01'),
        proceedsUsd: '30',
        costBasisUsd: '20',
        gainUsd: '10',
        term: 'short',
        basisKnown: true,
        lotOriginTransactionId: 'b1',
        acquiredInAccount: true,
        identifiedLate: false,
      },
    ]);
    expect(openLotRows(result)).toEqual([
      {
        account: 'acct-a',
        lot: 'b1',
        quantity: '0.99',
        costBasisUsd: '1980',
        acquired: '2024-01-01',
        basisKnown: true,
      },
    ]);
  });

  it('lets a sell fee larger than the gross proceeds produce negative proceeds (a loss), not a clamp', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({ tx: 'b1', at: '2024-01-01', direction: 'buy', amount: '0.0001', priceUsd: '10000' }),
        ledgerEntry({
          tx: 's1',
          at: '2024-01-02',
          direction: 'sell',
          amount: '0.0001',
          priceUsd: '10000',
          feeUsd: '2.5',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.disposals.map((d) => [d.proceedsUsd, d.costBasisUsd, d.gainUsd])).toEqual([
      ['-1.5', '1', '-2.5'],
    ]);
  });
});

describe('computeCostBasis: holding period', () => {
  it.each([
    ['2024-03-01', 'short'],
    ['2024-03-02', 'long'],
  ])('bought 2023-03-01, sold %s: %s-term', (soldOn, term) => {
    const result = computeCostBasis(
      [
        ledgerEntry({ tx: 'b1', at: '2023-03-01T15:00:00Z', direction: 'buy', amount: '1', priceUsd: '100' }),
        ledgerEntry({ tx: 's1', at: `${soldOn}T09:00:00Z`, direction: 'sell', amount: '1', priceUsd: '200' }),
      ],
      { method: 'fifo' },
    );
    expect(result.disposals.map((d) => [d.gainUsd, d.term])).toEqual([['100', term]]);
  });
});

describe('computeCostBasis: input', () => {
  it('gives the same result whatever order the entries come in', () => {
    const entries = [
      ledgerEntry({ tx: 'b1', at: '2024-01-01', direction: 'buy', amount: '1', priceUsd: '10' }),
      ledgerEntry({
        tx: 'b2',
        at: '2024-01-01',
        direction: 'buy',
        amount: '1',
        priceUsd: '30',
        account: 'acct-b',
      }),
      ledgerEntry({ tx: 's1', at: '2024-01-01', direction: 'sell', amount: '1', priceUsd: '20' }),
      ledgerEntry({ tx: 'b0', at: '2023-12-31', direction: 'buy', amount: '1', priceUsd: '15' }),
    ];
    const expected = computeCostBasis(entries, { method: 'hifo' });
    expect(computeCostBasis([...entries].reverse(), { method: 'hifo' })).toEqual(expected);
    expect(expected.disposals.map((d) => d.lotOriginTransactionId)).toEqual(['b0']);
  });

  it('does not mutate its input', () => {
    const entries = Object.freeze([
      Object.freeze(
        ledgerEntry({ tx: 'b1', at: '2024-01-01', direction: 'buy', amount: '1', priceUsd: '10' }),
      ),
    ]);
    expect(() => computeCostBasis(entries, { method: 'fifo' })).not.toThrow();
  });

  it.each<[string, Partial<LedgerEntry>]>([
    ['amount', { amount: '0' }],
    ['amount', { amount: '-1' }],
    ['amount', { amount: 'one' }],
    ['amount', { amount: 'Infinity' }],
    ['priceUsd', { priceUsd: '-0.01' }],
    ['feeUsd', { feeUsd: 'NaN' }],
    ['symbol', { symbol: 'btc' }],
    ['timestamp', { timestamp: new Date('not a date') }],
    ['timestamp', { timestamp: '2024-01-01' as unknown as Date }],
    ['direction', { direction: 'airdrop' as unknown as LedgerEntry['direction'] }],
    ['transactionId', { transactionId: '' }],
  ])('rejects an entry with an invalid %s (%j) before applying anything', (field, override) => {
    const entry = {
      ...ledgerEntry({ tx: 'b1', at: '2024-01-01', direction: 'buy', amount: '1' }),
      ...override,
    };
    let error: unknown;
    try {
      computeCostBasis([entry], { method: 'fifo' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidLedgerEntryError);
    expect(error).toMatchObject({ code: 'cost_basis.invalid_ledger_entry', field });
  });

  it('returns an empty result for an empty ledger', () => {
    expect(computeCostBasis([], { method: 'fifo' })).toEqual({
      method: 'fifo',
      openLots: [],
      disposals: [],
      removals: [],
      incomeEvents: [],
      issues: [],
    });
  });
});
