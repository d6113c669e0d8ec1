/**
 * Import files: the service's own CSV (docs/csv-format.md) or an exchange's export (docs/sources.md,
 * "Export files"), told apart by the header row, never by the file name. All or nothing, like the
 * native importer: every problem is reported by line and column and nothing is returned when any.
 */
import type { SourceTransaction } from '../connectors/source-connector.js';
import { checkSourceTransaction } from '../connectors/source-transaction.rules.js';
import {
  checkCsvHeader,
  csvRecords,
  MAX_REPORTED_ERRORS,
  parseTransactionsCsv,
  type CsvRowError,
} from '../csv/csv-transactions.parser.js';
import { BITSTAMP_EXPORT } from './bitstamp.export.js';
import { COINBASE_EXPORT } from './coinbase.export.js';
import { exportRecords, type ExportFormat, type ExportRecord, type PriceBook } from './export-format.js';
import { GEMINI_EXPORT } from './gemini.export.js';
import {
  closestFirst,
  exportMismatch,
  NATIVE_LAYOUT_NAME,
  nativeMismatch,
  noLayoutSummary,
} from './header-layouts.js';
import { KRAKEN_LEDGERS_EXPORT, KRAKEN_TRADES_EXPORT } from './kraken.export.js';

export const EXPORT_FORMATS: readonly ExportFormat[] = [
  COINBASE_EXPORT,
  KRAKEN_LEDGERS_EXPORT,
  KRAKEN_TRADES_EXPORT,
  GEMINI_EXPORT,
  BITSTAMP_EXPORT,
];
/** The `format` values: `csv` (the service's own) and each export's id. */
export const IMPORT_FORMATS = ['csv', ...EXPORT_FORMATS.map((f) => f.id)] as const;
/** How many records may precede the header row (Coinbase puts a few preamble lines first). */
export const HEADER_SEARCH_RECORDS = 10;

export type ImportParseResult =
  | { readonly ok: true; readonly format: string; readonly transactions: SourceTransaction[] }
  | {
      readonly ok: false;
      readonly format: string;
      readonly errors: CsvRowError[];
      readonly errorCount: number;
      /** Says what went wrong with the file as a whole, when its header fits no layout. */
      readonly summary?: string;
    };

export interface ImportParseOptions {
  readonly now: Date;
  /** A named format (`format` field); absent: detected from the header row. */
  readonly format?: string;
  readonly prices: PriceBook;
  readonly onProgress?: (parsed: number) => void;
}

const matches = (format: ExportFormat, record: ExportRecord) => {
  const names = new Set(record.fields.map((f) => f.toLowerCase()));
  return format.signature.every((column) => names.has(column.toLowerCase()));
};

/** The export format and header record of a file, or null (then it is read as the native CSV). */
export function detectExportFormat(
  records: readonly ExportRecord[],
): { format: ExportFormat; headerIndex: number } | null {
  for (let index = 0; index < Math.min(records.length, HEADER_SEARCH_RECORDS); index++) {
    const format = EXPORT_FORMATS.find((f) => matches(f, records[index]));
    if (format) return { format, headerIndex: index };
  }
  return null;
}

/** The records a header may be (the file's first few), or null when its start is not CSV. */
function headRecords(text: string): ExportRecord[] | null {
  try {
    return exportRecords(text, HEADER_SEARCH_RECORDS * 4).slice(0, HEADER_SEARCH_RECORDS);
  } catch {
    return null; // unreadable as CSV at its start: the native parser reports it by line
  }
}

/**
 * A file no layout's header matches: per layout tried (every export, then the service's CSV),
 * the columns it lacks, closest first; null when the service's CSV takes the header (then its
 * parser reads the file) or the file has none (its parser says it is empty).
 */
function unrecognisedHeader(text: string, head: readonly ExportRecord[]): ImportParseResult | null {
  const first = csvRecords(text).next();
  if (first.done || checkCsvHeader(first.value.fields).problems.length === 0) return null;
  const mismatches = closestFirst([
    ...EXPORT_FORMATS.map((format) => exportMismatch(format, head)),
    nativeMismatch({ line: first.value.line, fields: first.value.fields.map((f) => f.trim()) }),
  ]);
  return {
    ok: false,
    format: 'unknown',
    errors: mismatches.map(({ line, message }) => ({ line, field: 'header', message })),
    errorCount: mismatches.length,
    summary: noLayoutSummary([...EXPORT_FORMATS.map((f) => f.name), NATIVE_LAYOUT_NAME]),
  };
}

/** Parses a file of any known format into transactions (all rows valid) or line-numbered errors. */
export function parseImportFile(text: string, options: ImportParseOptions): ImportParseResult {
  if (options.format === 'csv') return { format: 'csv', ...parseTransactionsCsv(text, options) };
  // The layout is told apart on the file's first lines, so a native CSV is not read twice.
  if (options.format === undefined) {
    const head = headRecords(text);
    if (head === null || detectExportFormat(head) === null)
      return (
        (head && unrecognisedHeader(text, head)) ?? { format: 'csv', ...parseTransactionsCsv(text, options) }
      );
  }
  let records: ExportRecord[];
  try {
    records = exportRecords(text);
  } catch (error) {
    // csv-parse gives up on broken quoting: the line it names is where the file stops being CSV.
    const line = (error as { lines?: number }).lines ?? 1;
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      format: options.format ?? 'unknown',
      errors: [{ line, field: 'row', message }],
      errorCount: 1,
    };
  }
  let found = detectExportFormat(records);
  if (options.format !== undefined) {
    const named = EXPORT_FORMATS.find((f) => f.id === options.format);
    if (!named) {
      const message = `format "${options.format}" is unknown; known: ${IMPORT_FORMATS.join(', ')}`;
      return {
        ok: false,
        format: options.format,
        errors: [{ line: 1, field: 'format', message }],
        errorCount: 1,
      };
    }
    const index = records.slice(0, HEADER_SEARCH_RECORDS).findIndex((r) => matches(named, r));
    if (index < 0) {
      const { line, message } = exportMismatch(named, records.slice(0, HEADER_SEARCH_RECORDS));
      return { ok: false, format: named.id, errors: [{ line, field: 'header', message }], errorCount: 1 };
    }
    found = { format: named, headerIndex: index };
  }
  if (!found) return { format: 'csv', ...parseTransactionsCsv(text, options) };
  const { format, headerIndex } = found;
  const output = format.parse(records[headerIndex], records.slice(headerIndex + 1), options.prices);
  const errors: CsvRowError[] = [...output.errors];
  const transactions: SourceTransaction[] = [];
  const seen = new Map<string, number>();
  for (const { line, tx } of output.legs) {
    const problems = checkSourceTransaction(tx, options.now);
    for (const p of problems) errors.push({ line, field: p.field, message: `${p.field} ${p.message}` });
    const firstLine = seen.get(tx.transactionId);
    if (firstLine !== undefined)
      errors.push({
        line,
        field: 'id',
        message: `transaction "${tx.transactionId}" already appears on line ${firstLine}`,
      });
    else seen.set(tx.transactionId, line);
    if (problems.length === 0) transactions.push(tx);
  }
  options.onProgress?.(records.length - headerIndex - 1);
  if (errors.length > 0) {
    errors.sort((a, b) => a.line - b.line);
    return {
      ok: false,
      format: format.id,
      errors: errors.slice(0, MAX_REPORTED_ERRORS),
      errorCount: errors.length,
    };
  }
  return { ok: true, format: format.id, transactions };
}
