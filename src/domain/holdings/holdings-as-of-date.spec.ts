import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import {
  btcWeight,
  historyStartDate,
  holdingsAsOfDate,
  valueHoldings,
  weighHoldings,
  type Holding,
} from './holdings-as-of-date.js';

const entries = [
  ledgerEntry({ tx: 'b1', at: '2024-01-01T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '100' }),
  ledgerEntry({
    tx: 'e1',
    at: '2024-01-02T23:59:59.999Z',
    direction: 'buy',
    amount: '10',
    priceUsd: '10',
    symbol: 'ETH',
  }),
  ledgerEntry({ tx: 's1', at: '2024-01-03T00:00:00Z', direction: 'sell', amount: '0.25', priceUsd: '200' }),
  ledgerEntry({
    tx: 'o1',
    at: '2024-01-03T12:00:00Z',
    direction: 'transfer_out',
    amount: '2',
    symbol: 'ETH',
    transferId: 'x',
  }),
  ledgerEntry({
    tx: 'i1',
    at: '2024-01-03T12:00:00Z',
    direction: 'transfer_in',
    amount: '2',
    symbol: 'ETH',
    transferId: 'x',
    account: 'acct-b',
  }),
];

describe('holdingsAsOfDate', () => {
  it.each<[string, string, [string, string][]]>([
    ['acct-a', '2023-12-31', []],
    ['acct-a', '2024-01-01', [['BTC', '1']]],
    // Everything timestamped on the day counts, up to its last millisecond.
    [
      'acct-a',
      '2024-01-02',
      [
        ['BTC', '1'],
        ['ETH', '10'],
      ],
    ],
    [
      'acct-a',
      '2024-01-03',
      [
        ['BTC', '0.75'],
        ['ETH', '8'],
      ],
    ],
    ['acct-b', '2024-01-03', [['ETH', '2']]],
  ])('%s at the end of %s holds %j', (accountId, date, expected) => {
    expect(holdingsAsOfDate(entries, accountId, date).map((h) => [h.symbol, h.quantity])).toEqual(expected);
  });

  it.each([
    ['acct-a', '2024-01-01'],
    ['acct-b', '2024-01-03'],
    ['acct-c', null],
  ])('the history of %s starts on %s', (accountId, date) => {
    expect(historyStartDate(entries, accountId)).toBe(date);
  });
});

describe('valueHoldings and weighHoldings', () => {
  const held: Holding[] = [
    { symbol: 'BTC', quantity: '0.75' },
    { symbol: 'DOGE', quantity: '100' },
    { symbol: 'ETH', quantity: '8' },
    { symbol: 'SOL', quantity: '3' },
  ];
  const prices = new Map([
    ['BTC', '40000'],
    ['DOGE', '0.1'],
    ['ETH', '2500'],
  ]);

  it('values quantity × price and excludes holdings without a price or score data, saying why', () => {
    const valuation = valueHoldings(held, prices, new Set(['BTC', 'ETH', 'SOL']));
    expect(valuation.valued.map((h) => [h.symbol, h.valueUsd.toFixed()])).toEqual([
      ['BTC', '30000'],
      ['ETH', '20000'],
    ]);
    expect(valuation.excluded).toEqual([
      { symbol: 'DOGE', quantity: '100', reason: 'no_score_data' },
      { symbol: 'SOL', quantity: '3', reason: 'no_price' },
    ]);
    expect(valuation.totalUsd.toFixed()).toBe('50000');
    const weighed = weighHoldings(valuation);
    expect(weighed.map((h) => [h.symbol, h.weight.toFixed()])).toEqual([
      ['BTC', '0.6'],
      ['ETH', '0.4'],
    ]);
    expect(btcWeight(weighed).toFixed()).toBe('0.6');
  });

  it('rounds weights half-up to 60 significant digits, largest value first', () => {
    const valuation = valueHoldings(
      [
        { symbol: 'BTC', quantity: '1' },
        { symbol: 'ETH', quantity: '2' },
      ],
      new Map([
        ['BTC', '1'],
        ['ETH', '1'],
      ]),
      new Set(['BTC', 'ETH']),
    );
    expect(weighHoldings(valuation).map((h) => [h.symbol, h.weight.toFixed()])).toEqual([
      ['ETH', `0.${'6'.repeat(59)}7`],
      ['BTC', `0.${'3'.repeat(60)}`],
    ]);
  });

  it('gives BTC no weight when it is not held', () => {
    expect(btcWeight([]).toFixed()).toBe('0');
  });
});
