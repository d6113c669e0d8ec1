import { Decimal } from 'decimal.js';
import { ExactDecimal, quotientToSignificantDigits, share, sumExact, toExact } from './exact-decimal.js';

describe('ExactDecimal', () => {
  it('adds and multiplies wei-sized amounts without rounding, whatever the global Decimal precision', () => {
    const saved = Decimal.precision;
    Decimal.set({ precision: 5 });
    try {
      const wei = '0.000000000000000001';
      expect(toExact('123456789012345678901234567890').plus(wei).toFixed()).toBe(
        '123456789012345678901234567890.000000000000000001',
      );
      // 1,234,567 × 65,432.1 = 80,780,311,400.7, and 10^-18 × 65,432.1 adds 0.0000000000000654321.
      expect(new ExactDecimal('1234567.000000000000000001').times('65432.1').toFixed()).toBe(
        '80780311400.7000000000000654321',
      );
    } finally {
      Decimal.set({ precision: saved });
    }
  });

  it.each<[readonly (string | null)[], string]>([
    [[], '0'],
    [['1.5', null, '-0.25'], '1.25'],
    [['0.1', '0.2'], '0.3'],
  ])('sums %j to %s, leaving unknown (null) values out', (values, expected) => {
    expect(sumExact(values).toFixed()).toBe(expected);
  });
});

describe('quotients', () => {
  it.each<[string, string, string]>([
    ['9000', '60000', '0.15'],
    ['1', '3', `0.${'3'.repeat(60)}`],
    // Half-up at the 60th significant digit.
    ['2', '3', `0.${'6'.repeat(59)}7`],
    ['200000', '3', `66666.${'6'.repeat(54)}7`],
  ])('share(%s, %s) = %s (60 significant digits, half-up)', (dividend, divisor, expected) => {
    expect(share(dividend, divisor).toFixed()).toBe(expected);
  });

  it('truncates when told, and the result is exact again afterwards', () => {
    const truncated = quotientToSignificantDigits(100, Decimal.ROUND_DOWN)('2', '3');
    expect(truncated.toFixed()).toBe(`0.${'6'.repeat(100)}`);
    expect(truncated.plus(`0.${'0'.repeat(100)}1`).toFixed()).toBe(`0.${'6'.repeat(100)}1`);
  });
});
