/**
 * What a file whose header no layout takes is told (issue 30 item 5, docs/sources.md "Export
 * files"): per layout tried, the columns it lacks in that layout's own spelling, the closest
 * layout first, so a partner who uploaded a Coinbase file with a renamed column reads "Not a
 * Coinbase transaction history export: missing column …" first. Pure: no I/O.
 */
import { CSV_COLUMNS, checkCsvHeader, REQUIRED_CSV_COLUMNS } from '../csv/csv-transactions.parser.js';
import type { ExportFormat, ExportRecord } from './export-format.js';

/** How the service's own CSV (docs/csv-format.md) is named among the layouts tried. */
export const NATIVE_LAYOUT_NAME = "the service's CSV";
/** Unknown columns named in the native layout's line; the rest are counted. */
const UNKNOWN_NAMED = 5;

export interface LayoutMismatch {
  /** The layout as errors and docs name it, e.g. "Kraken ledgers". */
  readonly layout: string;
  /** The line compared: the record holding most of the layout's columns (the first on a tie). */
  readonly line: number;
  /** Share of the layout's columns that record holds, 0 to 1: how close the file came to it. */
  readonly closeness: number;
  readonly message: string;
}

const columns = (count: number) => (count === 1 ? 'column' : 'columns');
const quote = (name: string) => `"${name}"`;

/** A column by its names: `"Price at Transaction" (or "Spot Price at Transaction" or …)`. */
function columnText(names: readonly string[]): string {
  const [first, ...others] = names;
  return others.length === 0 ? quote(first) : `${quote(first)} (or ${others.map(quote).join(' or ')})`;
}

/** What an exchange layout lacks in the records a header may be (the file's first few). */
export function exportMismatch(format: ExportFormat, records: readonly ExportRecord[]): LayoutMismatch {
  const wanted = [...format.signature.map((name) => [name]), ...(format.alsoRequired ?? [])];
  let line = records[0]?.line ?? 1;
  let missing = wanted;
  for (const record of records) {
    const names = new Set(record.fields.map((field) => field.toLowerCase()));
    const lacks = wanted.filter((alternatives) => !alternatives.some((a) => names.has(a.toLowerCase())));
    if (lacks.length < missing.length) [line, missing] = [record.line, lacks];
  }
  return {
    layout: format.name,
    line,
    closeness: (wanted.length - missing.length) / wanted.length,
    message: `Not a ${format.name} export: missing ${columns(missing.length)} ${missing.map(columnText).join(', ')}`,
  };
}

/** What the service's own CSV finds wrong with a header row (its parser's rule, checkCsvHeader). */
export function nativeMismatch(header: {
  readonly line: number;
  readonly fields: readonly string[];
}): LayoutMismatch {
  const { problems } = checkCsvHeader(header.fields);
  const of = (kind: string) => problems.filter((p) => p.kind === kind).map((p) => p.column);
  const [missing, unknown, repeated] = [of('missing'), of('unknown'), of('repeated')];
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`missing ${columns(missing.length)} ${missing.map(quote).join(', ')}`);
  if (unknown.length > 0) {
    const more = unknown.length > UNKNOWN_NAMED ? ` and ${unknown.length - UNKNOWN_NAMED} more` : '';
    parts.push(
      `unknown ${columns(unknown.length)} ${unknown.slice(0, UNKNOWN_NAMED).map(quote).join(', ')}${more}`,
    );
  }
  if (repeated.length > 0) parts.push(`${repeated.map(quote).join(', ')} twice`);
  return {
    layout: NATIVE_LAYOUT_NAME,
    line: header.line,
    closeness: (REQUIRED_CSV_COLUMNS.length - missing.length) / REQUIRED_CSV_COLUMNS.length,
    message: `Not ${NATIVE_LAYOUT_NAME}: ${parts.join('; ')} (its columns: ${CSV_COLUMNS.join(', ')})`,
  };
}

/** The layouts tried, closest first (a tie keeps the order they were tried in). */
export function closestFirst(mismatches: readonly LayoutMismatch[]): LayoutMismatch[] {
  return mismatches
    .map((mismatch, order) => ({ mismatch, order }))
    .sort((a, b) => b.mismatch.closeness - a.mismatch.closeness || a.order - b.order)
    .map(({ mismatch }) => mismatch);
}

/** The answer's one-line summary of a header no layout takes. */
export function noLayoutSummary(tried: readonly string[]): string {
  return `The header matches none of the layouts tried (${tried.join(', ')}); what each lacks is listed by line, closest first. Nothing was imported.`;
}
