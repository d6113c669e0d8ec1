import { coinbaseConverts } from './coinbase.js';
import { exchangeLegs, type ExchangeLedgerEntry } from './exchange-history.js';

const half = (
  id: string,
  currency: string,
  amount: string,
  direction: 'in' | 'out',
  trade?: string,
): ExchangeLedgerEntry => ({
  id,
  timestamp: Date.parse('2024-05-01T12:00:00Z'),
  type: 'trade',
  currency,
  amount,
  direction,
  info: { type: 'trade', ...(trade ? { trade: { id: trade } } : {}) },
});

describe('Coinbase Converts (v2 `trade` rows)', () => {
  it('the two halves of one trade id are one trade: the asset received bought with the asset given (its amount the cost)', () => {
    const trades = coinbaseConverts([
      half('T1', 'ETH', '1', 'out', 'C1'),
      half('T2', 'BTC', '3', 'in', 'C1'),
      // A lone half, a half without a trade id, and a pair of one currency: none is a trade.
      half('T3', 'BTC', '0.1', 'in', 'C2'),
      half('T4', 'SOL', '2', 'in'),
      half('T5', 'ETH', '1', 'out', 'C3'),
      half('T6', 'ETH', '1', 'in', 'C3'),
    ]);
    expect(trades).toEqual([
      {
        id: 'convert:C1',
        timestamp: Date.parse('2024-05-01T12:00:00Z'),
        symbol: 'BTC/ETH',
        side: 'buy',
        amount: '3',
        price: '0',
        cost: '1',
        fee: null,
      },
    ]);
    // 1 ETH at 2,000 for 3 BTC: 2,000 / 3 a BTC, to 20 places; the ETH leg is exactly 1.
    const legs = exchangeLegs(trades, [], (symbol) => (symbol === 'ETH' ? '2000' : undefined));
    expect(legs.map((l) => [l.transactionId, l.direction, l.amount, l.priceUsd])).toEqual([
      ['trade:convert:C1:BTC', 'buy', '3', '666.66666666666666666667'],
      ['trade:convert:C1:ETH', 'sell', '1', '2000'],
    ]);
  });
});
