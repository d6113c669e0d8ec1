import type { HoldingTerm } from './cost-basis.types.js';

/**
 * Long-term means held MORE than one year, counting from the day after acquisition
 * (IRS Pub. 544): compared on UTC calendar dates, a disposal is long-term iff its date is
 * after the acquisition's one-year anniversary. Bought 2023-03-01: sold 2024-03-01 is
 * short, 2024-03-02 long. Time of day never matters.
 *
 * A Feb 29 acquisition has no anniversary in a common year; it is taken as Feb 28, the
 * last day of the year that started counting on Mar 1. So bought 2024-02-29: sold
 * 2025-02-28 is short, 2025-03-01 long. This is the same date Postgres gives for
 * `date '2024-02-29' + interval '1 year'`.
 */
export function holdingTerm(acquiredAt: Date, disposedAt: Date): HoldingTerm {
  return utcDateKey(disposedAt) > oneYearAnniversaryKey(acquiredAt) ? 'long' : 'short';
}

/**
 * The first UTC calendar date on which a disposal of a lot acquired at `acquiredAt` is long-term
 * (the day after the one-year anniversary, by the rule above), as YYYY-MM-DD. Bought 2023-03-01:
 * 2024-03-02; bought 2024-02-29: 2025-03-01.
 */
export function longTermFrom(acquiredAt: Date): string {
  const key = oneYearAnniversaryKey(acquiredAt);
  const anniversary = Date.UTC(Math.floor(key / 10_000), (Math.floor(key / 100) % 100) - 1, key % 100);
  return new Date(anniversary + 86_400_000).toISOString().slice(0, 10);
}

function oneYearAnniversaryKey(acquiredAt: Date): number {
  const year = acquiredAt.getUTCFullYear() + 1;
  const month = acquiredAt.getUTCMonth() + 1;
  let day = acquiredAt.getUTCDate();
  if (month === 2 && day === 29 && !isLeapYear(year)) day = 28;
  return dateKey(year, month, day);
}

function utcDateKey(date: Date): number {
  return dateKey(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** yyyymmdd as one integer, so calendar dates compare with `>`. */
function dateKey(year: number, month: number, day: number): number {
  return year * 10_000 + month * 100 + day;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
