/**
 * What every exchange export importer shares (docs/sources.md, "Export files"): the records of the
 * file with their line numbers, a row's columns by name, the number and date readers whose errors
 * name the line and the column, and the one rule that turns a trade's two sides into ledger legs
 * with USD prices and fees. Pure: no I/O; stored prices come in through a PriceBook.
 */
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { Decimal } from 'decimal.js';
import { ExactDecimal } from '../../../domain/money/exact-decimal.js';
import { canonicalDecimal } from '../../../domain/money/format.js';
import type { SourceTransaction } from '../connectors/source-connector.js';

/** One record of the file: its fields and the 1-based line it starts on. */
export interface ExportRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

export interface ExportRowError {
  readonly line: number;
  /** The column of the export (or `header`, `row`). */
  readonly field: string;
  readonly message: string;
}

/** USD prices from the market store: the daily price of a symbol on a UTC date, or null. */
export interface PriceBook {
  usdOn(symbol: string, date: string): string | null;
}

/** The transactions of a file and the problems found; transactions carry the line they came from. */
export interface ExportOutput {
  readonly legs: { readonly line: number; readonly tx: SourceTransaction }[];
  readonly errors: ExportRowError[];
}

export interface ExportFormat {
  /** The `format` field's value, e.g. `kraken-ledgers`. */
  readonly id: string;
  /** How errors and docs name it, e.g. "Kraken ledgers". */
  readonly name: string;
  /** Columns whose presence in one record marks that record as this format's header row. */
  readonly signature: readonly string[];
  /**
   * Columns its rows need besides the signature, each as the names it goes by (any one will do:
   * Coinbase renamed its price column across layouts). What a wrong header is told it lacks
   * (header-layouts.ts) is the signature's missing columns and these.
   */
  readonly alsoRequired?: readonly (readonly string[])[];
  parse(header: ExportRecord, rows: readonly ExportRecord[], prices: PriceBook): ExportOutput;
}

/** Fiat currencies: never ledger assets. USD values are exact; others cannot be valued (no FX rates). */
export const FIAT = new Set(['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'JPY', 'CHF', 'SGD', 'AED', 'NZD', 'HKD']);

/** How much of a file the header search reads: its preamble and header are far shorter. */
const HEAD_CHARACTERS = 64 * 1024;

/** Records with their starting lines (RFC 4180 through csv-parse; byte-order mark and blank lines skipped). */
export function exportRecords(text: string, toLine?: number): ExportRecord[] {
  const parsed = parse(toLine === undefined ? text : text.slice(0, HEAD_CHARACTERS), {
    ...(toLine === undefined ? {} : { to_line: toLine }),
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    raw: true,
    info: true,
  }) as unknown as { record: string[]; raw: string; info: { lines: number } }[];
  return parsed
    .filter(({ record }) => record.some((field) => field.trim() !== ''))
    .map(({ record, raw, info }) => {
      const breaks = (raw.replace(/(\r\n|\r|\n)$/, '').match(/\r\n|\r|\n/g) ?? []).length;
      return { line: info.lines - breaks, fields: record.map((field) => field.trim()) };
    });
}

/** A row's fields by column name (the header's names, compared case-insensitively). */
export class ExportRow {
  constructor(
    readonly record: ExportRecord,
    private readonly columns: ReadonlyMap<string, number>,
    private readonly errors: ExportRowError[],
  ) {}

  get line(): number {
    return this.record.line;
  }

  has(column: string): boolean {
    return this.columns.has(column.toLowerCase());
  }

  /** The trimmed text of a column; '' when the column is absent or the row is short. */
  text(column: string): string {
    const index = this.columns.get(column.toLowerCase());
    return index === undefined ? '' : (this.record.fields[index] ?? '');
  }

  fail(column: string, message: string): void {
    this.errors.push({ line: this.line, field: column, message: `"${column}" ${message}` });
  }

  /**
   * A number of the export, read by readNumber with the column's own currency sign or unit (a
   * Gemini `BTC Amount BTC` column writes `(0.02 BTC)`, a Coinbase price `$101.50`). Null (and
   * an error naming the line and the column) when it is not one: nothing is guessed.
   */
  decimal(column: string, options: { optional?: boolean } & NumberAffixes = {}): Decimal | null {
    const raw = this.text(column);
    if (raw === '') {
      if (options.optional) return new ExactDecimal(0);
      this.fail(column, 'is empty; a number is required');
      return null;
    }
    const value = readNumber(raw, options);
    if (value === null) this.fail(column, `must be a number (got "${raw}")${numberHint(raw, options)}`);
    return value;
  }
}

/** What a column may write around its digits: a currency sign before, or a unit after one space. */
export interface NumberAffixes {
  /** E.g. `$`: `$1,234.50`, `-$5`, `($7.70)`. */
  readonly currencySign?: string;
  /** E.g. `BTC`: `0.05 BTC`, `(0.02 BTC)`. */
  readonly unit?: string;
}

/** Digits with thousands separators only in well-formed groups (`1,234,567`), or plain digits. */
const MAGNITUDE = String.raw`(?:[1-9]\d{0,2}(?:,\d{3})+|\d+)(?:\.\d+)?`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NUMBER_SHAPES = new Map<string, RegExp>();

/** The shape of a number with these affixes (compiled once per pair). */
function numberShape({ currencySign, unit }: NumberAffixes): RegExp {
  const key = `${currencySign ?? ''}\u0000${unit ?? ''}`;
  let shape = NUMBER_SHAPES.get(key);
  if (!shape) {
    const bodies = [`${currencySign ? `(?:${escape(currencySign)})?` : ''}(${MAGNITUDE})`];
    if (unit) bodies.push(`(${MAGNITUDE}) ${escape(unit)}`);
    const body = bodies.length === 1 ? bodies[0] : `(?:${bodies.join('|')})`;
    shape = new RegExp(`^(?:(-)?${body}|\\(${body}\\))$`);
    NUMBER_SHAPES.set(key, shape);
  }
  return shape;
}

/**
 * The one number reader of every export layout (docs/sources.md, "Numbers"): exact, and strict.
 *
 *   number    = ["-"] body | "(" body ")"          (parentheses: a negative)
 *   body      = [currencySign] magnitude | magnitude " " unit
 *   magnitude = (digits | lead ("," 3 digits)+) ["." digits]     lead: 1-9 and at most two digits
 *
 * Anything else is null: a decimal comma (`-0,015`), a letter among the digits (`0.01O5`), an
 * exponent, a sign in the wrong place, a unit or currency sign the column does not write. The
 * value is exact however many digits it has (decimal.js does not round on construction).
 */
export function readNumber(raw: string, affixes: NumberAffixes = {}): Decimal | null {
  const match = numberShape(affixes).exec(raw);
  if (!match) return null;
  const [, minus, ...magnitudes] = match;
  const magnitude = magnitudes.find((m) => m !== undefined)!;
  const parenthesised = raw.startsWith('(');
  const value = new ExactDecimal(magnitude.replaceAll(',', ''));
  return minus || parenthesised ? value.negated() : value;
}

/** A hint for the two misreadings a person would not spot: a decimal comma, a letter for a digit. */
function numberHint(raw: string, affixes: NumberAffixes): string {
  if (/^[-(]?[$€£]?\d+,\d+\)?$/.test(raw) && readNumber(raw, affixes) === null)
    return '; a comma separates thousands only (1,234.5), the decimal separator is a point';
  if (/\d[A-Za-z]+\d/.test(raw)) return '; a letter among the digits is not a number';
  return '';
}

/** Text of an exact decimal as the ledger stores it. */
export function decimalText(value: Decimal): string {
  return canonicalDecimal(value);
}

/** Digits kept after the point when a unit price is derived by division (docs/sources.md). */
export const DERIVED_PRICE_DECIMALS = 20;

/** USD per unit from a USD value and a quantity > 0: exact when it terminates, else 20 decimals. */
export function unitPrice(valueUsd: Decimal, quantity: Decimal): Decimal {
  return valueUsd.div(quantity).toDecimalPlaces(DERIVED_PRICE_DECIMALS, ExactDecimal.ROUND_HALF_UP);
}

/** A stable id for a row without one of its own: a hash of its fields, numbered when repeated. */
export function rowId(prefix: string, record: ExportRecord, seen: Map<string, number>): string {
  const hash = createHash('sha256').update(record.fields.join('\u0001')).digest('hex').slice(0, 20);
  const count = (seen.get(hash) ?? 0) + 1;
  seen.set(hash, count);
  return count === 1 ? `${prefix}-${hash}` : `${prefix}-${hash}-${count}`;
}

/** Reads each data row through the format's columns. */
export function rowsOf(
  header: ExportRecord,
  rows: readonly ExportRecord[],
  errors: ExportRowError[],
): ExportRow[] {
  const columns = new Map<string, number>();
  header.fields.forEach((name, index) => {
    if (!columns.has(name.toLowerCase())) columns.set(name.toLowerCase(), index);
  });
  return rows.map((record) => new ExportRow(record, columns, errors));
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const SPACE_UTC = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(?: ?(?:UTC|Z|\+00:?00))?$/;

/**
 * A UTC instant from an export's timestamp: ISO 8601 with an offset, or `YYYY-MM-DD HH:MM[:SS[.fff]]`
 * with an optional `UTC` (the exchanges' exports are in UTC). Invalid dates (hour 24, Feb 30) fail.
 */
export function readTimestamp(row: ExportRow, column: string, raw = row.text(column)): Date | null {
  let iso: string | null = null;
  if (ISO_WITH_OFFSET.test(raw)) iso = raw;
  else {
    const match = SPACE_UTC.exec(raw);
    if (match) iso = `${match[1]}T${match[2]}Z`;
  }
  const date = iso === null ? null : new Date(iso);
  if (!date || Number.isNaN(date.getTime()) || !sameCalendar(iso!, date)) {
    row.fail(column, `must be a UTC date and time such as 2024-01-02 03:04:05 (got "${raw}")`);
    return null;
  }
  return date;
}

/** JavaScript rolls Feb 30 over to Mar 1 and 24:00 to the next day; the text must name a real time. */
function sameCalendar(iso: string, date: Date): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(.*)$/.exec(iso);
  if (!match) return false;
  const [, year, month, day, hour, minute, second = '00'] = match;
  if (+hour > 23 || +minute > 59 || +second > 59 || +month < 1 || +month > 12 || +day < 1) return false;
  // The calendar day must exist (whatever the offset): 2024-02-30 rolls over, so it is refused.
  const calendar = new Date(Date.UTC(+year, +month - 1, +day));
  return !Number.isNaN(date.getTime()) && calendar.getUTCDate() === +day;
}

export function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** One side of a trade: what left or entered the account, and the fee charged in that asset. */
export interface TradeSide {
  readonly symbol: string;
  /** > 0 */
  readonly amount: Decimal;
  /** >= 0, in `symbol`. */
  readonly fee: Decimal;
}

export interface Trade {
  readonly row: ExportRow;
  /** The column errors of valuing the trade are reported against. */
  readonly column: string;
  readonly id: string;
  readonly occurredAt: Date;
  readonly paid: TradeSide;
  readonly received: TradeSide;
}

/**
 * A trade as ledger legs (docs/sources.md, "Trades"). Its USD value V: the USD side when one side is
 * USD, else the paid side at the stored daily USD price of its asset, else the received side at its
 * own. A crypto paid side is a `sell` of amount + fee at V / amount with the fee's value as `fee`; a
 * crypto received side is a `buy` of amount − fee at V / amount with the fee's value as `fee`; a USD
 * fee goes to the crypto leg. Non-USD fiat cannot be valued: the row is refused.
 */
export function tradeLegs(trade: Trade, prices: PriceBook): SourceTransaction[] | null {
  const { row, column, paid, received } = trade;
  const date = utcDate(trade.occurredAt);
  for (const side of [paid, received]) {
    if (FIAT.has(side.symbol) && side.symbol !== 'USD') {
      row.fail(
        column,
        `is quoted in ${side.symbol}: only USD-quoted trades or trades between two crypto assets can be valued (the service stores no ${side.symbol} exchange rates)`,
      );
      return null;
    }
  }
  if (paid.symbol === received.symbol) {
    row.fail(column, `pays and receives the same asset (${paid.symbol})`);
    return null;
  }
  let value: Decimal;
  if (paid.symbol === 'USD') value = paid.amount;
  else if (received.symbol === 'USD') value = received.amount;
  else {
    const paidPrice = prices.usdOn(paid.symbol, date);
    const receivedPrice = prices.usdOn(received.symbol, date);
    if (paidPrice !== null) value = paid.amount.times(paidPrice);
    else if (receivedPrice !== null) value = received.amount.times(receivedPrice);
    else {
      row.fail(
        column,
        `trades ${paid.symbol} for ${received.symbol}: no stored USD price for either on ${date}, so the trade cannot be valued`,
      );
      return null;
    }
  }
  const legs: SourceTransaction[] = [];
  const both = paid.symbol !== 'USD' && received.symbol !== 'USD';
  const idOf = (symbol: string) => (both ? `${trade.id}:${symbol}` : trade.id);
  if (paid.symbol !== 'USD') {
    const price = unitPrice(value, paid.amount);
    const fee = paid.fee.times(price).plus(received.symbol === 'USD' ? received.fee : 0);
    legs.push({
      transactionId: idOf(paid.symbol),
      symbol: paid.symbol,
      direction: 'sell',
      amount: decimalText(paid.amount.plus(paid.fee)),
      priceUsd: decimalText(price),
      feeUsd: fee.isZero() ? null : decimalText(fee),
      occurredAt: trade.occurredAt,
      transferId: null,
    });
  }
  if (received.symbol !== 'USD') {
    const net = received.amount.minus(received.fee);
    if (net.lte(0)) {
      row.fail(
        column,
        `receives ${decimalText(received.amount)} ${received.symbol} but pays a larger fee in it`,
      );
      return null;
    }
    const price = unitPrice(value, received.amount);
    const fee = received.fee.times(price).plus(paid.symbol === 'USD' ? paid.fee : 0);
    legs.push({
      transactionId: idOf(received.symbol),
      symbol: received.symbol,
      direction: 'buy',
      amount: decimalText(net),
      priceUsd: decimalText(price),
      feeUsd: fee.isZero() ? null : decimalText(fee),
      occurredAt: trade.occurredAt,
      transferId: null,
    });
  }
  return legs;
}

/** A leg priced at the stored daily USD price (income, fees paid in an asset); null and an error when none. */
export function storedPriceLeg(
  row: ExportRow,
  column: string,
  prices: PriceBook,
  leg: Omit<SourceTransaction, 'priceUsd' | 'feeUsd' | 'transferId'>,
): SourceTransaction | null {
  const date = utcDate(leg.occurredAt);
  const price = prices.usdOn(leg.symbol, date);
  if (price === null) {
    row.fail(
      column,
      `needs a USD price of ${leg.symbol} on ${date} for its ${leg.direction} and the market store has none`,
    );
    return null;
  }
  return { ...leg, priceUsd: canonicalDecimal(price), feeUsd: null, transferId: null };
}

/** Skips what a format says to skip, keeps the legs with their line. */
export function collect(
  output: ExportOutput,
  row: ExportRow,
  legs: SourceTransaction[] | SourceTransaction | null,
): void {
  if (legs === null) return;
  for (const tx of Array.isArray(legs) ? legs : [legs]) output.legs.push({ line: row.line, tx });
}
