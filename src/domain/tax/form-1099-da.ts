/**
 * Form 1099-DA reconciliation (issue 19 item 5; docs/tax-report.md, "Form 1099-DA
 * reconciliation"): a broker's 1099-DA, as a CSV of the form's boxes, matched line by line with
 * the service's Form 8949 lines of the same tax year. Pure: text and lines in, a reconciliation
 * out. Amounts compare in cents (the form's and the 8949's unit); quantities exactly.
 *
 * Matching, in three passes over the broker's lines in file order (each service line is used
 * once):
 *   1. per lot: a broker line with a date acquired matches an unmatched 8949 line of the same
 *      asset, date sold, date acquired and units;
 *   2. per sale: a broker line matches the unmatched 8949 lines of one sale (one transaction id)
 *      of the same asset and date sold whose units add up to the broker's;
 *   3. same day: a broker line still alone pairs with the one sale of that asset on that date
 *      still unmatched, if exactly one is left; its fields then differ (units at least).
 * What is left is unmatched on either side. The service's lines are indexed by what each pass
 * compares (asset, dates, units), so matching is near-linear in the lines of both sides.
 */
import { parse } from 'csv-parse/sync';
import type { Decimal } from 'decimal.js';
import { sumExact, toExact } from '../money/exact-decimal.js';
import { canonicalDecimal, roundUsdToCents, type DecimalInput } from '../money/format.js';
import type { Form8949Line } from './form-8949-lines.js';

/** The layout's columns: header names (any order, case-insensitive) and the form's boxes. */
export const FORM_1099_DA_COLUMNS = [
  { name: 'asset', box: '1a/1b', required: true, meaning: 'Digital asset code or name (ticker, e.g. BTC).' },
  { name: 'units', box: '1c', required: true, meaning: 'Number of units sold (decimal, > 0).' },
  { name: 'date_acquired', box: '1d', required: false, meaning: 'YYYY-MM-DD, or blank / VARIOUS.' },
  { name: 'date_sold', box: '1e', required: true, meaning: 'YYYY-MM-DD.' },
  { name: 'proceeds', box: '1f', required: true, meaning: 'Gross proceeds in USD (at most 2 decimals).' },
  {
    name: 'cost_basis',
    box: '1g',
    required: false,
    meaning: 'Cost or other basis in USD; blank when the broker does not report it (noncovered).',
  },
  { name: 'term', box: '2', required: false, meaning: '`short` or `long`; blank when not reported.' },
  { name: 'reference', box: '—', required: false, meaning: 'The broker’s own line reference, echoed back.' },
] as const;

export const FORM_1099_DA_MAX_LINES = 100_000;

export interface BrokerLine {
  /** The CSV line the row starts on (the header is line 1 when it is the first). */
  readonly line: number;
  readonly asset: string;
  readonly units: string;
  /** null: blank or VARIOUS. */
  readonly dateAcquired: string | null;
  readonly dateSold: string;
  readonly proceedsUsd: string;
  /** null: not reported. */
  readonly costBasisUsd: string | null;
  readonly term: 'short' | 'long' | null;
  readonly reference: string | null;
}

export interface Form1099DaProblem {
  readonly line: number;
  readonly message: string;
}

export type Form1099DaParse =
  | { readonly ok: true; readonly lines: BrokerLine[] }
  | { readonly ok: false; readonly problems: Form1099DaProblem[] };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d{1,15}(\.\d{1,2})?$/;
const UNITS = /^\d{1,20}(\.\d{1,30})?$/;
const TICKER = /^[A-Za-z0-9]{1,20}$/;

/** Reads the CSV: every row is checked; any problem means no lines (all or nothing). */
export function parseForm1099Da(text: string): Form1099DaParse {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { ok: false, problems: [{ line, message: `Not CSV: ${(error as Error).message}` }] };
  }
  const rows = records.filter(({ record }) => record.some((field) => field.trim() !== ''));
  const [header, ...body] = rows;
  if (!header)
    return { ok: false, problems: [{ line: 1, message: 'The file is empty: a header row is required.' }] };
  const columns = new Map(header.record.map((name, index) => [name.trim().toLowerCase(), index]));
  const missing = FORM_1099_DA_COLUMNS.filter((c) => c.required && !columns.has(c.name)).map((c) => c.name);
  if (missing.length > 0) {
    return {
      ok: false,
      problems: [
        { line: header.info.lines, message: `The header lacks the column(s) ${missing.join(', ')}.` },
      ],
    };
  }
  if (body.length > FORM_1099_DA_MAX_LINES) {
    return {
      ok: false,
      problems: [
        { line: 1, message: `At most ${FORM_1099_DA_MAX_LINES} lines; split the file by account or asset.` },
      ],
    };
  }
  const problems: Form1099DaProblem[] = [];
  const lines: BrokerLine[] = [];
  // A file has few distinct dates and many lines: each date is checked once.
  const dates = new Map<string, boolean>();
  for (const { record, info } of body) {
    const line = info.lines;
    const field = (name: string) => {
      const index = columns.get(name);
      return index === undefined ? '' : (record[index] ?? '').trim();
    };
    const wrong = (message: string) => problems.push({ line, message });
    const asset = field('asset');
    const units = field('units');
    const acquired = field('date_acquired');
    const sold = field('date_sold');
    const proceeds = field('proceeds').replace(/^\$/, '').replaceAll(',', '');
    const basis = field('cost_basis').replace(/^\$/, '').replaceAll(',', '');
    const term = field('term').toLowerCase();
    const before = problems.length;
    if (!TICKER.test(asset)) wrong(`asset must be a ticker of 1-20 letters or digits (got "${asset}").`);
    // UNITS is digits and one point: zero is no digit 1-9.
    if (!UNITS.test(units) || !/[1-9]/.test(units))
      wrong(`units must be a decimal number > 0 with at most 30 decimals (got "${units}").`);
    if (acquired !== '' && acquired.toUpperCase() !== 'VARIOUS' && !isDate(acquired, dates))
      wrong(`date_acquired must be YYYY-MM-DD, VARIOUS or blank (got "${acquired}").`);
    if (!isDate(sold, dates)) wrong(`date_sold must be a date YYYY-MM-DD (got "${sold}").`);
    if (!AMOUNT.test(proceeds))
      wrong(`proceeds must be USD ≥ 0 with at most 2 decimals (got "${proceeds}").`);
    if (basis !== '' && !AMOUNT.test(basis))
      wrong(`cost_basis must be USD ≥ 0 with at most 2 decimals, or blank (got "${basis}").`);
    if (term !== '' && term !== 'short' && term !== 'long')
      wrong(`term must be short, long or blank (got "${term}").`);
    if (problems.length > before) continue;
    lines.push({
      line,
      asset: asset.toUpperCase(),
      units: canonicalDecimal(units),
      dateAcquired: acquired === '' || acquired.toUpperCase() === 'VARIOUS' ? null : acquired,
      dateSold: sold,
      proceedsUsd: canonicalDecimal(proceeds),
      costBasisUsd: basis === '' ? null : canonicalDecimal(basis),
      term: term === '' ? null : (term as 'short' | 'long'),
      reference: field('reference') || null,
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, lines };
}

function isDate(text: string, known: Map<string, boolean>): boolean {
  let valid = known.get(text);
  if (valid === undefined) {
    const date = DATE.test(text) ? new Date(`${text}T00:00:00Z`) : null;
    valid = date !== null && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
    known.set(text, valid);
  }
  return valid;
}

export type DifferenceField = 'units' | 'date_acquired' | 'proceeds' | 'cost_basis' | 'term';

export interface FieldDifference {
  readonly field: DifferenceField;
  readonly broker: string;
  readonly service: string;
  /** broker − service, for numbers; null for dates and terms. */
  readonly difference: string | null;
}

/** The service's side of a pairing: one 8949 line, or the lines of one sale. */
export interface ServiceSide {
  readonly transactionId: string;
  readonly accountId: string;
  readonly units: string;
  /** One date, or null when the lines were acquired on several dates (VARIOUS). */
  readonly dateAcquired: string | null;
  readonly dateSold: string;
  /** Sum of the lines' cent-rounded proceeds. */
  readonly proceedsUsd: string;
  readonly costBasisUsd: string;
  /** One term, or null when the lines mix terms. */
  readonly term: 'short' | 'long' | null;
  readonly lines: number;
}

export interface Pairing {
  readonly broker: BrokerLine;
  readonly service: ServiceSide;
  /** How they were paired (passes 1-3 above). */
  readonly matchedBy: 'lot' | 'sale' | 'same_day';
  /** Empty: they agree. */
  readonly differences: readonly FieldDifference[];
}

export interface Form1099DaReconciliation {
  readonly matched: readonly Pairing[];
  readonly different: readonly Pairing[];
  readonly unmatchedBroker: readonly BrokerLine[];
  /** The service's unmatched lines, grouped per sale. */
  readonly unmatchedService: readonly ServiceSide[];
  readonly brokerProceedsUsd: string;
  readonly serviceProceedsUsd: string;
}

export function reconcileForm1099Da(
  broker: readonly BrokerLine[],
  service: readonly Form8949Line[],
): Form1099DaReconciliation {
  // Near-linear (issue 27 item 9): the service's lines are indexed once by what each pass
  // compares, so no pass scans the other side's lines per broker line. Each pass keeps the
  // order the scans had: the first service line, the first sale in service order.
  const used = new Set<Form8949Line>();
  const pairs: Pairing[] = [];
  const open = new Set(broker);

  // 1. Per lot: the first unused line of the same asset, date sold, date acquired and units.
  const byLot = groupBy(service, (l) =>
    l.dateAcquired === null ? null : lotKey(l.symbol, l.dateSold, l.dateAcquired, l.quantity),
  );
  const nextOfLot = new Map<string, number>();
  for (const b of broker) {
    if (b.dateAcquired === null) continue;
    const key = lotKey(b.asset, b.dateSold, b.dateAcquired, b.units);
    const candidates = byLot.get(key);
    const index = nextOfLot.get(key) ?? 0;
    const line = candidates?.[index];
    if (!line) continue;
    nextOfLot.set(key, index + 1);
    used.add(line);
    open.delete(b);
    pairs.push(pair(b, [line], 'lot'));
  }

  // The unused lines of each sale, the sales of each asset and date sold in the order their first
  // unused line comes in. Only pass 2 and 3 take sales from here on, always whole.
  const sales = [...groupBySale(service.filter((l) => !used.has(l))).values()];
  const salesOfDay = groupBy(sales, (sale) => dayKey(sale[0].symbol, sale[0].dateSold));
  const taken = new Set<Form8949Line[]>();

  // 2. Per sale: the first untaken sale of the asset and date sold whose units add up to the broker's.
  const bySum = groupBy(sales, (sale) =>
    lotKey(sale[0].symbol, sale[0].dateSold, '', sumExact(sale.map((l) => l.quantity))),
  );
  const nextOfSum = new Map<string, number>();
  for (const b of broker) {
    if (!open.has(b)) continue;
    const key = lotKey(b.asset, b.dateSold, '', b.units);
    const candidates = bySum.get(key);
    const index = nextOfSum.get(key) ?? 0;
    const sale = candidates?.[index];
    if (!sale) continue;
    nextOfSum.set(key, index + 1);
    taken.add(sale);
    open.delete(b);
    pairs.push(pair(b, sale, 'sale'));
  }

  // 3. Same day, only when one sale is left to pair with and the broker line is the only one of
  // its asset and date left: then nothing else of that day can pair, so one pass of counts does.
  const openOfDay = new Map<string, number>();
  for (const b of open) {
    const key = dayKey(b.asset, b.dateSold);
    openOfDay.set(key, (openOfDay.get(key) ?? 0) + 1);
  }
  for (const b of broker) {
    if (!open.has(b)) continue;
    const key = dayKey(b.asset, b.dateSold);
    if (openOfDay.get(key) !== 1) continue;
    const left = (salesOfDay.get(key) ?? []).filter((sale) => !taken.has(sale));
    if (left.length !== 1) continue;
    const onlySale = left[0];
    taken.add(onlySale);
    open.delete(b);
    openOfDay.set(key, 0);
    pairs.push(pair(b, onlySale, 'same_day'));
  }

  const unmatchedService = sales.filter((sale) => !taken.has(sale)).map(side);
  pairs.sort((a, b) => a.broker.line - b.broker.line);
  return {
    matched: pairs.filter((p) => p.differences.length === 0),
    different: pairs.filter((p) => p.differences.length > 0),
    unmatchedBroker: broker.filter((b) => open.has(b)),
    unmatchedService,
    brokerProceedsUsd: cents(sumExact(broker.map((b) => b.proceedsUsd))),
    serviceProceedsUsd: cents(sumExact(service.map((l) => l.proceedsUsd))),
  };
}

/** Asset and date sold: one trading day of one asset. */
function dayKey(asset: string, dateSold: string): string {
  return `${asset}\u0000${dateSold}`;
}

/** Asset, date sold, date acquired and units (by value: canonical decimal text). */
function lotKey(asset: string, dateSold: string, dateAcquired: string, units: DecimalInput): string {
  return `${dayKey(asset, dateSold)}\u0000${dateAcquired}\u0000${canonical(units)}`;
}

/** Canonical decimal text (no exponent, no sign, no leading or trailing zeros). */
const CANONICAL = /^(0|[1-9]\d*)(\.\d*[1-9])?$/;

/** canonicalDecimal, without parsing text that is canonical already (a parsed unit, a line's quantity). */
function canonical(value: DecimalInput): string {
  return typeof value === 'string' && CANONICAL.test(value) ? value : canonicalDecimal(value);
}

/** Items grouped by key (null: left out), each group in input order. */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === null) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The lines of each sale (account and transaction id), sales in the order of their first line. */
function groupBySale(lines: readonly Form8949Line[]): Map<string, Form8949Line[]> {
  return groupBy(lines, (line) => `${line.accountId}\u0000${line.transactionId}`);
}

function side(lines: readonly Form8949Line[]): ServiceSide {
  const first = lines[0] as Form8949Line;
  let oneDate = true;
  let oneTerm = true;
  for (const line of lines) {
    oneDate &&= line.dateAcquired === first.dateAcquired;
    oneTerm &&= line.term === first.term;
  }
  return {
    transactionId: first.transactionId,
    accountId: first.accountId,
    units:
      lines.length === 1
        ? canonical(first.quantity)
        : canonicalDecimal(sumExact(lines.map((l) => l.quantity))),
    dateAcquired: oneDate ? (first.dateAcquired ?? null) : null,
    dateSold: first.dateSold,
    proceedsUsd: cents(lines.length === 1 ? first.proceedsUsd : sumExact(lines.map((l) => l.proceedsUsd))),
    costBasisUsd: cents(lines.length === 1 ? first.costBasisUsd : sumExact(lines.map((l) => l.costBasisUsd))),
    term: oneTerm ? first.term : null,
    lines: lines.length,
  };
}

function pair(b: BrokerLine, lines: readonly Form8949Line[], matchedBy: Pairing['matchedBy']): Pairing {
  const s = side(lines);
  const differences: FieldDifference[] = [];
  const number = (field: DifferenceField, broker: string, service: string) => {
    // Equal text is an equal value (both sides are canonical or cents text); only text that
    // differs is compared as numbers (e.g. "-0.00" and "0.00").
    if (broker !== service && !toExact(broker).equals(service))
      differences.push({
        field,
        broker,
        service,
        difference: canonicalDecimal(toExact(broker).minus(service)),
      });
  };
  number('units', b.units, s.units);
  if (b.dateAcquired !== null && b.dateAcquired !== s.dateAcquired)
    differences.push({
      field: 'date_acquired',
      broker: b.dateAcquired,
      service: s.dateAcquired ?? 'VARIOUS',
      difference: null,
    });
  number('proceeds', centsOfText(b.proceedsUsd), s.proceedsUsd);
  if (b.costBasisUsd !== null) number('cost_basis', centsOfText(b.costBasisUsd), s.costBasisUsd);
  if (b.term !== null && b.term !== s.term)
    differences.push({ field: 'term', broker: b.term, service: s.term ?? 'mixed', difference: null });
  return { broker: b, service: s, matchedBy, differences };
}

/** Cents text of decimal text: padded without decimal.js when it has at most 2 decimals (a broker's amount always has). */
function centsOfText(text: string): string {
  const point = text.indexOf('.');
  if (/^\d+(\.\d{1,2})?$/.test(text)) {
    return point < 0 ? `${text}.00` : text.length - point === 2 ? `${text}0` : text;
  }
  return cents(toExact(text));
}

function cents(value: Decimal): string {
  // A Form 8949 line's amounts are cents already: rounding them again is the same value.
  return (value.decimalPlaces() <= 2 ? value : roundUsdToCents(value)).toFixed(2);
}
