import {
  exchangeLegs,
  UnpricedExchangeItemError,
  type ExchangeLedgerEntry,
  type ExchangeTrade,
} from './exchange-history.js';

const at = (iso: string) => Date.parse(iso);
const PRICES: Record<string, string> = {
  'BTC 2024-02-01': '43000',
  'ETH 2024-03-01': '3400.5',
  'DOT 2024-04-01': '7.25',
  'BTC 2024-04-02': '66000',
};
const priceOnDay = (symbol: string, date: string) => PRICES[`${symbol} ${date}`];
const rows = (legs: ReturnType<typeof exchangeLegs>) =>
  legs.map((l) => [l.transactionId, l.direction, l.symbol, l.amount, l.priceUsd, l.feeUsd]);

describe('exchangeLegs: what an exchange account’s history means for its ledger', () => {
  it('a USD trade is a buy or sell at its price, the USD fee on it', () => {
    const trades: ExchangeTrade[] = [
      {
        id: 'T1',
        timestamp: at('2024-01-15T10:00:00Z'),
        symbol: 'BTC/USD',
        side: 'buy',
        amount: 0.1,
        price: 42000,
        fee: { cost: 10.92, currency: 'USD' },
      },
      {
        id: 'T2',
        timestamp: at('2024-01-16T10:00:00Z'),
        symbol: 'BTC/USD',
        side: 'sell',
        amount: '0.04',
        price: '45000.5',
        fee: { cost: '4.68', currency: 'USD' },
      },
    ];
    expect(rows(exchangeLegs(trades, [], priceOnDay))).toEqual([
      ['trade:T1:BTC', 'buy', 'BTC', '0.1', '42000', '10.92'],
      ['trade:T2:BTC', 'sell', 'BTC', '0.04', '45000.5', '4.68'],
    ]);
  });

  it('a crypto-for-crypto trade is a buy of one and a sell of the other at the day’s USD price; a fee in crypto is a fee entry', () => {
    // Buy 2 ETH at 0.05 BTC (cost 0.1 BTC), fee 0.0002 BTC, BTC at $43,000 that day: ETH at 0.05 × 43,000 = $2,150.
    const trades: ExchangeTrade[] = [
      {
        id: 'T3',
        timestamp: at('2024-02-01T08:00:00Z'),
        symbol: 'ETH/BTC',
        side: 'buy',
        amount: 2,
        price: 0.05,
        fee: { cost: 0.0002, currency: 'BTC' },
      },
    ];
    expect(rows(exchangeLegs(trades, [], priceOnDay))).toEqual([
      ['trade:T3:BTC', 'sell', 'BTC', '0.1', '43000', null],
      ['trade:T3:ETH', 'buy', 'ETH', '2', '2150', null],
      ['trade:T3:fee', 'fee', 'BTC', '0.0002', '43000', null],
    ]);
  });

  it('refuses to guess a rate it does not store (a EUR trade), naming the item, currency and day', () => {
    const trades: ExchangeTrade[] = [
      {
        id: 'T4',
        timestamp: at('2024-02-02T00:00:00Z'),
        symbol: 'BTC/EUR',
        side: 'sell',
        amount: 0.01,
        price: 40000,
        fee: null,
      },
    ];
    expect(() => exchangeLegs(trades, [], priceOnDay)).toThrow(
      new UnpricedExchangeItemError('T4', 'EUR', '2024-02-02'),
    );
  });

  it('ledger: crypto deposits and withdrawals (with their fee in the asset), rewards as income; fiat and trade rows left out', () => {
    const ledger: ExchangeLedgerEntry[] = [
      { id: 'L1', timestamp: at('2024-01-10T00:00:00Z'), type: 'deposit', currency: 'USD', amount: 10000 },
      { id: 'L2', timestamp: at('2024-01-11T00:00:00Z'), type: 'deposit', currency: 'BTC', amount: 0.5 },
      {
        id: 'L3',
        timestamp: at('2024-03-01T12:00:00Z'),
        type: 'withdrawal',
        currency: 'ETH',
        amount: -1,
        fee: { cost: 0.0035, currency: 'ETH' },
      },
      {
        id: 'L4',
        timestamp: at('2024-04-01T00:00:00Z'),
        type: 'transaction',
        currency: 'DOT',
        amount: 1.5,
        info: { type: 'staking' },
      },
      { id: 'L5', timestamp: at('2024-01-15T10:00:00Z'), type: 'trade', currency: 'BTC', amount: 0.1 },
      // Kraken: deposits and withdrawals both come as `transaction`, told apart by its own type or the direction.
      {
        id: 'L7',
        timestamp: at('2024-04-02T00:00:00Z'),
        type: 'transaction',
        currency: 'BTC',
        amount: 0.25,
        direction: 'out',
        fee: { cost: 0.0001, currency: 'BTC' },
        info: { type: 'withdrawal' },
      },
      {
        id: 'L8',
        timestamp: at('2024-04-03T00:00:00Z'),
        type: 'transaction',
        currency: 'ETH',
        amount: 2,
        direction: 'in',
      },
    ];
    expect(rows(exchangeLegs([], ledger, priceOnDay))).toEqual([
      ['ledger:L2', 'deposit', 'BTC', '0.5', null, null],
      ['ledger:L3', 'withdrawal', 'ETH', '1', null, null],
      ['ledger:L3:fee', 'fee', 'ETH', '0.0035', '3400.5', null],
      ['ledger:L4', 'income', 'DOT', '1.5', '7.25', null],
      ['ledger:L7', 'withdrawal', 'BTC', '0.25', null, null],
      ['ledger:L7:fee', 'fee', 'BTC', '0.0001', '66000', null],
      ['ledger:L8', 'deposit', 'ETH', '2', null, null],
    ]);
  });

  it('a negative reward is never income (ccxt’s unified types)', () => {
    const ledger: ExchangeLedgerEntry[] = [
      { id: 'N1', timestamp: at('2024-04-01T00:00:00Z'), type: 'reward', currency: 'DOT', amount: -1 },
      {
        id: 'N2',
        timestamp: at('2024-04-01T00:00:00Z'),
        type: 'staking',
        currency: 'DOT',
        amount: 1,
        direction: 'out',
      },
      { id: 'N3', timestamp: at('2024-04-01T00:00:00Z'), type: 'reward', currency: 'DOT', amount: 1 },
    ];
    expect(rows(exchangeLegs([], ledger, priceOnDay))).toEqual([
      ['ledger:N3', 'income', 'DOT', '1', '7.25', null],
    ]);
  });

  it('the reward types ccxt leaves as the exchange wrote them (Coinbase: staking_reward, inflation_reward, interest, incentives_rewards_payout) are income; a Coinbase fill or convert row is not', () => {
    const entry = (id: string, type: string, amount: string): ExchangeLedgerEntry => ({
      id,
      timestamp: at('2024-04-02T00:00:00Z'),
      type,
      currency: 'BTC',
      amount,
      direction: 'in',
      info: { type },
    });
    const ledger = [
      entry('R1', 'staking_reward', '0.001'),
      entry('R2', 'inflation_reward', '0.002'),
      entry('R3', 'interest', '0.003'),
      entry('R4', 'incentives_rewards_payout', '0.004'),
      entry('N1', 'advanced_trade_fill', '0.5'),
      entry('N2', 'trade', '0.5'),
    ];
    expect(rows(exchangeLegs([], ledger, priceOnDay))).toEqual([
      ['ledger:R1', 'income', 'BTC', '0.001', '66000', null],
      ['ledger:R2', 'income', 'BTC', '0.002', '66000', null],
      ['ledger:R3', 'income', 'BTC', '0.003', '66000', null],
      ['ledger:R4', 'income', 'BTC', '0.004', '66000', null],
    ]);
  });

  describe('an asset the market store does not know at all (the lookup answers null)', () => {
    /** NEWCOIN has no market; the other assets are priced as above. */
    const withUnknown = (symbol: string, date: string) =>
      symbol === 'NEWCOIN' || symbol === 'OTHERCOIN' ? null : priceOnDay(symbol, date);

    it('a reward of it is kept as a deposit of unknown basis, a fee in it as a withdrawal: nothing fails', () => {
      const ledger: ExchangeLedgerEntry[] = [
        { id: 'U1', timestamp: at('2024-04-01T00:00:00Z'), type: 'staking', currency: 'NEWCOIN', amount: 3 },
        {
          id: 'U2',
          timestamp: at('2024-04-02T00:00:00Z'),
          type: 'withdrawal',
          currency: 'NEWCOIN',
          amount: -1,
          fee: { cost: 0.01, currency: 'NEWCOIN' },
        },
      ];
      expect(rows(exchangeLegs([], ledger, withUnknown))).toEqual([
        ['ledger:U1', 'deposit', 'NEWCOIN', '3', null, null],
        ['ledger:U2', 'withdrawal', 'NEWCOIN', '1', null, null],
        ['ledger:U2:fee', 'withdrawal', 'NEWCOIN', '0.01', null, null],
      ]);
    });

    it('a trade against it takes the known side’s price; with neither known, what came in is a deposit and what went out a withdrawal', () => {
      const trades: ExchangeTrade[] = [
        // 0.01 BTC bought for 3 NEWCOIN (price 300 NEWCOIN a BTC): the trade is worth 0.01 × 43,000 = 430 USD.
        {
          id: 'T5',
          timestamp: at('2024-02-01T09:00:00Z'),
          symbol: 'BTC/NEWCOIN',
          side: 'buy',
          amount: '0.01',
          price: '300',
          fee: { cost: '0.003', currency: 'NEWCOIN' },
        },
        // NEWCOIN bought with OTHERCOIN: no side has a market.
        {
          id: 'T6',
          timestamp: at('2024-02-02T09:00:00Z'),
          symbol: 'NEWCOIN/OTHERCOIN',
          side: 'buy',
          amount: '5',
          price: '2',
          fee: null,
        },
        // NEWCOIN sold for USD: priced by the trade itself.
        {
          id: 'T7',
          timestamp: at('2024-02-03T09:00:00Z'),
          symbol: 'NEWCOIN/USD',
          side: 'sell',
          amount: '1',
          price: '150',
          fee: null,
        },
      ];
      expect(rows(exchangeLegs(trades, [], withUnknown))).toEqual([
        ['trade:T5:BTC', 'buy', 'BTC', '0.01', '43000', null],
        ['trade:T5:NEWCOIN', 'sell', 'NEWCOIN', '3', '143.33333333333333333333', null],
        ['trade:T5:fee', 'withdrawal', 'NEWCOIN', '0.003', null, null],
        ['trade:T6:NEWCOIN', 'deposit', 'NEWCOIN', '5', null, null],
        ['trade:T6:OTHERCOIN', 'withdrawal', 'OTHERCOIN', '10', null, null],
        ['trade:T7:NEWCOIN', 'sell', 'NEWCOIN', '1', '150', null],
      ]);
    });

    it('other fiat is never taken for an unknown asset: a EUR trade still fails, naming it', () => {
      const trades: ExchangeTrade[] = [
        {
          id: 'T8',
          timestamp: at('2024-02-02T00:00:00Z'),
          symbol: 'NEWCOIN/EUR',
          side: 'buy',
          amount: 1,
          price: 1,
        },
      ];
      expect(() => exchangeLegs(trades, [], withUnknown)).toThrow(
        new UnpricedExchangeItemError('T8', 'EUR', '2024-02-02'),
      );
    });
  });

  it('a reward on a day without a stored price fails rather than booking income at zero', () => {
    const ledger: ExchangeLedgerEntry[] = [
      { id: 'L6', timestamp: at('2024-05-01T00:00:00Z'), type: 'reward', currency: 'DOT', amount: 2 },
    ];
    expect(() => exchangeLegs([], ledger, priceOnDay)).toThrow(
      /No USD price for DOT on 2024-05-01 \(item L6\)/,
    );
  });

  it('a deposit or withdrawal naming its chain txid is a transfer leg with the chain id; the fee stays a fee', () => {
    const hash = 'AB'.repeat(32);
    const ledger: ExchangeLedgerEntry[] = [
      {
        id: 'W1',
        timestamp: at('2024-04-02T00:00:00Z'),
        type: 'withdrawal',
        currency: 'BTC',
        amount: -0.25,
        fee: { cost: 0.0001, currency: 'BTC' },
        txid: `0x${hash}`,
      },
      {
        id: 'D1',
        timestamp: at('2024-04-02T01:00:00Z'),
        type: 'deposit',
        currency: 'BTC',
        amount: 0.1,
        txid: 'cd'.repeat(32),
      },
      // Not a chain hash (a bank or another chain's reference): stays a deposit.
      {
        id: 'D2',
        timestamp: at('2024-04-02T02:00:00Z'),
        type: 'deposit',
        currency: 'BTC',
        amount: 0.1,
        txid: 'REF-1',
      },
      // A reward never is a transfer.
      {
        id: 'R1',
        timestamp: at('2024-04-01T00:00:00Z'),
        type: 'reward',
        currency: 'DOT',
        amount: 1,
        txid: 'ef'.repeat(32),
      },
    ];
    expect(
      exchangeLegs([], ledger, priceOnDay).map((l) => [l.transactionId, l.direction, l.amount, l.transferId]),
    ).toEqual([
      ['ledger:R1', 'income', '1', null],
      ['ledger:W1', 'transfer_out', '0.25', `chain:${hash.toLowerCase()}`],
      ['ledger:W1:fee', 'fee', '0.0001', null],
      ['ledger:D1', 'transfer_in', '0.1', `chain:${'cd'.repeat(32)}`],
      ['ledger:D2', 'deposit', '0.1', null],
    ]);
  });
});
