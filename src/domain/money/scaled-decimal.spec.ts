import fc from 'fast-check';
import {
  ALLOCATION_DECIMAL_PLACES,
  allocateProRataExact,
  parseDecimal,
  toCanonical,
} from './exact-decimal.js';
import {
  allocateScaledProRata,
  parseScaled,
  roundScaled,
  sumScaled,
  type ScaledDecimal,
} from './scaled-decimal.js';
import { Decimal } from 'decimal.js';

const scaled = (text: string): ScaledDecimal => parseScaled(text)!;
const exact = (text: string) => parseDecimal(text)!;

/** Decimal text as ledgers hold it: up to 24 integer and 30 fraction digits, any sign, spelled several ways. */
const decimalText = fc
  .record({
    negative: fc.boolean(),
    whole: fc.bigInt({ min: 0n, max: 10n ** 24n }),
    fraction: fc.stringMatching(/^\d{0,30}$/),
    exponent: fc.integer({ min: -12, max: 12 }),
    spelling: fc.constantFrom('plain', 'exponent', 'trailing zeros'),
  })
  .map(({ negative, whole, fraction, exponent, spelling }) => {
    const sign = negative ? '-' : '';
    const body = fraction === '' ? `${whole}` : `${whole}.${fraction}`;
    if (spelling === 'exponent') return `${sign}${body}e${exponent}`;
    if (spelling === 'trailing zeros') return `${sign}${body}${fraction === '' ? '.' : ''}000`;
    return `${sign}${body}`;
  });
const positiveText = decimalText.filter((text) => exact(text).greaterThan(0));

describe('scaled decimals (the engine’s numbers)', () => {
  it.each([
    ['1.50', '1.5'],
    ['0.000000000000000001', '0.000000000000000001'],
    ['1e-8', '0.00000001'],
    ['1E+3', '1000'],
    ['123456789012345678901234567890.5', '123456789012345678901234567890.5'],
    ['+2.', '2'],
    ['.5', '0.5'],
    ['-0', '0'],
    ['-12.3400', '-12.34'],
  ])('parses %j to canonical %j', (text, canonical) => {
    expect(scaled(text).toCanonical()).toBe(canonical);
  });

  it.each([
    '',
    ' 2',
    'abc',
    'NaN',
    'Infinity',
    '1,5',
    '0x10',
    '0b1',
    '1_000',
    '1e9999999999999999',
    '.',
    '-',
  ])('rejects %j', (text) => {
    expect(parseScaled(text)).toBeNull();
  });

  it('reads short unsigned text (up to 15 digits, read as a double) to the units and scale of its digits, as longer text', () => {
    const unsigned = fc
      .tuple(fc.stringMatching(/^\d{1,17}$/), fc.option(fc.stringMatching(/^\d{0,16}$/), { nil: undefined }))
      .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));
    fc.assert(
      fc.property(unsigned, (text) => {
        const [whole, fraction = ''] = text.split('.');
        const value = parseScaled(text)!;
        expect(value.units).toBe(BigInt(whole! + fraction));
        expect(value.scale).toBe(fraction.length);
      }),
      { numRuns: 2_000 },
    );
    expect(parseScaled('999999999999999')!.units).toBe(999_999_999_999_999n);
    expect(parseScaled('9999999999999999')!.units).toBe(9_999_999_999_999_999n);
    expect(parseScaled('99999999.9999999')!.units).toBe(999_999_999_999_999n);
    expect(parseScaled('1.')!.scale).toBe(0);
  });

  it('allocates pro rata at 30 decimal places, half away from zero, exactly when the part is the whole', () => {
    expect(
      allocateScaledProRata(scaled('100'), scaled('1'), scaled('3'), ALLOCATION_DECIMAL_PLACES).toCanonical(),
    ).toBe('33.333333333333333333333333333333');
    expect(
      allocateScaledProRata(scaled('200'), scaled('2'), scaled('3'), ALLOCATION_DECIMAL_PLACES).toCanonical(),
    ).toBe('133.333333333333333333333333333333');
    expect(
      allocateScaledProRata(
        scaled('1e-40'),
        scaled('3'),
        scaled('3'),
        ALLOCATION_DECIMAL_PLACES,
      ).toCanonical(),
    ).toBe('0.0000000000000000000000000000000000000001');
    // 5e-31 is exactly half a unit in the 30th place: rounds away from zero, either sign.
    expect(
      allocateScaledProRata(
        scaled('1e-30'),
        scaled('1'),
        scaled('2'),
        ALLOCATION_DECIMAL_PLACES,
      ).toCanonical(),
    ).toBe('0.000000000000000000000000000001');
    expect(
      allocateScaledProRata(
        scaled('-1e-30'),
        scaled('1'),
        scaled('2'),
        ALLOCATION_DECIMAL_PLACES,
      ).toCanonical(),
    ).toBe('-0.000000000000000000000000000001');
  });

  it('gives the canonical text of ExactDecimal for parsing, +, −, ×, comparison and sums', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(scaled(a).toCanonical()).toBe(toCanonical(exact(a)));
        expect(scaled(a).plus(scaled(b)).toCanonical()).toBe(toCanonical(exact(a).plus(exact(b))));
        expect(scaled(a).minus(scaled(b)).toCanonical()).toBe(toCanonical(exact(a).minus(exact(b))));
        expect(scaled(a).times(scaled(b)).toCanonical()).toBe(toCanonical(exact(a).times(exact(b))));
        expect(scaled(a).compare(scaled(b))).toBe(exact(a).comparedTo(exact(b)));
        expect(scaled(a).equals(scaled(b))).toBe(exact(a).equals(exact(b)));
        expect(scaled(a).isPositive()).toBe(exact(a).greaterThan(0));
        expect(scaled(a).isNegative()).toBe(exact(a).lessThan(0));
        expect(sumScaled([scaled(a), scaled(b), scaled(a)]).toCanonical()).toBe(
          toCanonical(exact(a).plus(exact(b)).plus(exact(a))),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('rounds to cents half away from zero as decimal.js ROUND_HALF_UP does', () => {
    expect(roundScaled(scaled('1.005'), 2).toCanonical()).toBe('1.01');
    expect(roundScaled(scaled('-1.005'), 2).toCanonical()).toBe('-1.01');
    expect(roundScaled(scaled('-0.004'), 2).toCanonical()).toBe('0');
    expect(roundScaled(scaled('12.3'), 2).toCanonical()).toBe('12.3');
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 12 }), (text, places) => {
        expect(roundScaled(scaled(text), places).toCanonical()).toBe(
          toCanonical(exact(text).toDecimalPlaces(places, Decimal.ROUND_HALF_UP)),
        );
      }),
      { numRuns: 1_000 },
    );
  });

  it('allocates exactly as the decimal.js reference (quotient at 1,000 digits, rounded once)', () => {
    fc.assert(
      fc.property(decimalText, positiveText, positiveText, (total, part, whole) => {
        expect(
          allocateScaledProRata(
            scaled(total),
            scaled(part),
            scaled(whole),
            ALLOCATION_DECIMAL_PLACES,
          ).toCanonical(),
        ).toBe(toCanonical(allocateProRataExact(exact(total), exact(part), exact(whole))));
      }),
      { numRuns: 500 },
    );
  });
});
