/**
 * Worker-thread entry of the import parse (ImportParsePool, issue 28): parses an import file
 * (parseImportFile, the very function the request thread ran before) and answers plain data. The
 * first pass records which daily prices the file needs (`prices` null); the second, given them,
 * parses with them. Progress (the native CSV's every 1,000 rows) goes back over `progress`; the
 * transactions come back columnar (EncodedTransactions), decoded on the request thread in chunks.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { MessagePort } from 'node:worker_threads';
import type { SourceTransaction } from '../connectors/source-connector.js';
import { parseImportFile, type ImportParseResult } from './export-files.js';
import type { PriceBook } from './export-format.js';

export interface ImportParseTask {
  readonly text: string;
  readonly now: Date;
  readonly format: string | undefined;
  /** Daily USD prices by symbol and date; null: the first pass (record what is asked). */
  readonly prices: readonly (readonly [string, readonly (readonly [string, string])[]])[] | null;
  readonly progress: MessagePort | undefined;
}

/**
 * The transactions of a parsed file, columnar (as domain/cost-basis/ledger-encoding.ts does the
 * ledger): one string per text column with each value's length (−1: null), the times in a
 * Float64Array. 290,000 objects cloned back took the request thread ~1–2 s to deserialise; these
 * few strings and arrays copy in milliseconds, and decodeTransactions rebuilds the objects a chunk
 * at a time, the event loop getting a turn between chunks.
 */
export interface EncodedTransactions {
  readonly count: number;
  /** In TEXT_FIELDS order. */
  readonly columns: readonly { readonly text: string; readonly lengths: Int32Array }[];
  readonly occurredAtMs: Float64Array;
}

const TEXT_FIELDS = [
  'transactionId',
  'symbol',
  'direction',
  'amount',
  'priceUsd',
  'feeUsd',
  'transferId',
] as const;

/** Rows rebuilt between two turns of the event loop. */
const DECODE_CHUNK_ROWS = 5_000;

function encodeTransactions(transactions: readonly SourceTransaction[]): EncodedTransactions {
  const occurredAtMs = new Float64Array(transactions.length);
  transactions.forEach((tx, i) => (occurredAtMs[i] = tx.occurredAt.getTime()));
  const columns = TEXT_FIELDS.map((field) => {
    const lengths = new Int32Array(transactions.length);
    const parts: string[] = [];
    transactions.forEach((tx, i) => {
      const value = tx[field];
      lengths[i] = value === null ? -1 : value.length;
      if (value !== null) parts.push(value);
    });
    return { text: parts.join(''), lengths };
  });
  return { count: transactions.length, columns, occurredAtMs };
}

/** The transactions again, field for field (a null stays null), in order; yields between chunks. */
export async function decodeTransactions(encoded: EncodedTransactions): Promise<SourceTransaction[]> {
  const offsets = encoded.columns.map(() => 0);
  const transactions: SourceTransaction[] = [];
  const next = (column: number, row: number): string | null => {
    const { text, lengths } = encoded.columns[column]!;
    const length = lengths[row]!;
    if (length < 0) return null;
    const value = text.slice(offsets[column], offsets[column]! + length);
    offsets[column]! += length;
    return value;
  };
  for (let row = 0; row < encoded.count; row++) {
    if (row > 0 && row % DECODE_CHUNK_ROWS === 0) await nextTurn();
    transactions.push({
      transactionId: next(0, row)!,
      symbol: next(1, row)!,
      direction: next(2, row)! as SourceTransaction['direction'],
      amount: next(3, row)!,
      priceUsd: next(4, row),
      feeUsd: next(5, row),
      occurredAt: new Date(encoded.occurredAtMs[row]!),
      transferId: next(6, row),
    });
  }
  return transactions;
}

export interface ImportParseAnswer {
  /** A file that parsed comes with `transactions` empty: they are in `encoded`. */
  readonly result: ImportParseResult;
  readonly encoded: EncodedTransactions | null;
  /** First pass: the (symbol, dates) whose price the parse asked for. */
  readonly wanted: readonly (readonly [string, readonly string[]])[];
  /** The last progress reported (the caller reports it again if its message came late). */
  readonly parsed: number | null;
}

/** The parse's result on the request thread: the transactions decoded (their Dates of its realm). */
export async function parseResultOf(answer: ImportParseAnswer): Promise<ImportParseResult> {
  if (!answer.result.ok || answer.encoded === null) return answer.result;
  return { ...answer.result, transactions: await decodeTransactions(answer.encoded) };
}

export default function parseInWorker(task: ImportParseTask): ImportParseAnswer {
  const wanted = new Map<string, Set<string>>();
  const stored = task.prices === null ? null : new Map(task.prices.map(([s, days]) => [s, new Map(days)]));
  const prices: PriceBook = {
    usdOn(symbol, date) {
      if (stored) return stored.get(symbol)?.get(date) ?? null;
      if (!wanted.has(symbol)) wanted.set(symbol, new Set());
      wanted.get(symbol)!.add(date);
      return null;
    },
  };
  let parsed: number | null = null;
  const result = parseImportFile(task.text, {
    now: task.now,
    format: task.format,
    prices,
    onProgress: (rows) => {
      parsed = rows;
      task.progress?.postMessage(rows);
    },
  });
  const wantedList = [...wanted].map(([symbol, dates]) => [symbol, [...dates]] as const);
  if (!result.ok) return { result, encoded: null, wanted: wantedList, parsed };
  return {
    result: { ...result, transactions: [] },
    encoded: encodeTransactions(result.transactions),
    wanted: wantedList,
    parsed,
  };
}
