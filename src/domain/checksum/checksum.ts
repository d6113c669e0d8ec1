/**
 * The integrity checksum partners recompute on their own copy (design §6, docs/checksum.md).
 *
 * Owns: the line format, decimal and timestamp canonicalisation, the row order and the
 * hashing. Never: queries, filters or tenancy — the caller streams the already filtered
 * rows of one tenant in (accountId, transactionId) byte order (in SQL: ORDER BY
 * "accountId" COLLATE "C", "transactionId" COLLATE "C"). Any change to this file changes
 * every partner's checksum; scripts/verify-checksum.mjs must stay in step with it.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { canonicalDecimal } from '../money/format.js';

export interface ChecksumRow {
  readonly accountId: string;
  readonly transactionId: string;
  readonly symbol: string;
  readonly direction: string;
  readonly amount: Decimal | string;
  /** A transaction without a price (e.g. a transfer) contributes an empty field. */
  readonly price: Decimal | string | null;
  /** A Date, or ISO 8601 text with an explicit offset ("Z" or "+hh:mm"). */
  readonly timestamp: Date | string;
}

/**
 * A line already in the hashed form (checksumLine's text without its line feed), with the key
 * it is ordered by: what a database that writes the canonical fields itself hands over.
 */
export interface ChecksumLine {
  readonly accountId: string;
  readonly transactionId: string;
  readonly line: string;
}

export interface ChecksumResult {
  /** SHA-256 of all lines, lower-case hex. */
  readonly checksum: string;
  readonly rowCount: number;
}

export enum ChecksumErrorCode {
  RowsOutOfOrder = 'CHECKSUM_ROWS_OUT_OF_ORDER',
  InvalidTimestamp = 'CHECKSUM_INVALID_TIMESTAMP',
  AlreadyDigested = 'CHECKSUM_ALREADY_DIGESTED',
}

export class ChecksumError extends Error {
  constructor(
    readonly code: ChecksumErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ChecksumError';
  }
}

/** SHA-256 of the empty input: the checksum of a filter that covers no rows. */
export const EMPTY_CHECKSUM = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * Compares two strings by their UTF-8 bytes, as Postgres does under COLLATE "C".
 * UTF-8 byte order equals Unicode code point order; JavaScript's `<` compares UTF-16
 * code units instead, which differs for characters above U+FFFF versus U+E000–U+FFFF.
 */
export function compareByteOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const unitA = a.charCodeAt(i);
    const unitB = b.charCodeAt(i);
    if (unitA === unitB) continue;
    const pointA = a.codePointAt(i) ?? unitA;
    const pointB = b.codePointAt(i) ?? unitB;
    // Equal leading units up to here, so both sides start a character at i.
    return pointA < pointB ? -1 : pointA > pointB ? 1 : 0;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** The order the checksum is defined over: accountId, then transactionId, both by bytes. */
export function compareChecksumRows(
  a: Pick<ChecksumRow, 'accountId' | 'transactionId'>,
  b: Pick<ChecksumRow, 'accountId' | 'transactionId'>,
): number {
  // Consecutive rows mostly share their account: one native comparison instead of 36 in a loop.
  return a.accountId === b.accountId
    ? compareByteOrder(a.transactionId, b.transactionId)
    : compareByteOrder(a.accountId, b.accountId);
}

const ISO_WITH_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * ISO 8601 UTC with exactly three fractional digits: "2024-01-02T03:04:05.000Z".
 * Finer fractions (Postgres keeps microseconds) are truncated, not rounded.
 */
export function canonicalTimestamp(timestamp: Date | string): string {
  let date: Date;
  if (typeof timestamp === 'string') {
    const match = ISO_WITH_OFFSET.exec(timestamp);
    if (!match) throw invalidTimestamp(timestamp);
    const [, dateTime, fraction = '', offset] = match;
    if (!isCalendarDateTime(dateTime)) throw invalidTimestamp(timestamp);
    const milliseconds = fraction.padEnd(3, '0').slice(0, 3);
    const zone = offset.toUpperCase() === 'Z' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
    date = new Date(`${dateTime}.${milliseconds}${zone}`);
  } else {
    date = timestamp;
  }
  if (Number.isNaN(date.getTime())) throw invalidTimestamp(String(timestamp));
  return date.toISOString();
}

/**
 * Date parsing rolls 2024-02-30 over to March and accepts T24:00:00 as the next midnight; a
 * checksum input must do neither (hour 24 is refused like second 60).
 */
function isCalendarDateTime(dateTime: string): boolean {
  const [year, month, day] = dateTime.slice(0, 10).split('-').map(Number);
  const [hour, minute, second] = dateTime.slice(11).split(':').map(Number);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= new Date(Date.UTC(year, month, 0)).getUTCDate() &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

function invalidTimestamp(text: string): ChecksumError {
  return new ChecksumError(
    ChecksumErrorCode.InvalidTimestamp,
    `Timestamp must be ISO 8601 with an explicit offset: ${JSON.stringify(text)}`,
  );
}

/** One line of the hashed text, newline included. Fields are written as they are, unescaped. */
export function checksumLine(row: ChecksumRow): string {
  const price = row.price === null ? '' : canonicalDecimal(row.price);
  return (
    [
      row.accountId,
      row.transactionId,
      row.symbol,
      row.direction,
      canonicalDecimal(row.amount),
      price,
      canonicalTimestamp(row.timestamp),
    ].join('|') + '\n'
  );
}

/**
 * Streams rows into the hash: memory stays flat whatever the row count, because only
 * the previous row's key is kept (to reject rows that arrive out of order, which
 * would silently give a checksum no partner can reproduce).
 */
export class ChecksumAccumulator {
  private readonly hash: Hash = createHash('sha256');
  private rowCount = 0;
  private previousKey: Pick<ChecksumRow, 'accountId' | 'transactionId'> | null = null;
  private result: ChecksumResult | null = null;

  add(row: ChecksumRow): this {
    if (this.result) {
      throw new ChecksumError(ChecksumErrorCode.AlreadyDigested, 'Cannot add rows after digest()');
    }
    checkOrder(this.previousKey, row);
    this.hash.update(checksumLine(row), 'utf8');
    this.previousKey = { accountId: row.accountId, transactionId: row.transactionId };
    this.rowCount++;
    return this;
  }

  /**
   * Adds lines already written in the canonical form (see ChecksumLine), with the same order
   * check as add(): the hash is the same as add() of the rows they were written from. One hash
   * update per batch instead of one per row.
   */
  addLines(lines: readonly ChecksumLine[]): this {
    if (this.result) {
      throw new ChecksumError(ChecksumErrorCode.AlreadyDigested, 'Cannot add rows after digest()');
    }
    if (lines.length === 0) return this;
    let previous = this.previousKey;
    for (const line of lines) {
      checkOrder(previous, line);
      previous = line;
    }
    const last = lines[lines.length - 1];
    this.previousKey = { accountId: last.accountId, transactionId: last.transactionId };
    let text = '';
    for (const line of lines) text += line.line + '\n';
    this.hash.update(text, 'utf8');
    this.rowCount += lines.length;
    return this;
  }

  /** Finishes the hash; later calls return the same result. */
  digest(): ChecksumResult {
    this.result ??= { checksum: this.hash.digest('hex'), rowCount: this.rowCount };
    return this.result;
  }
}

type ChecksumKey = Pick<ChecksumRow, 'accountId' | 'transactionId'>;

function checkOrder(previous: ChecksumKey | null, row: ChecksumKey): void {
  if (previous && compareChecksumRows(previous, row) >= 0) {
    throw new ChecksumError(
      ChecksumErrorCode.RowsOutOfOrder,
      `Rows must arrive in strictly increasing (accountId, transactionId) byte order: ` +
        `${JSON.stringify([row.accountId, row.transactionId])} came after ` +
        `${JSON.stringify([previous.accountId, previous.transactionId])}`,
    );
  }
}
