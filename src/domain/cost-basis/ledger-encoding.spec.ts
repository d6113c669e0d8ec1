import fc from 'fast-check';
import { DIRECTIONS } from './directions.js';
import type { LedgerEntry } from './cost-basis.types.js';
import { decodeLedger, encodeLedger, joinEncodedLedgers, ledgerBuffers } from './ledger-encoding.js';

/** Any entry the ledger could hold, awkward text included (empty, multi-byte, surrogate pairs). */
const anyText = fc.string({ unit: 'grapheme', maxLength: 12 });
const anyEntry: fc.Arbitrary<LedgerEntry> = fc
  .record({
    accountId: fc.uuid(),
    transactionId: anyText,
    symbol: anyText,
    direction: fc.constantFrom(...DIRECTIONS),
    amount: fc.stringMatching(/^\d{1,20}(\.\d{1,30})?$/),
    priceUsd: fc.stringMatching(/^\d{1,12}(\.\d{1,18})?$/),
    feeUsd: fc.option(fc.stringMatching(/^\d{1,8}(\.\d{1,8})?$/), { nil: undefined }),
    timestamp: fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    }),
    transferId: fc.option(anyText, { nil: undefined }),
  })
  // As the ledger makes them (toLedgerEntry): an optional field is absent, never undefined.
  .map(({ feeUsd, transferId, ...entry }) => ({
    ...entry,
    ...(feeUsd === undefined ? {} : { feeUsd }),
    ...(transferId === undefined ? {} : { transferId }),
  }));

describe('ledger encoding (the compute pool’s input)', () => {
  it('decodes to entries equal to the originals field for field, absent fields absent', () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 60 }), (entries) => {
        // toStrictEqual: an absent field and a field set to undefined differ.
        expect(decodeLedger(encodeLedger(entries))).toStrictEqual(entries);
      }),
      { numRuns: 300 },
    );
  });

  it('survives a structured clone with its buffers moved, as a worker thread receives it', () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 30 }), (entries) => {
        const encoded = encodeLedger(entries);
        const received = structuredClone(encoded, { transfer: ledgerBuffers(encoded) });
        expect(encoded.timestampsMs.byteLength).toBe(0); // moved, not copied
        expect(decodeLedger(received)).toStrictEqual(entries);
      }),
      { numRuns: 100 },
    );
  });

  it('joins ledgers encoded chunk by chunk into the encoding of all their entries in order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(anyEntry, { maxLength: 20 }), { maxLength: 5 }), (chunks) => {
        const joined = joinEncodedLedgers(chunks.map((chunk) => encodeLedger(chunk)));
        expect(joined).toStrictEqual(encodeLedger(chunks.flat()));
        expect(decodeLedger(joined)).toStrictEqual(chunks.flat());
      }),
      { numRuns: 200 },
    );
  });

  it('decodes runs of one account, ticker and direction (read back as one string) to the same entries, keys in the same order', () => {
    const fewOf = (values: string[]) => fc.constantFrom(...values);
    const runs = fc
      .array(
        fc.record({
          accountId: fewOf(['a', 'ab', 'b', '']),
          symbol: fewOf(['BTC', 'BT', 'ETH', 'BTCB']),
          direction: fc.constantFrom(...DIRECTIONS),
        }),
        { maxLength: 40 },
      )
      .chain((keys) =>
        fc.tuple(fc.constant(keys), fc.array(anyEntry, { minLength: keys.length, maxLength: keys.length })),
      )
      .map(([keys, entries]) => entries.map((entry, i) => ({ ...entry, ...keys[i] })));
    fc.assert(
      fc.property(runs, (entries) => {
        const decoded = decodeLedger(encodeLedger(entries));
        expect(decoded).toStrictEqual(entries);
        // The key order of the ledger's own entries (toLedgerEntry), as decoding always gave.
        const order = [
          'accountId',
          'transactionId',
          'symbol',
          'direction',
          'amount',
          'priceUsd',
          'feeUsd',
          'timestamp',
          'transferId',
        ];
        expect(decoded.map((entry) => Object.keys(entry))).toEqual(
          entries.map((entry) => order.filter((key) => key in entry)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('encodes no entry as an empty ledger', () => {
    expect(decodeLedger(encodeLedger([]))).toEqual([]);
  });
});
