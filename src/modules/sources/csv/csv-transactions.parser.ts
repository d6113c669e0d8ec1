/**
 * The documented CSV transaction format (docs/csv-format.md): RFC 4180, a header row naming the
 * columns (any order), one transaction per record. Parsing is all-or-nothing: every bad row is
 * reported with its line number and nothing is imported when any row is bad.
 */
import { ChecksumError, canonicalTimestamp } from '../../../domain/checksum/checksum.js';
import type { Direction } from '../../../domain/cost-basis/index.js';
import type { SourceTransaction } from '../connectors/source-connector.js';
import { checkSourceTransaction } from '../connectors/source-transaction.rules.js';

export const CSV_COLUMNS = [
  'transactionId',
  'timestamp',
  'symbol',
  'direction',
  'amount',
  'price',
  'fee',
  'transferId',
] as const;
export const REQUIRED_CSV_COLUMNS = ['transactionId', 'timestamp', 'symbol', 'direction', 'amount'] as const;
/** Errors listed in one answer; the count says how many there were in all. */
export const MAX_REPORTED_ERRORS = 100;

type Column = (typeof CSV_COLUMNS)[number];

export interface CsvRowError {
  /** 1-based line of the file where the record starts (the header is line 1). */
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

export type CsvParseResult =
  | { readonly ok: true; readonly transactions: SourceTransaction[] }
  | { readonly ok: false; readonly errors: CsvRowError[]; readonly errorCount: number };

interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
  /** Per field: it was enclosed in quotes, so its spaces are data (only unquoted fields are trimmed). */
  readonly quoted: boolean[];
}

/** RFC 4180 records with the line each starts on; quoted fields may span lines. */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    const quotedFields: boolean[] = [];
    let field = '';
    let wasQuoted = false;
    let quoted = false;
    let atFieldStart = true;
    let ended = false;
    while (i < n) {
      const c = text[i];
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          quoted = false;
          i++;
          continue;
        }
        if (c === '\n') line++;
        field += c;
        i++;
        continue;
      }
      if (c === '"' && atFieldStart) {
        quoted = true;
        wasQuoted = true;
        atFieldStart = false;
        i++;
        continue;
      }
      if (c === ',') {
        fields.push(field);
        quotedFields.push(wasQuoted);
        field = '';
        wasQuoted = false;
        atFieldStart = true;
        i++;
        continue;
      }
      if (c === '\r' || c === '\n') {
        i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
        line++;
        ended = true;
        break;
      }
      field += c;
      atFieldStart = false;
      i++;
    }
    fields.push(field);
    quotedFields.push(wasQuoted);
    // Blank lines are skipped (a trailing newline, or spacing between records).
    if (!(fields.length === 1 && !wasQuoted && fields[0].trim() === ''))
      yield { line: start, fields, quoted: quotedFields };
    if (!ended && i >= n) break;
  }
}

export interface CsvHeaderProblem {
  readonly kind: 'unknown' | 'repeated' | 'missing';
  /** As the header writes it (unknown), or the format's spelling (repeated, missing). */
  readonly column: string;
}

/**
 * The one rule for this format's header row (names trimmed, compared case-insensitively): every
 * name one of CSV_COLUMNS, none twice, the required ones present. Problems in header order, the
 * missing columns last; the import's header check (exports/header-layouts.ts) reads it too.
 */
export function checkCsvHeader(fields: readonly string[]): {
  columns: Map<Column, number>;
  problems: CsvHeaderProblem[];
} {
  const columns = new Map<Column, number>();
  const problems: CsvHeaderProblem[] = [];
  fields.forEach((raw, index) => {
    const name = raw.trim();
    const column = CSV_COLUMNS.find((c) => c.toLowerCase() === name.toLowerCase());
    if (!column) problems.push({ kind: 'unknown', column: name });
    else if (columns.has(column)) problems.push({ kind: 'repeated', column });
    else columns.set(column, index);
  });
  for (const required of REQUIRED_CSV_COLUMNS)
    if (!columns.has(required)) problems.push({ kind: 'missing', column: required });
  return { columns, problems };
}

export interface CsvParseOptions {
  readonly now: Date;
  /** Called every `progressEvery` records with the number parsed so far (CLI progress bar). */
  readonly onProgress?: (parsed: number) => void;
  readonly progressEvery?: number;
}

/** Parses and validates the whole file; transactions only when every row is valid. */
export function parseTransactionsCsv(text: string, options: CsvParseOptions): CsvParseResult {
  const errors: CsvRowError[] = [];
  let errorCount = 0;
  const fail = (line: number, field: string, message: string) => {
    errorCount++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, field, message });
  };
  const records = csvRecords(text);
  const header = records.next();
  if (header.done) {
    fail(1, 'header', `the file is empty; the first line must name the columns: ${CSV_COLUMNS.join(',')}`);
    return { ok: false, errors, errorCount };
  }
  const { columns, problems } = checkCsvHeader(header.value.fields);
  for (const { kind, column } of problems) {
    const message =
      kind === 'unknown'
        ? `unknown column "${column}"; allowed: ${CSV_COLUMNS.join(', ')}`
        : kind === 'repeated'
          ? `column "${column}" appears twice`
          : `required column "${column}" is missing`;
    fail(header.value.line, 'header', message);
  }
  if (errorCount > 0) return { ok: false, errors, errorCount };

  const transactions: SourceTransaction[] = [];
  const seen = new Map<string, number>();
  let parsed = 0;
  for (const record of records) {
    parsed++;
    if (options.onProgress && parsed % (options.progressEvery ?? 1_000) === 0) options.onProgress(parsed);
    if (record.fields.length !== header.value.fields.length) {
      fail(
        record.line,
        'row',
        `has ${record.fields.length} fields; the header has ${header.value.fields.length}`,
      );
      continue;
    }
    const value = (column: Column): string => {
      const index = columns.get(column);
      if (index === undefined) return '';
      return record.quoted[index] ? record.fields[index] : record.fields[index].trim();
    };
    const optional = (column: Column): string | null => (value(column) === '' ? null : value(column));
    let occurredAt = new Date(Number.NaN);
    try {
      if (value('timestamp') !== '') occurredAt = new Date(canonicalTimestamp(value('timestamp')));
    } catch (error) {
      if (!(error instanceof ChecksumError)) throw error;
    }
    const tx: SourceTransaction = {
      transactionId: value('transactionId'),
      symbol: value('symbol').toUpperCase(),
      direction: value('direction').toLowerCase() as Direction,
      amount: value('amount'),
      priceUsd: optional('price'),
      feeUsd: optional('fee'),
      occurredAt,
      transferId: optional('transferId'),
    };
    const problems = checkSourceTransaction(tx, options.now);
    for (const problem of problems) fail(record.line, problem.field, `${problem.field} ${problem.message}`);
    const firstLine = seen.get(tx.transactionId);
    if (firstLine !== undefined)
      fail(
        record.line,
        'transactionId',
        `transactionId "${tx.transactionId}" already appears on line ${firstLine}`,
      );
    else seen.set(tx.transactionId, record.line);
    if (problems.length === 0) transactions.push(tx);
  }
  options.onProgress?.(parsed);
  return errorCount > 0 ? { ok: false, errors, errorCount } : { ok: true, transactions };
}

/** Writes transactions in the documented format (used by the sandbox seed and tests). */
export function toTransactionsCsv(transactions: readonly SourceTransaction[]): string {
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = transactions.map((tx) =>
    [
      tx.transactionId,
      tx.occurredAt.toISOString(),
      tx.symbol,
      tx.direction,
      tx.amount,
      tx.priceUsd ?? '',
      tx.feeUsd ?? '',
      tx.transferId ?? '',
    ]
      .map(quote)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...lines].join('\n') + '\n';
}
