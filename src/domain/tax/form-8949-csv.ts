/**
 * Form 8949 lines as a CSV file a spreadsheet opens as is (RFC 4180): a header row, CRLF line
 * ends, fields quoted when they hold a comma, quote or line break (quotes doubled). Amounts are
 * plain numbers with two decimals and a leading minus for losses, so a spreadsheet can sum them;
 * dates are ISO 8601 (YYYY-MM-DD), which spreadsheets read as dates in every locale.
 * Lines only: no total rows, so summing a column gives the report's total.
 */
import { centsText, type Form8949Line } from './form-8949-lines.js';

export const FORM_8949_CSV_COLUMNS = [
  'Part',
  'Box',
  '(a) Description of property',
  '(b) Date acquired',
  '(c) Date sold or disposed of',
  '(d) Proceeds',
  '(e) Cost or other basis',
  '(f) Adjustment code',
  '(g) Amount of adjustment',
  '(h) Gain or (loss)',
  'Term',
  'Asset',
  'Quantity',
  'Account id',
  'Transaction id',
  'Needs review',
  'Review reason',
  'Identified late',
] as const;

const NEEDS_QUOTES = /[",\r\n]/;
/** A text cell a spreadsheet would run as a formula (CSV injection): prefixed with a quote. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Source-provided free text (transaction ids) must never be taken for a formula. */
function safeText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function toForm8949Csv(lines: readonly Form8949Line[]): string {
  const rows: string[][] = [[...FORM_8949_CSV_COLUMNS]];
  for (const line of lines) {
    rows.push([
      line.part,
      line.box,
      line.description,
      line.dateAcquired ?? '',
      line.dateSold,
      centsText(line.proceedsUsd),
      centsText(line.costBasisUsd),
      '',
      '',
      centsText(line.gainUsd),
      line.term,
      line.symbol,
      line.quantity,
      line.accountId,
      safeText(line.transactionId),
      line.reviewReason ? 'yes' : 'no',
      line.reviewReason ?? '',
      line.identifiedLate ? 'yes' : 'no',
    ]);
  }
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
