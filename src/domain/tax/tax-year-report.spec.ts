import type { CostBasisMethod, LedgerEntry } from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { ReadinessReasonCode } from './readiness.js';
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
