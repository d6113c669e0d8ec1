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

function encodeColumn(
  entries: readonly LedgerEntry[],
  valueOf: (entry: LedgerEntry) => string | undefined,
): EncodedTextColumn {
  const lengths = new Int32Array(entries.length);
  const parts: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const value = valueOf(entries[i]!);
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
  const timestampsMs = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) timestampsMs[i] = entries[i]!.timestamp.getTime();
  return {
    count: entries.length,
    accountId: encodeColumn(entries, (e) => e.accountId),
    transactionId: encodeColumn(entries, (e) => e.transactionId),
    symbol: encodeColumn(entries, (e) => e.symbol),
    direction: encodeColumn(entries, (e) => e.direction),
    amount: encodeColumn(entries, (e) => e.amount),
    priceUsd: encodeColumn(entries, (e) => e.priceUsd),
    feeUsd: encodeColumn(entries, (e) => e.feeUsd),
    transferId: encodeColumn(entries, (e) => e.transferId),
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
