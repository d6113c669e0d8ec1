import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import {
  canonicalTimestamp,
  ChecksumAccumulator,
  ChecksumError,
  ChecksumErrorCode,
  checksumLine,
  type ChecksumRow,
  compareByteOrder,
  compareChecksumRows,
  EMPTY_CHECKSUM,
} from './checksum.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

function row(overrides: Partial<ChecksumRow> = {}): ChecksumRow {
  return {
    accountId: '11111111-1111-4111-8111-111111111111',
    transactionId: 'tx-0001',
    symbol: 'BTC',
    direction: 'buy',
    amount: '0.50000000',
    price: '42000.10',
    timestamp: '2024-01-02T03:04:05Z',
    ...overrides,
  };
}

function checksumOf(rows: readonly ChecksumRow[]) {
  const accumulator = new ChecksumAccumulator();
  for (const r of rows) accumulator.add(r);
  return accumulator.digest();
}

describe('checksumLine', () => {
  it('writes the documented pipe-separated line with canonical decimals and timestamp', () => {
    expect(checksumLine(row())).toBe(
      '11111111-1111-4111-8111-111111111111|tx-0001|BTC|buy|0.5|42000.1|2024-01-02T03:04:05.000Z\n',
    );
  });

  it.each([
    ['1.50', '1.5'],
    ['1.5', '1.5'],
    ['1.500000000000', '1.5'],
    ['15e-1', '1.5'],
  ])('amount %s and %s give the same line', (amount, canonical) => {
    expect(checksumLine(row({ amount }))).toBe(checksumLine(row({ amount: canonical })));
    expect(checksumLine(row({ amount: new Decimal(amount) }))).toBe(checksumLine(row({ amount })));
  });

  it('writes an empty field for a missing price', () => {
    expect(checksumLine(row({ price: null }))).toContain('|0.5||2024-01-02T03:04:05.000Z\n');
  });
});

describe('canonicalTimestamp', () => {
  it.each([
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T03:04:05.1Z', '2024-01-02T03:04:05.100Z'],
    ['2024-01-02T03:04:05.123456Z', '2024-01-02T03:04:05.123Z'],
    ['2024-01-02T03:04:05.999999Z', '2024-01-02T03:04:05.999Z'],
    ['2024-01-02T05:04:05.000+02:00', '2024-01-02T03:04:05.000Z'],
    ['2024-01-01T22:04:05-0500', '2024-01-02T03:04:05.000Z'],
    ['2024-02-29T23:59:59.999+00:00', '2024-02-29T23:59:59.999Z'],
    ['2024-01-02t03:04:05z', '2024-01-02T03:04:05.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(canonicalTimestamp(input)).toBe(expected);
  });

  it('accepts a Date', () => {
    expect(canonicalTimestamp(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)))).toBe('2024-01-02T03:04:05.006Z');
  });

  it.each([
    '2024-01-02T03:04:05',
    '2024-01-02',
    '2024-01-02T03:04Z',
    '2024-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    'yesterday',
    '2024-13-02T03:04:05Z',
    '',
  ])('rejects %j (no offset, or not a timestamp)', (input) => {
    expect(() => canonicalTimestamp(input)).toThrow(ChecksumError);
  });
});

describe('compareByteOrder', () => {
  it.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['a', 'a', 0],
    ['a', 'ab', -1],
    ['', 'a', -1],
    ['B', 'a', -1], // bytes, not locale: upper case sorts first
    ['z', 'é', -1],
    ['\uE000', '😀', -1], // U+E000 (EE 80 80) < U+1F600 (F0 9F 98 80), though UTF-16 says otherwise
    ['😀', '\uFFFF', 1],
  ])('%j vs %j → %d', (a, b, expected) => {
    expect(Math.sign(compareByteOrder(a, b))).toBe(expected);
  });

  it('agrees with a comparison of UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const expected = Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
        expect(Math.sign(compareByteOrder(a, b))).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('orders rows by accountId, then transactionId (not by the joined text)', () => {
    const rows = [
      { accountId: 'ab', transactionId: '1' },
      { accountId: 'a', transactionId: 'z' },
      { accountId: 'a', transactionId: 'B' },
    ];
    expect([...rows].sort(compareChecksumRows)).toEqual([
      { accountId: 'a', transactionId: 'B' },
      { accountId: 'a', transactionId: 'z' },
      { accountId: 'ab', transactionId: '1' },
    ]);
  });
});

describe('ChecksumAccumulator', () => {
  const first = row({ accountId: 'acc-a', transactionId: 'tx-1', amount: '1.50', price: '100' });
  const second = row({
    accountId: 'acc-a',
    transactionId: 'tx-2',
    direction: 'sell',
    amount: '0.25',
    price: '1e-7',
    timestamp: '2024-02-03T04:05:06.789+00:00',
  });

  it('matches SHA-256 of the hand-written lines (known vector)', () => {
    const text =
      'acc-a|tx-1|BTC|buy|1.5|100|2024-01-02T03:04:05.000Z\n' +
      'acc-a|tx-2|BTC|sell|0.25|0.0000001|2024-02-03T04:05:06.789Z\n';
    expect(checksumOf([first, second])).toEqual({ checksum: sha256(text), rowCount: 2 });
  });

  it('gives the hash of the worked example in docs/checksum.md', () => {
    const accountId = '0b6f3a52-1c4d-4e8f-9a7b-5d2c1e0f3a4b';
    const rows: ChecksumRow[] = [
      row({ accountId, transactionId: 'tx-1001', amount: '0.50000000', price: '42000.10' }),
      row({
        accountId,
        transactionId: 'tx-0999',
        symbol: 'ETH',
        direction: 'sell',
        amount: '12.000',
        price: '2250.5',
        timestamp: '2024-02-03T05:06:07.123456+01:00',
      }),
    ];
    expect(checksumOf([...rows].sort(compareChecksumRows))).toEqual({
      checksum: '18490666a69159062d6457a69d9a73ccc44a183220ff124a097ff86119762665',
      rowCount: 2,
    });
  });

  it('is the SHA-256 of empty input, with rowCount 0, for no rows', () => {
    expect(checksumOf([])).toEqual({ checksum: EMPTY_CHECKSUM, rowCount: 0 });
    expect(sha256('')).toBe(EMPTY_CHECKSUM);
  });

  it('does not depend on how equal decimals are written', () => {
    const rewritten = { ...first, amount: '1.5000', price: new Decimal('1E+2') };
    expect(checksumOf([rewritten, second])).toEqual(checksumOf([first, second]));
  });

  it('changes when any field changes', () => {
    const base = checksumOf([first, second]).checksum;
    for (const change of [
      { symbol: 'ETH' },
      { direction: 'sell' },
      { amount: '1.51' },
      { price: '100.01' },
      { timestamp: '2024-01-02T03:04:05.001Z' },
    ]) {
      expect(checksumOf([{ ...first, ...change }, second]).checksum).not.toBe(base);
    }
  });

  it('rejects rows out of order or duplicated, so order mistakes cannot go unnoticed', () => {
    expect(() => new ChecksumAccumulator().add(second).add(first)).toThrow(
      expect.objectContaining({ code: ChecksumErrorCode.RowsOutOfOrder }),
    );
    expect(() => new ChecksumAccumulator().add(first).add(first)).toThrow(
      expect.objectContaining({ code: ChecksumErrorCode.RowsOutOfOrder }),
    );
  });

  it('is order-sensitive in the hashed text (a different order is a different checksum)', () => {
    const lines = [checksumLine(first), checksumLine(second)];
    expect(sha256(lines.join(''))).toBe(checksumOf([first, second]).checksum);
    expect(sha256([...lines].reverse().join(''))).not.toBe(checksumOf([first, second]).checksum);
  });

  it('hashes lines the database wrote (addLines) exactly as the rows they come from, in batches', () => {
    const third = row({ accountId: 'acc-b', transactionId: 'tx-0003', price: null });
    const asLine = (r: ChecksumRow) => ({
      accountId: r.accountId,
      transactionId: r.transactionId,
      line: checksumLine(r).slice(0, -1),
    });
    const batched = new ChecksumAccumulator().addLines([asLine(first), asLine(second)]).addLines([]);
    expect(batched.addLines([asLine(third)]).digest()).toEqual(checksumOf([first, second, third]));
    expect(() => new ChecksumAccumulator().addLines([asLine(second), asLine(first)])).toThrow(
      expect.objectContaining({ code: ChecksumErrorCode.RowsOutOfOrder }),
    );
    expect(() => new ChecksumAccumulator().addLines([asLine(second)]).addLines([asLine(second)])).toThrow(
      expect.objectContaining({ code: ChecksumErrorCode.RowsOutOfOrder }),
    );
    expect(() => new ChecksumAccumulator().add(second).addLines([asLine(first)])).toThrow(
      expect.objectContaining({ code: ChecksumErrorCode.RowsOutOfOrder }),
    );
  });

  it('returns the same result on repeated digest() and refuses rows afterwards', () => {
    const accumulator = new ChecksumAccumulator().add(first);
    const result = accumulator.digest();
    expect(accumulator.digest()).toBe(result);
    expect(() => accumulator.add(second)).toThrow(
      expect.objectContaining({ code: ChecksumErrorCode.AlreadyDigested }),
    );
  });

  it('equals the hash of the sorted lines for any set of rows', () => {
    const rowArbitrary = fc.record({
      accountId: fc.constantFrom('acc-a', 'acc-b', 'ACC', 'acc-é'),
      transactionId: fc.string({ minLength: 1, maxLength: 6 }),
      symbol: fc.constantFrom('BTC', 'ETH'),
      direction: fc.constantFrom('buy', 'sell'),
      amount: fc.integer({ min: -1e9, max: 1e9 }).map((n) => `${n}e-8`),
      price: fc.option(
        fc.integer({ min: 0, max: 1e9 }).map((n) => `${n}.00`),
        { nil: null },
      ),
      timestamp: fc
        .date({
          min: new Date('2010-01-01T00:00:00Z'),
          max: new Date('2030-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString()),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(rowArbitrary, {
          selector: (r) => `${r.accountId}\u0000${r.transactionId}`,
          maxLength: 20,
        }),
        (rows) => {
          const sorted = [...rows].sort(compareChecksumRows);
          expect(checksumOf(sorted)).toEqual({
            checksum: sha256(sorted.map(checksumLine).join('')),
            rowCount: rows.length,
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
