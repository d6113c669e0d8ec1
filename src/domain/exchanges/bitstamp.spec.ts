import { bitstampLedgerKind, bitstampMovement } from './bitstamp.js';

describe('Bitstamp user_transactions rows', () => {
  it('a movement’s currency is its one non-zero currency key, below one unit too (ccxt reads integers there and finds none)', () => {
    const row = {
      id: 9,
      datetime: '2025-02-10 12:00:00.000000',
      type: '1',
      fee: '0.00000000',
      usd: '0.00',
      btc: '-0.02000000',
      eth: 0.0,
      btc_usd: '0.00',
    };
    expect(bitstampMovement(row)).toEqual({ currency: 'BTC', amount: '-0.02' });
    expect(bitstampMovement({ ...row, type: '0', btc: '0.05000000' })).toEqual({
      currency: 'BTC',
      amount: '0.05',
    });
    // A trade is ccxt's to read; a row with two non-zero amounts is not a movement.
    expect(bitstampMovement({ ...row, type: '2' })).toBeUndefined();
    expect(bitstampMovement({ ...row, eth: '1' })).toBeUndefined();
  });

  it('staking rewards (27) and referral rewards (32) are income; staking moves (25, 26) nothing; deposits and withdrawals as ccxt says', () => {
    const entry = (type: string, amount: string, direction: 'in' | 'out') => ({
      id: type,
      timestamp: 0,
      type: ['0', '1'].includes(type) ? 'transaction' : type,
      currency: 'ETH',
      amount,
      direction,
      info: { type },
    });
    expect(bitstampLedgerKind(entry('27', '0.01', 'in'))).toBe('reward');
    expect(bitstampLedgerKind(entry('32', '0.01', 'in'))).toBe('reward');
    expect(bitstampLedgerKind(entry('26', '1', 'out'))).toBe('none');
    expect(bitstampLedgerKind(entry('25', '1', 'in'))).toBe('none');
    expect(bitstampLedgerKind(entry('0', '1', 'in'))).toBe('deposit');
    expect(bitstampLedgerKind(entry('1', '1', 'out'))).toBe('withdrawal');
  });
});
