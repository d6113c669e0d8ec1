import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import {
  formatAccounting,
  canonicalDecimal,
  formatAmountWithUnit,
  formatPercent,
  formatSignedPercent,
  formatSignedUsd,
  formatUsd,
  InvalidDecimalError,
  roundUsdToCents,
} from './format.js';

describe('formatUsd', () => {
  it.each([
    ['12345.675', '$12,345.68'],
    ['12345.674999', '$12,345.67'],
    ['1234.56', '$1,234.56'],
    ['-1234.56', '-$1,234.56'],
    ['0', '$0.00'],
    ['-0', '$0.00'],
    ['-0.004', '$0.00'],
    ['-0.005', '-$0.01'],
    ['0.005', '$0.01'],
    ['1.005', '$1.01'],
    ['-1.005', '-$1.01'],
    ['2.675', '$2.68'],
    ['999.995', '$1,000.00'],
    ['0.1', '$0.10'],
    ['7', '$7.00'],
    ['100', '$100.00'],
    ['1000', '$1,000.00'],
    ['1e6', '$1,000,000.00'],
    ['123456789012345678.905', '$123,456,789,012,345,678.91'],
    ['-98765432109.994', '-$98,765,432,109.99'],
  ])('%s → %s', (input, expected) => {
    expect(formatUsd(input)).toBe(expected);
  });

  it('accepts a Decimal', () => {
    expect(formatUsd(new Decimal('0.1').plus('0.2'))).toBe('$0.30');
  });

  it.each(['abc', '', '1,000', '0x10', 'Infinity', 'NaN', ' 1'])('rejects %j', (input) => {
    expect(() => formatUsd(input)).toThrow(InvalidDecimalError);
  });

  it('rejects a non-finite Decimal', () => {
    expect(() => formatUsd(new Decimal(Infinity))).toThrow(InvalidDecimalError);
  });
});

describe('formatAccounting', () => {
  it('writes cents grouped by thousands, a loss in parentheses, zero without a sign', () => {
    expect(formatAccounting('1234567.505')).toBe('1,234,567.51');
    expect(formatAccounting('-334.56', '$')).toBe('($334.56)');
    expect(formatAccounting('-0.004')).toBe('0.00');
  });
});

describe('formatSignedUsd', () => {
  it.each([
    ['1234.56', '+$1,234.56'],
    ['-1234.56', '-$1,234.56'],
    ['0', '$0.00'],
    ['0.004', '$0.00'],
    ['-0.004', '$0.00'],
    ['0.005', '+$0.01'],
    ['-0.005', '-$0.01'],
    ['1000000', '+$1,000,000.00'],
  ])('%s → %s', (input, expected) => {
    expect(formatSignedUsd(input)).toBe(expected);
  });
});

describe('roundUsdToCents', () => {
  it.each([
    ['1.005', '1.01'],
    ['1.004999', '1'],
    ['-1.005', '-1.01'],
    ['0.015', '0.02'],
    ['0.025', '0.03'],
    ['123.455', '123.46'],
  ])('%s → %s (half away from zero, never banker’s)', (input, expected) => {
    const rounded = roundUsdToCents(input);
    expect(rounded).toBeInstanceOf(Decimal);
    expect(rounded.toString()).toBe(expected);
  });
});

describe('formatPercent / formatSignedPercent (input is a fraction)', () => {
  it.each([
    [0.1234, '12.34%', '+12.34%'],
    ['0.1234', '12.34%', '+12.34%'],
    [0.021, '2.10%', '+2.10%'],
    [-0.021, '-2.10%', '-2.10%'],
    [0, '0.00%', '0.00%'],
    [-0.00004, '0.00%', '0.00%'],
    [0.00005, '0.01%', '+0.01%'],
    [-0.00005, '-0.01%', '-0.01%'],
    [0.123449, '12.34%', '+12.34%'],
    [0.12345, '12.35%', '+12.35%'],
    [1, '100.00%', '+100.00%'],
    [12.5, '1250.00%', '+1250.00%'],
    [0.121 - 0.1, '2.10%', '+2.10%'],
    [new Decimal('-0.5'), '-50.00%', '-50.00%'],
  ])('%p → %s / %s', (input, plain, signed) => {
    expect(formatPercent(input)).toBe(plain);
    expect(formatSignedPercent(input)).toBe(signed);
  });

  it.each([NaN, Infinity, -Infinity])('rejects %p', (input) => {
    expect(() => formatPercent(input)).toThrow(InvalidDecimalError);
  });
});

describe('formatAmountWithUnit', () => {
  it.each([
    ['1.23456789', 'BTC', '1.23456789 BTC'],
    ['1.5', 'BTC', '1.50000000 BTC'],
    ['0', 'BTC', '0.00000000 BTC'],
    ['12345', 'BTC', '12345.00000000 BTC'],
    ['-0.5', 'ETH', '-0.50000000 ETH'],
    ['0.000000015', 'ETH', '0.00000002 ETH'],
    ['0.0000000149', 'ETH', '0.00000001 ETH'],
    ['-0.000000004', 'ETH', '0.00000000 ETH'],
    ['1e-8', 'BTC', '0.00000001 BTC'],
  ])('(%s, %s) → %s', (amount, unit, expected) => {
    expect(formatAmountWithUnit(amount, unit)).toBe(expected);
  });
});

describe('canonicalDecimal', () => {
  it.each([
    ['-0', '0'],
    ['0.000', '0'],
    ['-0.000', '0'],
    ['1.50', '1.5'],
    ['1.', '1'],
    ['.5', '0.5'],
    ['+2', '2'],
    ['1e-7', '0.0000001'],
    ['1E+3', '1000'],
    ['100', '100'],
    ['00100.0100', '100.01'],
    ['-12.3400', '-12.34'],
    [
      '123456789012345678901234567890.123456789012345678901',
      '123456789012345678901234567890.123456789012345678901',
    ],
    ['0.00000000000000000001', '0.00000000000000000001'],
  ])('%s → %s', (input, expected) => {
    expect(canonicalDecimal(input)).toBe(expected);
  });

  it('is idempotent and value-preserving', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: -20, max: 20 }),
        (mantissa, exponent) => {
          const text = `${mantissa}e${exponent}`;
          const canonical = canonicalDecimal(text);
          expect(canonicalDecimal(canonical)).toBe(canonical);
          expect(new Decimal(canonical).equals(new Decimal(text))).toBe(true);
          expect(canonical).toMatch(/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/);
        },
      ),
      { numRuns: 200 },
    );
  });
});
