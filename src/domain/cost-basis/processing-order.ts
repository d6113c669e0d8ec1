import type { Direction, LedgerEntry } from './cost-basis.types.js';

/**
 * The one order in which the engine applies ledger entries (docs/cost-basis.md):
 *   1. timestamp, ascending;
 *   2. at equal timestamps, a transfer_in after every other direction, so the transfer_out
 *      it is matched with has already moved its lots;
 *   3. accountId, byte order;
 *   4. transactionId, byte order;
 *   5. symbol, byte order (the legs of one trade share a transactionId);
 *   6. acquisitions (buy, income, deposit) before disposals, so a same-instant buy can cover a sale;
 *   7. the position in the input (Array#sort is stable).
 * Steps 5-7 only break ties that 1-4 leave, so the result never depends on input order
 * unless two entries are identical in all of these.
 */
export function sortForProcessing(entries: readonly LedgerEntry[]): LedgerEntry[] {
  return [...entries].sort(compareForProcessing);
}

export function compareForProcessing(a: LedgerEntry, b: LedgerEntry): number {
  return (
    a.timestamp.getTime() - b.timestamp.getTime() ||
    transferInLast(a.direction) - transferInLast(b.direction) ||
    compareByteOrder(a.accountId, b.accountId) ||
    compareByteOrder(a.transactionId, b.transactionId) ||
    compareByteOrder(a.symbol, b.symbol) ||
    acquisitionsFirst(a.direction) - acquisitionsFirst(b.direction)
  );
}

function transferInLast(direction: Direction): number {
  return direction === 'transfer_in' ? 1 : 0;
}

const ACQUISITION_RANK: Readonly<Record<Direction, number>> = {
  buy: 0,
  income: 0,
  deposit: 0,
  transfer_in: 0,
  sell: 1,
  fee: 1,
  withdrawal: 1,
  transfer_out: 1,
};

function acquisitionsFirst(direction: Direction): number {
  return ACQUISITION_RANK[direction];
}

/**
 * Orders strings as their UTF-8 bytes would sort (what Postgres `COLLATE "C"` and the
 * integrity checksum use). UTF-8 byte order equals code-point order, which differs from
 * JavaScript's UTF-16 `<` only for characters above U+FFFF.
 */
export function compareByteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const ca = a.codePointAt(i) ?? 0;
    const cb = b.codePointAt(i) ?? 0;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++; // both sides hold the same surrogate pair
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}
