/**
 * The one number reader of the export files (readNumber), checked against a reference grammar
 * written apart from it here (string operations and BigInt arithmetic, no regular expression):
 *
 *   number    = ["-"] body | "(" body ")"          parentheses: a negative, around the whole value
 *   body      = [sign] magnitude | magnitude " " unit
 *                                                  sign, unit: the column's own, when it has them
 *   magnitude = integer ["." digits]
 *   integer   = digits | lead ("," digit digit digit)+
 *                                                  lead: a digit 1-9 and at most two more digits
 *
 * The reader must accept exactly this language and give the exact decimal value.
 */
import fc from 'fast-check';
import { canonicalDecimal } from '../../../domain/money/format.js';
import { readNumber, type NumberAffixes } from './export-format.js';

const DIGITS = '0123456789';
const allDigits = (text: string) => text.length > 0 && [...text].every((c) => DIGITS.includes(c));

/** The canonical decimal text of `text` under the grammar above, or null when it is not in it. */
function reference(text: string, affixes: NumberAffixes): string | null {
  let rest = text;
  let negative = false;
  if (rest.length >= 2 && rest[0] === '(' && rest[rest.length - 1] === ')') {
    negative = true;
    rest = rest.slice(1, -1);
  } else if (rest[0] === '-') {
    negative = true;
    rest = rest.slice(1);
  }
  const { currencySign, unit } = affixes;
  if (currencySign !== undefined && rest.startsWith(currencySign)) rest = rest.slice(currencySign.length);
  else if (unit !== undefined && rest.endsWith(` ${unit}`))
    rest = rest.slice(0, rest.length - unit.length - 1);
  const parts = rest.split('.');
  if (parts.length > 2) return null;
  const [integer, fraction] = parts as [string, string | undefined];
  if (fraction !== undefined && !allDigits(fraction)) return null;
  const groups = integer.split(',');
  if (groups.length > 1) {
    const [lead, ...more] = groups as [string, ...string[]];
    if (!allDigits(lead) || lead.length > 3 || lead[0] === '0') return null;
    if (!more.every((group) => group.length === 3 && allDigits(group))) return null;
  } else if (!allDigits(integer)) return null;
  const scale = fraction?.length ?? 0;
  const units = BigInt(groups.join('') + (fraction ?? ''));
  if (units === 0n) return '0';
  const digits = units.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const decimals = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${decimals ? `.${decimals}` : ''}`;
}

const read = (text: string, affixes: NumberAffixes = {}) => {
  const value = readNumber(text, affixes);
  return value === null ? null : canonicalDecimal(value);
};

/** The affixes of the layouts: none (Kraken, Bitstamp), `$` (Coinbase), a unit (Gemini), both. */
const AFFIXES = fc.constantFrom<NumberAffixes>(
  {},
  { currencySign: '$' },
  { unit: 'BTC' },
  { currencySign: '$', unit: 'USD' },
);

/** A number of the language, built from its parts, with its value. */
const member = (affixes: NumberAffixes) =>
  fc
    .record({
      sign: fc.constantFrom('none', 'minus', 'parentheses'),
      affix: fc.constantFrom('none', 'sign', 'unit'),
      integer: fc.bigInt({ min: 0n, max: 10n ** 25n }),
      grouped: fc.boolean(),
      leadingZeros: fc.integer({ min: 0, max: 2 }),
      fraction: fc.option(fc.string({ unit: fc.constantFrom(...DIGITS), minLength: 1, maxLength: 14 })),
    })
    .map(({ sign, affix, integer, grouped, leadingZeros, fraction }) => {
      const plain = integer.toString();
      const group = grouped && integer >= 1000n;
      const integerText = group ? plain.replace(/\B(?=(\d{3})+$)/g, ',') : '0'.repeat(leadingZeros) + plain;
      let body = integerText + (fraction === null ? '' : `.${fraction}`);
      if (affix === 'sign' && affixes.currencySign) body = affixes.currencySign + body;
      if (affix === 'unit' && affixes.unit) body = `${body} ${affixes.unit}`;
      const text = sign === 'minus' ? `-${body}` : sign === 'parentheses' ? `(${body})` : body;
      const magnitude = canonicalDecimal(plain + (fraction === null ? '' : `.${fraction}`));
      return { text, value: sign !== 'none' && magnitude !== '0' ? `-${magnitude}` : magnitude };
    });

/** Text near the language: its characters at random, and members with one character changed. */
const ALPHABET = [...'0159,.-()$ BTCUSDOe+€\u00a0'];
const nearly = (affixes: NumberAffixes) =>
  fc.oneof(
    fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 16 }),
    fc
      .tuple(
        member(affixes),
        fc.nat(),
        fc.constantFrom('insert', 'delete', 'replace'),
        fc.constantFrom(...ALPHABET),
      )
      .map(([{ text }, at, edit, c]) => {
        const i = at % (text.length + 1);
        if (edit === 'insert') return text.slice(0, i) + c + text.slice(i);
        if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
        return text.slice(0, i) + c + text.slice(i + 1);
      }),
  );

describe('readNumber: the one number reader of every export layout', () => {
  it.each([
    // The issue's two: a decimal comma and a letter O inside the digits are refused, not misread.
    ['-0,015', {}, null],
    ['-0.01O5000000', {}, null],
    ['-0.01O5000000', { unit: 'BTC' }, null],
    ['-0.0105000000', {}, '-0.0105'],
    ['1,234.5', {}, '1234.5'],
    ['12,345,678', {}, '12345678'],
    ['1,23', {}, null],
    ['1,2345', {}, null],
    ['1234,5', {}, null],
    ['0,123', {}, null],
    [',123', {}, null],
    ['1,,234', {}, null],
    ['.5', {}, null],
    ['5.', {}, null],
    ['1.2.3', {}, null],
    ['1e5', {}, null],
    ['+5', {}, null],
    ['', {}, null],
    [' 5', {}, null],
    ['-(5)', {}, null],
    ['(-5)', {}, null],
    ['(5', {}, null],
    ['-$5', { currencySign: '$' }, '-5'],
    ['$-5', { currencySign: '$' }, null],
    ['$5', {}, null],
    ['($2,200.00)', { currencySign: '$', unit: 'USD' }, '-2200'],
    ['(0.02 BTC)', { unit: 'BTC' }, '-0.02'],
    ['0.05 BTC', {}, null],
    ['0.05 ETH', { unit: 'BTC' }, null],
    ['0.05BTC', { unit: 'BTC' }, null],
    ['0.05  BTC', { unit: 'BTC' }, null],
    ['$5 USD', { currencySign: '$', unit: 'USD' }, null],
    ['0.0000', {}, '0'],
    ['-0', {}, '0'],
    ['007.50', {}, '7.5'],
  ])('%j with %j is %j', (text, affixes, value) => {
    expect(read(text, affixes)).toBe(value);
    expect(reference(text, affixes)).toBe(value);
  });

  it('gives the exact value of every number of the grammar (property)', () => {
    fc.assert(
      fc.property(
        AFFIXES.chain((affixes) => fc.tuple(fc.constant(affixes), member(affixes))),
        ([affixes, { text, value }]) => {
          expect(reference(text, affixes)).toBe(value);
          expect(read(text, affixes)).toBe(value);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('accepts exactly the grammar’s language: what the reference refuses, it refuses (property)', () => {
    fc.assert(
      fc.property(
        AFFIXES.chain((affixes) => fc.tuple(fc.constant(affixes), nearly(affixes))),
        ([affixes, text]) => {
          expect(read(text, affixes)).toBe(reference(text, affixes));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('stays exact beyond any precision (2,000 fraction digits)', () => {
    const text = `1.${'0'.repeat(1_999)}1`;
    expect(read(text)).toBe(text);
  });
});
