import { DomainError } from '../../../common/errors/domain-error.js';
import { canonicalTimestamp } from '../../../domain/checksum/checksum.js';
import type { TransactionRange } from '../../ledger/index.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function parseBound(field: 'from' | 'to', text: string): { at: Date; dateOnly: boolean } {
  const bound = parseBoundText(field, text);
  // Year 0 and extended years parse in JavaScript but Postgres rejects them (a 500 the fuzzer found).
  const year = bound.at.getUTCFullYear();
  if (year < 1 || year > 9999)
    throw DomainError.validation(field, `${field} must be between the years 0001 and 9999.`);
  return bound;
}

function parseBoundText(field: 'from' | 'to', text: string): { at: Date; dateOnly: boolean } {
  const date = DATE_ONLY.exec(text);
  if (date) {
    const at = new Date(`${text}T00:00:00.000Z`);
    if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text) throw invalid(field);
    return { at, dateOnly: true };
  }
  try {
    return { at: new Date(canonicalTimestamp(text)), dateOnly: false };
  } catch {
    throw invalid(field);
  }
}

function invalid(field: string): DomainError {
  return DomainError.validation(
    field,
    `${field} must be an ISO 8601 date (2024-01-31) or a timestamp with an offset (2024-01-31T12:00:00Z).`,
  );
}

/**
 * `from` and `to` are inclusive. A date-only `to` covers that whole UTC day (design §5); a
 * timestamp is taken to the millisecond.
 */
export function toTransactionRange(from: string | undefined, to: string | undefined): TransactionRange {
  const start = from === undefined ? null : parseBound('from', from);
  const end = to === undefined ? null : parseBound('to', to);
  const toExclusive = end === null ? null : new Date(end.at.getTime() + (end.dateOnly ? DAY_MS : 1));
  // The range ends just after `to` (the next day for a date): past 9999-12-31 Postgres cannot be
  // sent the bound (JavaScript writes it as "+010000-01-01", a 500 for to=9999-12-31).
  if (toExclusive && toExclusive.getUTCFullYear() > 9999)
    throw DomainError.validation(
      'to',
      'to must end the range within the year 9999: at most 9999-12-30 as a date, or 9999-12-31T23:59:59.998Z.',
    );
  if (start && toExclusive && start.at.getTime() >= toExclusive.getTime())
    throw DomainError.validation('to', 'to must not be before from.');
  return { fromInclusive: start?.at ?? null, toExclusive };
}
