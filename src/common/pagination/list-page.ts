import { listWindow, type ListPosition, type ListWindow } from '../../domain/paging/list-window.js';
import { DomainError } from '../errors/domain-error.js';
import type { CursorCodec } from './cursor-codec.js';

export type { ListPosition, ListWindow } from '../../domain/paging/list-window.js';

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
  return pageOfWindow(cursors, tenantId, purpose, listWindow(items, keyOf, limit, after));
}

/**
 * The answer for a window cut elsewhere (a worker thread, domain/paging/list-window.ts): its items
 * and the next page's cursor; null (the cursor's item is gone) is a 400 naming `cursor`.
 */
export async function pageOfWindow<T>(
  cursors: CursorCodec,
  tenantId: string,
  purpose: string,
  window: ListWindow<T> | null,
): Promise<ListPage<T>> {
  if (window === null) {
    throw DomainError.validation(
      'cursor',
      'The list changed since this cursor was issued (its last item is gone); start again without it.',
    );
  }
  return {
    items: window.items,
    nextCursor:
      window.end < window.total && window.lastKey !== null
        ? await cursors.encode(tenantId, purpose, { n: window.end, k: window.lastKey })
        : null,
  };
}

/** The purpose of a list's cursors: the list and the parameters that shape it (JSON: unambiguous). */
export function listCursorPurpose(list: string, parameters: readonly (string | null | undefined)[]): string {
  return `${list}:${JSON.stringify(parameters.map((value) => value ?? null))}`;
}
