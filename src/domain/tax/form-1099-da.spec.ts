import type { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { ExactDecimal } from '../money/exact-decimal.js';
import { parseForm1099Da, reconcileForm1099Da, type BrokerLine, type ServiceSide } from './form-1099-da.js';
import type { Form8949Line } from './form-8949-lines.js';

const HEADER = 'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference';

function line(fields: {
  tx: string;
  symbol?: string;
  quantity: string;
  acquired: string | null;
  sold: string;
  proceeds: string;
  basis: string;
  term?: 'short' | 'long';
}): Form8949Line {
  const proceeds = new ExactDecimal(fields.proceeds);
  const basis = new ExactDecimal(fields.basis);
  return {
    part: fields.term === 'long' ? 'II' : 'I',
    box: fields.term === 'long' ? 'K' : 'H',
    term: fields.term ?? 'short',
    symbol: fields.symbol ?? 'BTC',
    quantity: fields.quantity,
    description: `${fields.quantity} ${fields.symbol ?? 'BTC'}`,
    dateAcquired: fields.acquired,
    dateSold: fields.sold,
    proceedsUsd: proceeds,
    costBasisUsd: basis,
    gainUsd: proceeds.minus(basis),
    accountId: 'acct-a',
    transactionId: fields.tx,
    reviewReason: null,
    identifiedLate: false,
  };
}

function brokerLines(csv: string): BrokerLine[] {
  const parsed = parseForm1099Da(csv);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.lines;
}

describe('Form 1099-DA: reading the CSV', () => {
  it('reads every box, in any column order, with $ and thousands separators', () => {
    const lines = brokerLines(
      [
        'date_sold,ASSET,units,proceeds,cost_basis,date_acquired,term,reference',
        '2025-03-01,btc,0.5,"$32,500.00","20,005.00",2024-01-02,long,R-1',
        '2025-04-01,ETH,2,5000,,VARIOUS,,',
      ].join('\n'),
    );
    expect(lines).toEqual([
      {
        line: 2,
        asset: 'BTC',
        units: '0.5',
        dateAcquired: '2024-01-02',
        dateSold: '2025-03-01',
        proceedsUsd: '32500',
        costBasisUsd: '20005',
        term: 'long',
        reference: 'R-1',
      },
      {
        line: 3,
        asset: 'ETH',
        units: '2',
        dateAcquired: null,
        dateSold: '2025-04-01',
        proceedsUsd: '5000',
        costBasisUsd: null,
        term: null,
        reference: null,
      },
    ]);
  });

  it('names every bad line and field, and gives no lines at all', () => {
    const parsed = parseForm1099Da(
      [
        HEADER,
        'BTC,0,,2025-02-30,1.001,,medium,',
        'ETH,1,,2025-01-01,10,,,',
        'B-T,1,x,2025-01-01,10,-1,,',
      ].join('\n'),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => [p.line, p.message.split(' ')[0]])).toEqual([
      [2, 'units'],
      [2, 'date_sold'],
      [2, 'proceeds'],
      [2, 'term'],
      [4, 'asset'],
      [4, 'date_acquired'],
      [4, 'cost_basis'],
    ]);
  });

  it('a header without a required column is one problem naming it', () => {
    const parsed = parseForm1099Da('asset,units,date_sold\nBTC,1,2025-01-01\n');
    expect(parsed).toEqual({
      ok: false,
      problems: [{ line: 1, message: 'The header lacks the column(s) proceeds.' }],
    });
  });
});

describe('Form 1099-DA: reconciling with the Form 8949 lines', () => {
  /**
   * The service's 2025 disposals:
   * - s1 on 2025-03-01 sells 0.5 BTC from one lot (2024-01-02): proceeds 32,500, basis 20,005;
   * - s2 on 2025-05-01 sells 1.5 BTC from two lots (2024-02-01 and 2024-06-01): 45,000 + 45,000
   *   proceeds, 30,000 + 60,000 basis;
   * - s3 on 2025-06-01 sells 2 ETH (one lot): proceeds 5,000, basis 4,000;
   * - s4 on 2025-07-01 sells 1 SOL: proceeds 150, basis 200.
   */
  const SERVICE = [
    line({
      tx: 's1',
      quantity: '0.5',
      acquired: '2024-01-02',
      sold: '2025-03-01',
      proceeds: '32500',
      basis: '20005',
      term: 'long',
    }),
    line({
      tx: 's2',
      quantity: '0.5',
      acquired: '2024-02-01',
      sold: '2025-05-01',
      proceeds: '45000',
      basis: '30000',
      term: 'long',
    }),
    line({
      tx: 's2',
      quantity: '1',
      acquired: '2024-06-01',
      sold: '2025-05-01',
      proceeds: '45000',
      basis: '60000',
      term: 'short',
    }),
    line({
      tx: 's3',
      symbol: 'ETH',
      quantity: '2',
      acquired: '2024-09-01',
      sold: '2025-06-01',
      proceeds: '5000',
      basis: '4000',
    }),
    line({
      tx: 's4',
      symbol: 'SOL',
      quantity: '1',
      acquired: '2025-01-01',
      sold: '2025-07-01',
      proceeds: '150',
      basis: '200',
    }),
  ];

  it('pairs per lot, per sale and on the same day; lists differences and what is left on both sides', () => {
    const broker = brokerLines(
      [
        HEADER,
        // per lot, agreeing
        'BTC,0.5,2024-01-02,2025-03-01,32500.00,20005.00,long,A',
        // per sale (aggregated, noncovered: no basis), agreeing
        'BTC,1.5,VARIOUS,2025-05-01,90000.00,,,B',
        // same day, the broker reports 1.9 ETH and 4,750 proceeds: differences
        'ETH,1.9,2024-09-01,2025-06-01,4750.00,4000.00,short,C',
        // nothing of the service's that day
        'BTC,0.1,,2025-08-01,9000.00,,,D',
      ].join('\n'),
    );
    const result = reconcileForm1099Da(broker, SERVICE);
    expect(result.matched.map((p) => [p.broker.reference, p.matchedBy, p.service.transactionId])).toEqual([
      ['A', 'lot', 's1'],
      ['B', 'sale', 's2'],
    ]);
    const b = result.matched[1];
    expect([
      b?.service.units,
      b?.service.proceedsUsd,
      b?.service.costBasisUsd,
      b?.service.dateAcquired,
      b?.service.term,
    ]).toEqual(['1.5', '90000.00', '90000.00', null, null]);
    expect(result.different.map((p) => [p.broker.reference, p.matchedBy, p.service.transactionId])).toEqual([
      ['C', 'same_day', 's3'],
    ]);
    expect(result.different[0]?.differences).toEqual([
      { field: 'units', broker: '1.9', service: '2', difference: '-0.1' },
      { field: 'proceeds', broker: '4750.00', service: '5000.00', difference: '-250' },
    ]);
    expect(result.unmatchedBroker.map((l) => l.reference)).toEqual(['D']);
    expect(result.unmatchedService.map((s) => [s.transactionId, s.units, s.proceedsUsd])).toEqual([
      ['s4', '1', '150.00'],
    ]);
    expect([result.brokerProceedsUsd, result.serviceProceedsUsd]).toEqual(['136250.00', '127650.00']);
  });

  it('a basis or a date acquired that differs is named with both values', () => {
    const broker = brokerLines(
      [
        HEADER,
        'BTC,0.5,2024-01-02,2025-03-01,32500.00,20000.00,short,A',
        'SOL,1,2024-12-31,2025-07-01,150,200,,E',
      ].join('\n'),
    );
    const result = reconcileForm1099Da(broker, SERVICE);
    expect(result.different.map((p) => [p.broker.reference, p.matchedBy, p.differences])).toEqual([
      [
        'A',
        'lot',
        [
          { field: 'cost_basis', broker: '20000.00', service: '20005.00', difference: '-5' },
          { field: 'term', broker: 'short', service: 'long', difference: null },
        ],
      ],
      [
        'E',
        'sale',
        [{ field: 'date_acquired', broker: '2024-12-31', service: '2025-01-01', difference: null }],
      ],
    ]);
  });

  it('two broker lines on one day are not guessed at: both stay unmatched when the units do not fit', () => {
    const broker = brokerLines(
      [HEADER, 'ETH,1.2,,2025-06-01,3000,,,X', 'ETH,0.7,,2025-06-01,1750,,,Y'].join('\n'),
    );
    const result = reconcileForm1099Da(broker, SERVICE);
    expect(result.unmatchedBroker.map((l) => l.reference)).toEqual(['X', 'Y']);
    expect(result.unmatchedService.map((s) => s.transactionId)).toContain('s3');
  });

  it('each service line is used once: a duplicated broker line is left over', () => {
    const row = 'SOL,1,2025-01-01,2025-07-01,150,200,,';
    const result = reconcileForm1099Da(brokerLines([HEADER, row, row].join('\n')), SERVICE);
    expect(result.matched).toHaveLength(1);
    expect(result.unmatchedBroker.map((l) => l.line)).toEqual([3]);
  });
});

/** What a reconciliation decided: who pairs with whom and how, and what is left on each side. */
function outcome(result: ReturnType<typeof reconcileForm1099Da>) {
  return {
    pairs: [...result.matched, ...result.different]
      .map((p) => [p.broker.line, p.matchedBy, p.service] as const)
      .sort((a, b) => a[0] - b[0]),
    unmatchedBroker: result.unmatchedBroker.map((b) => b.line),
    unmatchedService: result.unmatchedService,
  };
}

/**
 * The matching as it was first written (quadratic: each broker line scanned every service line,
 * and in the same-day pass every other broker line), kept as the reference the indexed matching
 * must agree with on every input. Returns what `outcome` projects.
 */
function referenceOutcome(broker: readonly BrokerLine[], service: readonly Form8949Line[]) {
  const used = new Set<Form8949Line>();
  const pairs: (readonly [number, string, ServiceSide])[] = [];
  const open = new Set(broker);
  const free = (l: Form8949Line) => !used.has(l);
  const sum = (values: readonly (string | Decimal)[]) =>
    values.reduce<Decimal>((total, v) => total.plus(v), new ExactDecimal(0));
  const cents = (values: readonly (string | Decimal)[]) =>
    sum(values).toDecimalPlaces(2, ExactDecimal.ROUND_HALF_UP).toFixed(2);
  const side = (lines: readonly Form8949Line[]): ServiceSide => ({
    transactionId: lines[0]!.transactionId,
    accountId: lines[0]!.accountId,
    units: sum(lines.map((l) => l.quantity)).toFixed(),
    dateAcquired: new Set(lines.map((l) => l.dateAcquired)).size === 1 ? lines[0]!.dateAcquired : null,
    dateSold: lines[0]!.dateSold,
    proceedsUsd: cents(lines.map((l) => l.proceedsUsd)),
    costBasisUsd: cents(lines.map((l) => l.costBasisUsd)),
    term: new Set(lines.map((l) => l.term)).size === 1 ? lines[0]!.term : null,
    lines: lines.length,
  });
  const groupBySale = (lines: readonly Form8949Line[]) => {
    const sales = new Map<string, Form8949Line[]>();
    for (const l of lines) {
      const key = `${l.accountId}\u0000${l.transactionId}`;
      sales.set(key, [...(sales.get(key) ?? []), l]);
    }
    return sales;
  };
  const salesOf = (lines: readonly Form8949Line[], b: BrokerLine) => [
    ...groupBySale(lines.filter((l) => l.symbol === b.asset && l.dateSold === b.dateSold)).values(),
  ];
  for (const b of broker) {
    if (b.dateAcquired === null) continue;
    const l = service.find(
      (x) =>
        free(x) &&
        x.symbol === b.asset &&
        x.dateSold === b.dateSold &&
        x.dateAcquired === b.dateAcquired &&
        new ExactDecimal(x.quantity).equals(b.units),
    );
    if (!l) continue;
    used.add(l);
    open.delete(b);
    pairs.push([b.line, 'lot', side([l])]);
  }
  for (const b of [...open]) {
    const sale = salesOf(service.filter(free), b).find((lines) =>
      sum(lines.map((l) => l.quantity)).equals(b.units),
    );
    if (!sale) continue;
    for (const l of sale) used.add(l);
    open.delete(b);
    pairs.push([b.line, 'sale', side(sale)]);
  }
  for (const b of [...open]) {
    const sales = salesOf(service.filter(free), b);
    const only = sales.length === 1 ? sales[0] : undefined;
    if (!only) continue;
    const others = [...open].filter((o) => o !== b && o.asset === b.asset && o.dateSold === b.dateSold);
    if (others.length > 0) continue;
    for (const l of only) used.add(l);
    open.delete(b);
    pairs.push([b.line, 'same_day', side(only)]);
  }
  return {
    pairs: pairs.sort((a, b) => a[0] - b[0]),
    unmatchedBroker: broker.filter((b) => open.has(b)).map((b) => b.line),
    unmatchedService: [...groupBySale(service.filter(free)).values()].map(side),
  };
}

describe('Form 1099-DA: matching many lines (issue 27 item 9)', () => {
  const sale = line({
    tx: 's1',
    quantity: '0.5',
    acquired: null,
    sold: '2025-03-01',
    proceeds: '32500',
    basis: '0',
  });

  it('keeps the matching rules: the same outcome as the reference on random files and lines', () => {
    const assets = ['BTC', 'ETH'];
    const dates = ['2025-03-01', '2025-03-02'];
    const acquired = [null, '2024-01-02', '2024-06-01'];
    const units = ['0.1', '0.2', '0.3', '0.5', '1'];
    const serviceLine = fc
      .record({
        sale: fc.integer({ min: 0, max: 5 }),
        account: fc.constantFrom('acct-a', 'acct-b'),
        acquired: fc.constantFrom(...acquired),
        quantity: fc.constantFrom(...units),
        proceeds: fc.constantFrom('100', '100.005', '250.5'),
        term: fc.constantFrom<'short' | 'long'>('short', 'long'),
      })
      .map((f) => {
        // A sale (account, transaction) has one asset and one date sold.
        const l = line({
          tx: `s${f.sale}`,
          symbol: assets[f.sale % 2],
          quantity: f.quantity,
          acquired: f.acquired,
          sold: dates[Math.floor(f.sale / 2) % 2]!,
          proceeds: f.proceeds,
          basis: '50',
          term: f.term,
        });
        return { ...l, accountId: f.account };
      });
    const brokerRow = fc
      .record({
        asset: fc.constantFrom(...assets),
        units: fc.constantFrom(...units, '0.6', '1.5'),
        acquired: fc.constantFrom(...acquired),
        sold: fc.constantFrom(...dates),
      })
      .map((f) => `${f.asset},${f.units},${f.acquired ?? ''},${f.sold},100.00,,,`);
    fc.assert(
      fc.property(
        fc.array(serviceLine, { maxLength: 12 }),
        fc.array(brokerRow, { maxLength: 12 }),
        (service, rows) => {
          const broker = brokerLines([HEADER, ...rows].join('\n'));
          expect(outcome(reconcileForm1099Da(broker, service))).toEqual(referenceOutcome(broker, service));
        },
      ),
      { numRuns: 500 },
    );
  });

  // Linear work is held by the counting test below (property reads per line); these wall-clock
  // bounds are only a sanity check at 10x the quiet machine's time, so that a loaded CI host (a
  // 1 s bound failed at 1.5 s with three test runs on 2 cores) cannot fail them. Figures:
  // bench/README.md, "Form 1099-DA reconciliation".
  it('16,000 copies of one line for an asset and date with one sale: in seconds, not minutes', () => {
    // The broker's units differ from the sale's, so neither the lot nor the sale pass pairs them,
    // and the same-day pass must see, for each copy, that other copies of that day are left.
    const rows = Array.from({ length: 16_000 }, (_, i) => `BTC,0.4,,2025-03-01,26000.00,,,R${i}`);
    const broker = brokerLines([HEADER, ...rows].join('\n'));
    const started = performance.now();
    const result = reconcileForm1099Da(broker, [sale]);
    const elapsedMs = performance.now() - started;
    expect(result.unmatchedBroker).toHaveLength(16_000);
    expect(result.unmatchedService.map((s) => s.transactionId)).toEqual(['s1']);
    expect(elapsedMs).toBeLessThan(10_000);
  });

  it('16,000 copies of the sale’s own line: the first pairs per sale, the rest are left, at once', () => {
    const rows = Array.from({ length: 16_000 }, (_, i) => `BTC,0.5,,2025-03-01,32500.00,,,R${i}`);
    const started = performance.now();
    const result = reconcileForm1099Da(brokerLines([HEADER, ...rows].join('\n')), [sale]);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.matched.map((p) => [p.broker.reference, p.matchedBy])).toEqual([['R0', 'sale']]);
    expect(result.unmatchedBroker).toHaveLength(15_999);
  });

  it('reads each line a bounded number of times, however many lines share an asset and date', () => {
    // Every property read of every line is counted: linear work reads each line a few times,
    // the quadratic matching read the other broker lines of the day once per line (millions).
    let reads = 0;
    const counted = <T extends object>(value: T): T =>
      new Proxy(value, {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    const rows = Array.from({ length: 2_000 }, (_, i) => `BTC,0.4,,2025-03-01,26000.00,,,R${i}`);
    const broker = brokerLines([HEADER, ...rows].join('\n')).map(counted);
    const service = [sale, { ...sale, dateAcquired: '2024-01-02', quantity: '0.25' }].map(counted);
    const result = reconcileForm1099Da(broker, service);
    expect(result.unmatchedBroker).toHaveLength(2_000);
    expect(reads).toBeLessThan(40 * (broker.length + service.length));
  });
});
