import { DomainError } from '../errors/domain-error.js';
import type { CursorCodec } from './cursor-codec.js';

/**
 * Pages of a list the service makes in memory on each request from the whole history (the
 * cost-basis engine's open lots, harvesting candidates, the safe-harbor allocation's lots; issue 27
 * item 10), so an answer is bounded however long the history: `limit` items (default 100, at most
 * 1,000) after the `cursor`, and the cursor of the next page (null on the last). Figures summed
 * over the list (totals) are the caller's, over the whole list, whatever the page.
 *
 * The cursor is the CursorCodec's (opaque, signed over the tenant and a purpose that names the
 * request's parameters, so a cursor altered, of another tenant or of another query is a 400
 * naming `cursor`). It holds the key of the last item served and its position: the next page
 * starts right after that item, found at its position or, if the list moved (a refresh between
 * two pages added or removed items before it), by its key. An item that is no longer in the list
 * (a sale consumed the lot) leaves no honest place to resume: 400 naming `cursor`, start again.
 */
export const DEFAULT_LIST_PAGE = 100;
export const MAX_LIST_PAGE = 1_000;

/** After the item at index `n - 1`, whose key is `k`. */
export interface ListPosition {
  readonly n: number;
  readonly k: string;
}

export interface ListPage<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

const isListPosition = (value: unknown): value is ListPosition =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as ListPosition).n) &&
  (value as ListPosition).n >= 1 &&
  typeof (value as ListPosition).k === 'string';

/**
 * The position a cursor names, checked before the list is made (a tampered cursor costs no
 * computation); null without one.
 */
export async function decodeListCursor(
  cursors: CursorCodec,
  tenantId: string,
  purpose: string,
  cursor: string | undefined,
): Promise<ListPosition | null> {
  return cursor === undefined ? null : cursors.decode(tenantId, purpose, cursor, isListPosition);
}

/** The page of `items` after `after` (from the start when null), and the next page's cursor. */
export async function pageOfList<T>(
  cursors: CursorCodec,
  tenantId: string,
  purpose: string,
  items: readonly T[],
  keyOf: (item: T) => string,
  limit: number,
  after: ListPosition | null,
): Promise<ListPage<T>> {
  const start = after === null ? 0 : resumeAt(items, keyOf, after);
  const page = items.slice(start, start + limit);
  const end = start + page.length;
  return {
    items: page,
    nextCursor:
      end < items.length && page.length > 0
        ? await cursors.encode(tenantId, purpose, { n: end, k: keyOf(page[page.length - 1]!) })
        : null,
  };
}

function resumeAt<T>(items: readonly T[], keyOf: (item: T) => string, after: ListPosition): number {
  if (after.n <= items.length && keyOf(items[after.n - 1]!) === after.k) return after.n;
  const moved = items.findIndex((item) => keyOf(item) === after.k);
  if (moved >= 0) return moved + 1;
  throw DomainError.validation(
    'cursor',
    'The list changed since this cursor was issued (its last item is gone); start again without it.',
  );
}

/** The purpose of a list's cursors: the list and the parameters that shape it (JSON: unambiguous). */
export function listCursorPurpose(list: string, parameters: readonly (string | null | undefined)[]): string {
  return `${list}:${JSON.stringify(parameters.map((value) => value ?? null))}`;
}
