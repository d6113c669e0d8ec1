import { lotSelectionKey, type CostBasisMethod, type LedgerEntry } from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { ReadinessReasonCode } from './readiness.js';
import { totalsByBox } from './form-8949-lines.js';
import {
  computeTaxYear,
  custodyOf,
  summarizeGains,
  type TaxAccount,
  type TaxYearInput,
} from './tax-year-report.js';

const exchange: TaxAccount = { id: 'acct-a', syncStatus: 'synced', address: null, chain: null };

const input = (entries: readonly LedgerEntry[], fields: Partial<TaxYearInput> = {}): TaxYearInput => ({
  taxYear: 2024,
  method: 'fifo',
  accounts: [exchange],
  entries,
  ...fields,
});

// Worked by hand: 1 BTC bought at 10,000 (2023-01-10) and 1 BTC at 20,000 (2024-01-10); 1.5 BTC sold
// on 2024-06-01 at 30,000 less a 30 fee: proceeds 44,970, i.e. 29,980 per BTC-lot of 1 and 14,990 for 0.5.
//   FIFO: 1 BTC of 2023 (long: 29,980 − 10,000 = 19,980) + 0.5 BTC of 2024 (short: 14,990 − 10,000 = 4,990).
//   HIFO: 1 BTC of 2024 (short: 29,980 − 20,000 = 9,980) + 0.5 BTC of 2023 (long: 14,990 − 5,000 = 9,990).
// 0.1 ETH of staking income at 2,000 is 200 of ordinary income, not on the form.
const year: readonly LedgerEntry[] = [
  ledgerEntry({ tx: 'b1', at: '2023-01-10', direction: 'buy', amount: '1', priceUsd: '10000' }),
  ledgerEntry({ tx: 'b2', at: '2024-01-10', direction: 'buy', amount: '1', priceUsd: '20000' }),
  ledgerEntry({
    tx: 's1',
    at: '2024-06-01',
    direction: 'sell',
    amount: '1.5',
    priceUsd: '30000',
    feeUsd: '30',
  }),
  ledgerEntry({
    tx: 'r1',
    at: '2024-07-01',
    direction: 'income',
    amount: '0.1',
    priceUsd: '2000',
    symbol: 'ETH',
  }),
];

describe('computeTaxYear and summarizeGains', () => {
  it.each<[CostBasisMethod, string, string, string]>([
    ['fifo', '4990', '19980', '24970'],
    ['hifo', '9980', '9990', '19970'],
  ])('%s: short-term %s, long-term %s, net %s, one transaction', (method, shortTerm, longTerm, net) => {
    const query = input(year, { method });
    const gains = summarizeGains(query, computeTaxYear(query));
    expect(gains.transactions).toBe(1);
    expect(gains.totals.shortTerm.gainUsd.toFixed()).toBe(shortTerm);
    expect(gains.totals.longTerm.gainUsd.toFixed()).toBe(longTerm);
    expect(gains.totals.total.gainUsd.toFixed()).toBe(net);
    expect(gains.exact.netGainUsd).toBe(net);
    expect(gains.totals.total.proceedsUsd.toFixed()).toBe('44970');
    expect(gains.assets.map((a) => [a.symbol, a.transactions, a.total.lines])).toEqual([['BTC', 1, 2]]);
    expect(gains.ordinaryIncomeUsd).toBe('200');
  });

  it('puts the short-term line (box C) before the long-term one (box F) before 2025', () => {
    const { lines } = computeTaxYear(input(year));
    expect(
      lines.map((l) => [
        l.box,
        l.description,
        l.dateAcquired,
        l.dateSold,
        l.proceedsUsd.toFixed(2),
        l.gainUsd.toFixed(2),
      ]),
    ).toEqual([
      ['C', '0.5 BTC', '2024-01-10', '2024-06-01', '14990.00', '4990.00'],
      ['F', '1 BTC', '2023-01-10', '2024-06-01', '29980.00', '19980.00'],
    ]);
  });

  it('narrows disposals and income to the asset asked for', () => {
    const query = input(year, { asset: 'ETH' });
    const gains = summarizeGains(query, computeTaxYear(query));
    expect([gains.transactions, gains.totals.total.lines, gains.ordinaryIncomeUsd]).toEqual([0, 0, '200']);
  });

  it.each([
    [{ address: null, chain: null }, 'custodial'],
    [{ address: 'bc1qxy', chain: null }, 'custodial'],
    [{ address: 'bc1qxy', chain: 'bitcoin' }, 'self_custody'],
  ] as const)('custody of %j is %s', (account, custody) => {
    expect(custodyOf(account)).toBe(custody);
  });
});

describe('readiness', () => {
  const buy = ledgerEntry({ tx: 'b1', at: '2023-01-10', direction: 'buy', amount: '1', priceUsd: '100' });
  it.each<[string, readonly LedgerEntry[], readonly TaxAccount[], readonly [ReadinessReasonCode, number][]]>([
    [
      'a covered sale of a synced account',
      [buy, ledgerEntry({ tx: 's1', at: '2024-03-01', direction: 'sell', amount: '1', priceUsd: '150' })],
      [exchange],
      [],
    ],
    [
      'a sale of deposited coins (unknown basis)',
      [
        ledgerEntry({ tx: 'd1', at: '2024-01-01', direction: 'deposit', amount: '1' }),
        ledgerEntry({ tx: 's1', at: '2024-03-01', direction: 'sell', amount: '1', priceUsd: '150' }),
      ],
      [exchange],
      [[ReadinessReasonCode.UnknownBasis, 1]],
    ],
    [
      'a sale of more than was held (uncovered line)',
      [buy, ledgerEntry({ tx: 's1', at: '2024-03-01', direction: 'sell', amount: '1.5', priceUsd: '150' })],
      [exchange],
      [[ReadinessReasonCode.UncoveredDisposal, 1]],
    ],
    [
      'an earlier withdrawal of more than was held',
      [buy, ledgerEntry({ tx: 'w1', at: '2023-05-01', direction: 'withdrawal', amount: '2' })],
      [exchange],
      [[ReadinessReasonCode.InconsistentHistory, 1]],
    ],
    [
      'a shortfall after the year (not counted)',
      [buy, ledgerEntry({ tx: 'w1', at: '2025-05-01', direction: 'withdrawal', amount: '2' })],
      [exchange],
      [],
    ],
    [
      'an account not synced',
      [buy],
      [{ ...exchange, syncStatus: 'error' }],
      [[ReadinessReasonCode.AccountNotSynced, 1]],
    ],
  ])('%s', (_, entries, accounts, reasons) => {
    const { readiness } = computeTaxYear(input(entries, { accounts }));
    expect(readiness.status).toBe(reasons.length === 0 ? 'ready' : 'needs_review');
    expect(readiness.reasons.map((r) => [r.code, r.count])).toEqual(reasons);
  });

  it('keeps the wire values of the reason codes and names the states of unsynced accounts', () => {
    const accounts = [
      { ...exchange, syncStatus: 'syncing' },
      { ...exchange, id: 'acct-b', syncStatus: 'error' },
    ];
    const { readiness } = computeTaxYear(input([buy], { accounts }));
    expect(readiness.reasons).toEqual([
      {
        code: 'account_not_synced',
        count: 2,
        message: '2 account(s) are not synced (error, syncing): their transaction history may be incomplete.',
      },
    ]);
  });
});

describe('boxes G / J: covered digital assets sold from an exchange account (issue 27 item 8)', () => {
  // Worked by hand. acct-x and acct-y are exchange accounts (custodial), acct-w an own wallet.
  //   x-b0 2025-11-01 X buy 1 BTC at 50,000              basis 50,000 (before 2026: not covered)
  //   x-b1 2026-01-05 X buy 1 BTC at 40,000 + 10 fee     basis 40,010 (covered in X)
  //   x-r1 2026-01-10 X income 0.5 ETH at 3,000          basis 1,500 (received in X: covered)
  //   x-d1 2026-01-20 X deposit 2 SOL                    unknown basis (came from outside X)
  //   x-b2 2026-02-01 X buy 1 BTC at 45,000              basis 45,000 (covered in X)
  //   w-b1 2026-01-02 W buy 1 ETH at 3,000               basis 3,000 (own wallet: no broker)
  //   x-s1 2026-03-01 X sell 1.5 BTC at 60,000 − 30 fee  proceeds 89,970, FIFO:
  //        b0 1:   59,980 − 50,000 = 9,980 short  → H (acquired 2025)
  //        b1 0.5: 29,990 − 20,005 = 9,985 short  → G
  //   x-t1 / y-t1 2026-03-05 0.5 BTC X → Y: b1's other half (20,005) moves, keeping its date
  //   y-s1 2026-04-01 Y sell 0.5 BTC at 70,000: 35,000 − 20,005 = 14,995 short → H (transferred in)
  //   x-s2 2026-06-01 X sell 0.5 ETH at 4,000: 2,000 − 1,500 = 500 short → G
  //   w-s1 2026-06-01 W sell 1 ETH at 3,500: 3,500 − 3,000 = 500 short → I
  //   x-s3 2026-07-01 X sell 2 SOL at 150: 300 − 0 (unknown, flagged) short → H
  //   x-s4 2027-03-01 X sell 1 BTC at 80,000: b2, 80,000 − 45,000 = 35,000 long → J
  const x = { id: 'acct-x', syncStatus: 'synced', address: null, chain: null };
  const y = { id: 'acct-y', syncStatus: 'synced', address: null, chain: null };
  const w = { id: 'acct-w', syncStatus: 'synced', address: 'bc1qwallet', chain: 'bitcoin' };
  const history: LedgerEntry[] = [
    ledgerEntry({
      tx: 'x-b0',
      account: 'acct-x',
      at: '2025-11-01',
      direction: 'buy',
      amount: '1',
      priceUsd: '50000',
    }),
    ledgerEntry({
      tx: 'x-b1',
      account: 'acct-x',
      at: '2026-01-05',
      direction: 'buy',
      amount: '1',
      priceUsd: '40000',
      feeUsd: '10',
    }),
    ledgerEntry({
      tx: 'x-r1',
      account: 'acct-x',
      at: '2026-01-10',
      direction: 'income',
      amount: '0.5',
      priceUsd: '3000',
      symbol: 'ETH',
    }),
    ledgerEntry({
      tx: 'x-d1',
      account: 'acct-x',
      at: '2026-01-20',
      direction: 'deposit',
      amount: '2',
      symbol: 'SOL',
    }),
    ledgerEntry({
      tx: 'x-b2',
      account: 'acct-x',
      at: '2026-02-01',
      direction: 'buy',
      amount: '1',
      priceUsd: '45000',
    }),
    ledgerEntry({
      tx: 'w-b1',
      account: 'acct-w',
      at: '2026-01-02',
      direction: 'buy',
      amount: '1',
      priceUsd: '3000',
      symbol: 'ETH',
    }),
    ledgerEntry({
      tx: 'x-s1',
      account: 'acct-x',
      at: '2026-03-01',
      direction: 'sell',
      amount: '1.5',
      priceUsd: '60000',
      feeUsd: '30',
    }),
    ledgerEntry({
      tx: 'x-t1',
      account: 'acct-x',
      at: '2026-03-05',
      direction: 'transfer_out',
      amount: '0.5',
      transferId: 't1',
    }),
    ledgerEntry({
      tx: 'y-t1',
      account: 'acct-y',
      at: '2026-03-05',
      direction: 'transfer_in',
      amount: '0.5',
      transferId: 't1',
    }),
    ledgerEntry({
      tx: 'y-s1',
      account: 'acct-y',
      at: '2026-04-01',
      direction: 'sell',
      amount: '0.5',
      priceUsd: '70000',
    }),
    ledgerEntry({
      tx: 'x-s2',
      account: 'acct-x',
      at: '2026-06-01',
      direction: 'sell',
      amount: '0.5',
      priceUsd: '4000',
      symbol: 'ETH',
    }),
    ledgerEntry({
      tx: 'w-s1',
      account: 'acct-w',
      at: '2026-06-01',
      direction: 'sell',
      amount: '1',
      priceUsd: '3500',
      symbol: 'ETH',
    }),
    ledgerEntry({
      tx: 'x-s3',
      account: 'acct-x',
      at: '2026-07-01',
      direction: 'sell',
      amount: '2',
      priceUsd: '150',
      symbol: 'SOL',
    }),
    ledgerEntry({
      tx: 'x-s4',
      account: 'acct-x',
      at: '2027-03-01',
      direction: 'sell',
      amount: '1',
      priceUsd: '80000',
    }),
  ];
  const lineRows = (taxYear: number) =>
    computeTaxYear(input(history, { taxYear, accounts: [x, y, w] })).lines.map((l) => [
      l.box,
      l.transactionId,
      l.description,
      l.dateAcquired,
      l.proceedsUsd.toFixed(2),
      l.costBasisUsd.toFixed(2),
      l.gainUsd.toFixed(2),
    ]);

  it('2026: G for lots acquired in the selling exchange account, H for the rest of the exchanges, I for the wallet', () => {
    expect(lineRows(2026)).toEqual([
      ['G', 'x-s1', '0.5 BTC', '2026-01-05', '29990.00', '20005.00', '9985.00'],
      ['G', 'x-s2', '0.5 ETH', '2026-01-10', '2000.00', '1500.00', '500.00'],
      ['H', 'x-s1', '1 BTC', '2025-11-01', '59980.00', '50000.00', '9980.00'],
      ['H', 'y-s1', '0.5 BTC', '2026-01-05', '35000.00', '20005.00', '14995.00'],
      ['H', 'x-s3', '2 SOL', '2026-01-20', '300.00', '0.00', '300.00'],
      ['I', 'w-s1', '1 ETH', '2026-01-02', '3500.00', '3000.00', '500.00'],
    ]);
    const totals = totalsByBox(computeTaxYear(input(history, { taxYear: 2026, accounts: [x, y, w] })).lines);
    expect(
      totals.map((t) => [
        t.box,
        t.lines,
        t.proceedsUsd.toFixed(2),
        t.costBasisUsd.toFixed(2),
        t.gainUsd.toFixed(2),
      ]),
    ).toEqual([
      ['G', 2, '31990.00', '21505.00', '10485.00'],
      ['H', 3, '95280.00', '70005.00', '25275.00'],
      ['I', 1, '3500.00', '3000.00', '500.00'],
    ]);
  });

  it('2027: the long-term sale of a lot bought in the account in 2026 goes to J', () => {
    expect(lineRows(2027)).toEqual([
      ['J', 'x-s4', '1 BTC', '2026-02-01', '80000.00', '45000.00', '35000.00'],
    ]);
  });
});

describe('a late lot selection on the form and in readiness (issue 27 item 6)', () => {
  // The worked year above; s1 (2024-06-01) has a selection of b2 recorded on 2025-02-01: late.
  // The figures stay FIFO's (short 4,990, long 19,980); the lines say so and the form needs review.
  const selections = new Map([
    [
      lotSelectionKey('acct-a', 's1'),
      Object.assign(
        [
          { lotId: 'b2', quantity: '1' },
          { lotId: 'b1', quantity: '0.5' },
        ],
        {
          recordedAt: new Date('2025-02-01T09:30:00Z'),
        },
      ),
    ],
  ]);

  it('keeps the standing method’s figures, flags both lines and names the disposal in readiness', () => {
    const query = input(year, { selections });
    const taxYear = computeTaxYear(query);
    expect(taxYear.lines.map((l) => [l.box, l.gainUsd.toFixed(2), l.identifiedLate, l.reviewReason])).toEqual(
      [
        ['C', '4990.00', true, 'identified_late'],
        ['F', '19980.00', true, 'identified_late'],
      ],
    );
    expect(summarizeGains(query, taxYear).exact.netGainUsd).toBe('24970');
    expect(taxYear.readiness).toEqual({
      status: 'needs_review',
      reasons: [
        {
          code: 'identified_late',
          count: 1,
          message:
            '1 disposal(s) have a lot selection recorded after the disposal (s1: sold 2024-06-01T00:00:00.000Z, selection recorded 2025-02-01T09:30:00.000Z). Specific identification must be made by the time of the sale (Treas. Reg. §1.1012-1(j)(3)), so the standing method (the elected method, FIFO without an election) chose their lots, not the selection; delete the selection, or keep it as a record of what was asked.',
        },
      ],
    });
  });

  it('another year’s report is not flagged by it', () => {
    const later = [
      ...year,
      ledgerEntry({ tx: 's9', at: '2025-03-01', direction: 'sell', amount: '0.1', priceUsd: '100' }),
    ];
    const { readiness, lines } = computeTaxYear(input(later, { taxYear: 2025, selections }));
    expect(readiness).toEqual({ status: 'ready', reasons: [] });
    expect(lines.map((l) => l.identifiedLate)).toEqual([false]);
  });

  it('a line that is both unknown basis and identified late keeps the basis reason first', () => {
    const deposited = [
      ledgerEntry({ tx: 'd1', at: '2024-01-01', direction: 'deposit', amount: '1' }),
      ledgerEntry({ tx: 's1', at: '2024-06-01', direction: 'sell', amount: '1', priceUsd: '150' }),
    ];
    const late = new Map([
      [
        lotSelectionKey('acct-a', 's1'),
        Object.assign([{ lotId: 'd1', quantity: '1' }], { recordedAt: new Date('2024-07-01') }),
      ],
    ]);
    const { lines, readiness } = computeTaxYear(input(deposited, { selections: late }));
    expect(lines.map((l) => [l.reviewReason, l.identifiedLate])).toEqual([['unknown_basis', true]]);
    expect(readiness.reasons.map((r) => [r.code, r.count])).toEqual([
      ['unknown_basis', 1],
      ['identified_late', 1],
    ]);
  });
});
