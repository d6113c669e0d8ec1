/**
 * Worker-thread entry of the import parse (ImportParsePool, issue 28): parses an import file
 * (parseImportFile, the very function the request thread ran before) and answers plain data. The
 * first pass records which daily prices the file needs (`prices` null); the second, given them,
 * parses with them. Progress (the native CSV's every 1,000 rows) goes back over `progress`.
 */
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

export interface ImportParseAnswer {
  readonly result: ImportParseResult;
  /** First pass: the (symbol, dates) whose price the parse asked for. */
  readonly wanted: readonly (readonly [string, readonly string[]])[];
  /** The last progress reported (the caller reports it again if its message came late). */
  readonly parsed: number | null;
}

/** The transactions' times in the caller's realm (under Jest a worker's Date is of Node's own realm). */
export function reviveParseResult(result: ImportParseResult): ImportParseResult {
  if (!result.ok) return result;
  return {
    ...result,
    transactions: result.transactions.map((tx): SourceTransaction => ({
      ...tx,
      occurredAt: new Date(tx.occurredAt.getTime()),
    })),
  };
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
  return { result, wanted: [...wanted].map(([symbol, dates]) => [symbol, [...dates]]), parsed };
}
