/**
 * A compact, columnar form of a ledger (the cost-basis engine's entries) for handing a whole
 * history to a worker thread (issue 28): one string per text column holding every value end to
 * end, the values' lengths in an Int32Array (−1: absent, for the optional columns), and the
 * timestamps as milliseconds in a Float64Array. A structured clone of it copies a few flat
 * strings and the typed arrays' buffers can be moved (transferred), where 30,000 entry objects
 * would be walked and rebuilt field by field. Decoding gives back entries equal to the originals
 * field for field (an absent optional field stays absent), so the engine computes the same
 * figures from either.
 */
import type { Direction, LedgerEntry } from './cost-basis.types.js';

/** One text column: its values end to end, and each value's length (−1: absent). */
export interface EncodedTextColumn {
  readonly text: string;
  readonly lengths: Int32Array;
}

export interface EncodedLedger {
  readonly count: number;
  readonly accountId: EncodedTextColumn;
  readonly transactionId: EncodedTextColumn;
  readonly symbol: EncodedTextColumn;
  readonly direction: EncodedTextColumn;
  readonly amount: EncodedTextColumn;
  readonly priceUsd: EncodedTextColumn;
  readonly feeUsd: EncodedTextColumn;
  readonly transferId: EncodedTextColumn;
  /** Milliseconds since the epoch (a Date's getTime(): an integer, exact in a double). */
  readonly timestampsMs: Float64Array;
}

function encodeColumn<T>(rows: readonly T[], valueOf: (row: T) => string | undefined): EncodedTextColumn {
  const lengths = new Int32Array(rows.length);
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const value = valueOf(rows[i]!);
    if (value === undefined) {
      lengths[i] = -1;
    } else {
      lengths[i] = value.length;
      parts.push(value);
    }
  }
  return { text: parts.join(''), lengths };
}

/**
 * Reads a column's values one by one, in order. `repeats`: for columns whose values come in runs
 * (the account, the ticker, the direction), a value equal to the one before is that very string
 * (compared in place, not sliced): fewer strings made and collected.
 */
function columnReader(column: EncodedTextColumn, repeats = false): () => string | undefined {
  const { text, lengths } = column;
  let row = 0;
  let offset = 0;
  let previous = '';
  return () => {
    const length = lengths[row++]!;
    if (length < 0) return undefined;
    const start = offset;
    offset += length;
    if (repeats && length === previous.length && text.startsWith(previous, start)) return previous;
    const value = text.slice(start, offset);
    if (repeats) previous = value;
    return value;
  };
}

export function encodeLedger(entries: readonly LedgerEntry[]): EncodedLedger {
  return encodeLedgerRows(entries, ENTRY_FIELDS);
}

/** How to read each field of a ledger entry off a row of another shape (a database row, say). */
export interface LedgerRowFields<T> {
  readonly accountId: (row: T) => string;
  readonly transactionId: (row: T) => string;
  readonly symbol: (row: T) => string;
  readonly direction: (row: T) => string;
  readonly amount: (row: T) => string;
  readonly priceUsd: (row: T) => string;
  /** undefined: absent. */
  readonly feeUsd: (row: T) => string | undefined;
  /** undefined: absent. */
  readonly transferId: (row: T) => string | undefined;
  /** Milliseconds since the epoch, an integer (a Date's getTime()). */
  readonly timestampMs: (row: T) => number;
}

const ENTRY_FIELDS: LedgerRowFields<LedgerEntry> = {
  accountId: (e) => e.accountId,
  transactionId: (e) => e.transactionId,
  symbol: (e) => e.symbol,
  direction: (e) => e.direction,
  amount: (e) => e.amount,
  priceUsd: (e) => e.priceUsd,
  feeUsd: (e) => e.feeUsd,
  transferId: (e) => e.transferId,
  timestampMs: (e) => e.timestamp.getTime(),
};

/**
 * The encoding of the entries `rows` stand for, read straight off them (a chunk of the ledger's
 * read, without making an entry object and a Date per row first): equal to encodeLedger of those
 * entries.
 */
export function encodeLedgerRows<T>(rows: readonly T[], fields: LedgerRowFields<T>): EncodedLedger {
  const timestampsMs = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) timestampsMs[i] = fields.timestampMs(rows[i]!);
  return {
    count: rows.length,
    accountId: encodeColumn(rows, fields.accountId),
    transactionId: encodeColumn(rows, fields.transactionId),
    symbol: encodeColumn(rows, fields.symbol),
    direction: encodeColumn(rows, fields.direction),
    amount: encodeColumn(rows, fields.amount),
    priceUsd: encodeColumn(rows, fields.priceUsd),
    feeUsd: encodeColumn(rows, fields.feeUsd),
    transferId: encodeColumn(rows, fields.transferId),
    timestampsMs,
  };
}

function joinColumns(columns: readonly EncodedTextColumn[]): EncodedTextColumn {
  const lengths = new Int32Array(columns.reduce((sum, column) => sum + column.lengths.length, 0));
  let at = 0;
  for (const column of columns) {
    lengths.set(column.lengths, at);
    at += column.lengths.length;
  }
  return { text: columns.map((column) => column.text).join(''), lengths };
}

/**
 * One ledger from ledgers encoded one after another (a ledger read in chunks, each encoded as it
 * arrives): equal to encoding all their entries at once, in the same order.
 */
export function joinEncodedLedgers(parts: readonly EncodedLedger[]): EncodedLedger {
  const column = (name: Exclude<keyof EncodedLedger, 'count' | 'timestampsMs'>) =>
    joinColumns(parts.map((part) => part[name]));
  const timestampsMs = new Float64Array(parts.reduce((sum, part) => sum + part.count, 0));
  let at = 0;
  for (const part of parts) {
    timestampsMs.set(part.timestampsMs, at);
    at += part.count;
  }
  return {
    count: timestampsMs.length,
    accountId: column('accountId'),
    transactionId: column('transactionId'),
    symbol: column('symbol'),
    direction: column('direction'),
    amount: column('amount'),
    priceUsd: column('priceUsd'),
    feeUsd: column('feeUsd'),
    transferId: column('transferId'),
    timestampsMs,
  };
}

export function decodeLedger(encoded: EncodedLedger): LedgerEntry[] {
  const accountId = columnReader(encoded.accountId, true);
  const transactionId = columnReader(encoded.transactionId);
  const symbol = columnReader(encoded.symbol, true);
  const direction = columnReader(encoded.direction, true);
  const amount = columnReader(encoded.amount);
  const priceUsd = columnReader(encoded.priceUsd);
  const feeUsd = columnReader(encoded.feeUsd);
  const transferId = columnReader(encoded.transferId);
  const entries: LedgerEntry[] = new Array<LedgerEntry>(encoded.count);
  for (let i = 0; i < encoded.count; i++) {
    const account = accountId()!;
    const transaction = transactionId()!;
    const ticker = symbol()!;
    const way = direction() as Direction;
    const quantity = amount()!;
    const price = priceUsd()!;
    const fee = feeUsd();
    const timestamp = new Date(encoded.timestampsMs[i]!);
    const transfer = transferId();
    // The same shape as the ledger's own entries: optional fields present only when set, in the
    // same key order (one literal per case, not spreads: a spread per entry cost a third of decoding).
    entries[i] =
      fee === undefined
        ? transfer === undefined
          ? {
              accountId: account,
              transactionId: transaction,
              symbol: ticker,
              direction: way,
              amount: quantity,
              priceUsd: price,
              timestamp,
            }
          : {
              accountId: account,
              transactionId: transaction,
              symbol: ticker,
              direction: way,
              amount: quantity,
              priceUsd: price,
              timestamp,
              transferId: transfer,
            }
        : transfer === undefined
          ? {
              accountId: account,
              transactionId: transaction,
              symbol: ticker,
              direction: way,
              amount: quantity,
              priceUsd: price,
              feeUsd: fee,
              timestamp,
            }
          : {
              accountId: account,
              transactionId: transaction,
              symbol: ticker,
              direction: way,
              amount: quantity,
              priceUsd: price,
              feeUsd: fee,
              timestamp,
              transferId: transfer,
            };
  }
  return entries;
}

/** The buffers of an encoded ledger, to move (not copy) to another thread. */
export function ledgerBuffers(encoded: EncodedLedger): ArrayBuffer[] {
  return [
    encoded.accountId,
    encoded.transactionId,
    encoded.symbol,
    encoded.direction,
    encoded.amount,
    encoded.priceUsd,
    encoded.feeUsd,
    encoded.transferId,
  ]
    .map((column) => column.lengths.buffer as ArrayBuffer)
    .concat(encoded.timestampsMs.buffer as ArrayBuffer);
}
