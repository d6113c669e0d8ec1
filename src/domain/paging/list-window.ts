/**
 * Which items of an in-memory list a page holds (common/pagination/list-page.ts owns the cursors
 * and the answers): `limit` items right after the item a cursor names, found at its position or,
 * if the list moved, by its key. Pure, so a worker thread can cut the page where the list was
 * made and send back only the page.
 */

/** After the item at index `n - 1`, whose key is `k`. */
export interface ListPosition {
  readonly n: number;
  readonly k: string;
}

export interface ListWindow<T> {
  readonly items: T[];
  /** Index after the page's last item: the next page's position. */
  readonly end: number;
  /** The page's last item's key; null for an empty page. */
  readonly lastKey: string | null;
  /** Items in the whole list. */
  readonly total: number;
}

/** The page after `after` (from the start when null); null when the cursor's item is gone from the list. */
export function listWindow<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  limit: number,
  after: ListPosition | null,
): ListWindow<T> | null {
  const start = after === null ? 0 : resumeAt(items, keyOf, after);
  if (start === null) return null;
  const page = items.slice(start, start + limit);
  return {
    items: page,
    end: start + page.length,
    lastKey: page.length > 0 ? keyOf(page[page.length - 1]!) : null,
    total: items.length,
  };
}

function resumeAt<T>(items: readonly T[], keyOf: (item: T) => string, after: ListPosition): number | null {
  if (after.n <= items.length && keyOf(items[after.n - 1]!) === after.k) return after.n;
  const moved = items.findIndex((item) => keyOf(item) === after.k);
  return moved >= 0 ? moved + 1 : null;
}
