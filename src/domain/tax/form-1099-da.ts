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
 * What is left is unmatched on either side.
 */
import { parse } from 'csv-parse/sync';
import type { Decimal } from 'decimal.js';
import { sumExact, toExact } from '../money/exact-decimal.js';
import { canonicalDecimal, roundUsdToCents } from '../money/format.js';
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
    if (!UNITS.test(units) || toExact(units).isZero())
      wrong(`units must be a decimal number > 0 with at most 30 decimals (got "${units}").`);
    if (acquired !== '' && acquired.toUpperCase() !== 'VARIOUS' && !isDate(acquired))
      wrong(`date_acquired must be YYYY-MM-DD, VARIOUS or blank (got "${acquired}").`);
    if (!isDate(sold)) wrong(`date_sold must be a date YYYY-MM-DD (got "${sold}").`);
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

function isDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
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
  const used = new Set<Form8949Line>();
  const pairs: Pairing[] = [];
  const open = new Set(broker);
  const free = (line: Form8949Line) => !used.has(line);

  // 1. Per lot.
  for (const b of broker) {
    if (b.dateAcquired === null) continue;
    const line = service.find(
      (l) =>
        free(l) &&
        l.symbol === b.asset &&
        l.dateSold === b.dateSold &&
        l.dateAcquired === b.dateAcquired &&
        toExact(l.quantity).equals(b.units),
    );
    if (!line) continue;
    used.add(line);
    open.delete(b);
    pairs.push(pair(b, [line], 'lot'));
  }
  // 2. Per sale.
  for (const b of [...open]) {
    const sale = salesOf(service.filter(free), b).find((lines) =>
      sumExact(lines.map((l) => l.quantity)).equals(b.units),
    );
    if (!sale) continue;
    for (const line of sale) used.add(line);
    open.delete(b);
    pairs.push(pair(b, sale, 'sale'));
  }
  // 3. Same day, only when one sale is left to pair with.
  for (const b of [...open]) {
    const sales = salesOf(service.filter(free), b);
    const onlySale = sales.length === 1 ? sales[0] : undefined;
    if (!onlySale) continue;
    const othersThatDay = [...open].filter(
      (other) => other !== b && other.asset === b.asset && other.dateSold === b.dateSold,
    );
    if (othersThatDay.length > 0) continue;
    for (const line of onlySale) used.add(line);
    open.delete(b);
    pairs.push(pair(b, onlySale, 'same_day'));
  }

  const leftOver = service.filter(free);
  const unmatchedService = [...groupBySale(leftOver).values()].map(side);
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

/** The unmatched sales of the broker line's asset and date sold, each as its lines. */
function salesOf(lines: readonly Form8949Line[], b: BrokerLine): Form8949Line[][] {
  return [...groupBySale(lines.filter((l) => l.symbol === b.asset && l.dateSold === b.dateSold)).values()];
}

function groupBySale(lines: readonly Form8949Line[]): Map<string, Form8949Line[]> {
  const sales = new Map<string, Form8949Line[]>();
  for (const line of lines) {
    const key = `${line.accountId}\u0000${line.transactionId}`;
    sales.set(key, [...(sales.get(key) ?? []), line]);
  }
  return sales;
}

function side(lines: readonly Form8949Line[]): ServiceSide {
  const first = lines[0] as Form8949Line;
  const dates = new Set(lines.map((l) => l.dateAcquired));
  const terms = new Set(lines.map((l) => l.term));
  return {
    transactionId: first.transactionId,
    accountId: first.accountId,
    units: canonicalDecimal(sumExact(lines.map((l) => l.quantity))),
    dateAcquired: dates.size === 1 ? (first.dateAcquired ?? null) : null,
    dateSold: first.dateSold,
    proceedsUsd: cents(sumExact(lines.map((l) => l.proceedsUsd))),
    costBasisUsd: cents(sumExact(lines.map((l) => l.costBasisUsd))),
    term: terms.size === 1 ? first.term : null,
    lines: lines.length,
  };
}

function pair(b: BrokerLine, lines: readonly Form8949Line[], matchedBy: Pairing['matchedBy']): Pairing {
  const s = side(lines);
  const differences: FieldDifference[] = [];
  const number = (field: DifferenceField, broker: string, service: string) => {
    if (!toExact(broker).equals(service))
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
  number('proceeds', cents(toExact(b.proceedsUsd)), s.proceedsUsd);
  if (b.costBasisUsd !== null) number('cost_basis', cents(toExact(b.costBasisUsd)), s.costBasisUsd);
  if (b.term !== null && b.term !== s.term)
    differences.push({ field: 'term', broker: b.term, service: s.term ?? 'mixed', difference: null });
  return { broker: b, service: s, matchedBy, differences };
}

function cents(value: Decimal): string {
  return roundUsdToCents(value).toFixed(2);
}
