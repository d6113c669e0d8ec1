import { Decimal } from 'decimal.js';
import { computeCostBasis } from './cost-basis-engine.js';
import fc from 'fast-check';
import {
  allocateProRata,
  allocateProRataExact,
  parseDecimal,
  toCanonical,
  toExact,
} from '../money/exact-decimal.js';
import { ledgerEntry } from './testing/ledger-entry.factory.js';

describe('exact decimals', () => {
  it.each([
    ['1.50', '1.5'],
    ['0.000000000000000001', '0.000000000000000001'],
    ['1e-8', '0.00000001'],
    ['123456789012345678901234567890.5', '123456789012345678901234567890.5'],
    ['+2.', '2'],
    ['.5', '0.5'],
    ['-0', '0'],
  ])('parses %j to canonical %j', (text, canonical) => {
    expect(toCanonical(parseDecimal(text)!)).toBe(canonical);
  });

  it.each(['', ' 2', 'abc', 'NaN', 'Infinity', '1,5', '0x10', '0b1', '1_000', '1e9999999999999999'])(
    'rejects %j',
    (text) => {
      expect(parseDecimal(text)).toBeNull();
    },
  );

  it('allocates pro rata at 30 decimal places, exactly when the part is the whole', () => {
    expect(toCanonical(allocateProRata(toExact(100), toExact(1), toExact(3)))).toBe(
      '33.333333333333333333333333333333',
    );
    expect(toCanonical(allocateProRata(toExact(200), toExact(2), toExact(3)))).toBe(
      '133.333333333333333333333333333333',
    );
    expect(toCanonical(allocateProRata(toExact('1e-40'), toExact(3), toExact(3)))).toBe(
      '0.' + '0'.repeat(39) + '1',
    );
  });

  it('multiplies wei-sized amounts by prices without rounding, whatever the global Decimal precision', () => {
    const saved = Decimal.precision;
    Decimal.set({ precision: 5 });
    try {
      const result = computeCostBasis(
        [
          ledgerEntry({
            tx: 'b1',
            at: '2024-01-01',
            direction: 'buy',
            amount: '1234.123456789012345678',
            priceUsd: '65432.1234567891',
            feeUsd: '0.000000000001',
          }),
        ],
        { method: 'fifo' },
      );
      expect(result.openLots[0].costBasisUsd).toBe('80751318.3855379839674632536651425098');
    } finally {
      Decimal.set({ precision: saved });
    }
  });
});

describe('allocateProRata fast path', () => {
  const decimalText = fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.integer({ min: 0, max: 18 }))
    .map(([digits, scale]) => {
      const text = digits.toString().padStart(scale + 1, '0');
      return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
    });

  it('equals rounding the exact quotient, for money-sized and tiny values alike', () => {
    fc.assert(
      fc.property(decimalText, decimalText, decimalText, (total, part, whole) => {
        const [t, p, w] = [toExact(total), toExact(part), toExact(whole)];
        expect(allocateProRata(t, p, w).toFixed()).toBe(allocateProRataExact(t, p, w).toFixed());
      }),
      { numRuns: 200 },
    );
  });

  it('rounds half-up exactly at the 30th place', () => {
    // 1 × 1 ÷ 3 = 0.333…; 2 ÷ 3 = 0.666…7; 1e-30 × 1 ÷ 2 = 5e-31 → 1e-30 (half up)
    expect(allocateProRata(toExact('1'), toExact('1'), toExact('3')).toFixed()).toBe(`0.${'3'.repeat(30)}`);
    expect(allocateProRata(toExact('2'), toExact('1'), toExact('3')).toFixed()).toBe(`0.${'6'.repeat(29)}7`);
    expect(allocateProRata(toExact('1e-30'), toExact('1'), toExact('2')).toFixed()).toBe(
      `0.${'0'.repeat(29)}1`,
    );
  });
});
