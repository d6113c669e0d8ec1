import { reconcileBalances, reconciliationReviewReason } from './reconciliation.js';

describe('reconcileBalances', () => {
  it('sets each reported quantity against the calculated one, exactly, with a side missing counting as 0', () => {
    // Worked by hand: BTC 0.75 reported vs 0.7500000001 held: −0.0000000001 (dust: ≤ 0.00000001).
    // ETH 2.5 vs 2: +0.5 (beyond dust). SOL reported, not held: +3. USDC held, not reported: −10.005,
    // beyond a cent. DOGE 100.004 vs 100: its dust is the default, so 0.004 is beyond it.
    const result = reconcileBalances({ BTC: '0.750', ETH: '2.5', SOL: '3', DOGE: '100.004' }, [
      { symbol: 'BTC', quantity: '0.7500000001' },
      { symbol: 'DOGE', quantity: '100' },
      { symbol: 'ETH', quantity: '2' },
      { symbol: 'USDC', quantity: '10.005' },
    ]);
    expect(result).toEqual([
      {
        symbol: 'BTC',
        reported: '0.75',
        calculated: '0.7500000001',
        difference: '-0.0000000001',
        withinDust: true,
      },
      { symbol: 'DOGE', reported: '100.004', calculated: '100', difference: '0.004', withinDust: false },
      { symbol: 'ETH', reported: '2.5', calculated: '2', difference: '0.5', withinDust: false },
      { symbol: 'SOL', reported: '3', calculated: '0', difference: '3', withinDust: false },
      { symbol: 'USDC', reported: '0', calculated: '10.005', difference: '-10.005', withinDust: false },
    ]);
  });

  it('treats a difference of exactly the threshold as dust (one satoshi; a cent for USD-pegged assets)', () => {
    const result = reconcileBalances({ BTC: '1.00000001', USDT: '5.01', ETH: '1.000000011' }, [
      { symbol: 'BTC', quantity: '1' },
      { symbol: 'ETH', quantity: '1' },
      { symbol: 'USDT', quantity: '5' },
    ]);
    expect(result.map((r) => [r.symbol, r.difference, r.withinDust])).toEqual([
      ['BTC', '0.00000001', true],
      ['ETH', '0.000000011', false],
      ['USDT', '0.01', true],
    ]);
  });

  it('is exact on quantities beyond the global 20 significant digits', () => {
    const [row] = reconcileBalances({ SHIB: '123456789012345678901.000000000000000001' }, [
      { symbol: 'SHIB', quantity: '123456789012345678901' },
    ]);
    expect(row.difference).toBe('0.000000000000000001');
  });
});

describe('reconciliationReviewReason', () => {
  it('names every asset beyond dust with its amounts, and is null when all is dust', () => {
    const rows = reconcileBalances({ BTC: '1.5', ETH: '2' }, [
      { symbol: 'BTC', quantity: '1.25' },
      { symbol: 'ETH', quantity: '2.000000001' },
    ]);
    expect(reconciliationReviewReason(rows)).toBe(
      'Source-reported balances disagree with the transactions beyond dust: BTC: the source reports 1.5, the transactions account for 1.25 (difference 0.25).',
    );
    expect(reconciliationReviewReason(rows.filter((r) => r.symbol === 'ETH'))).toBeNull();
  });
});
