/**
 * Auto-pagination over every cursor list of the API. Which operations page, which array of the
 * page holds the items and which field the next cursor is in come from the document
 * (src/generated/operations.ts), so a list added to the API is iterable after `sdk:generate`.
 */
import type { Client } from 'openapi-fetch';
import { unwrap, type ResultOf } from './errors.js';
import type { paths } from './generated/openapi.js';
import { CURSOR_LISTS } from './generated/operations.js';

/** A path of the document whose operation pages with `cursor`, e.g. `'/v1/api/accounts'`. */
export type ListPath = keyof typeof CURSOR_LISTS;
type ListSpec<P extends ListPath> = (typeof CURSOR_LISTS)[P];
type ListOperation<P extends ListPath> = paths[P][ListSpec<P>['method']];
type Parameters<P extends ListPath> = ListOperation<P> extends { parameters: infer T } ? T : never;
type QueryOf<P extends ListPath> = Parameters<P> extends { query?: infer Q } ? NonNullable<Q> : never;
type PathOf<P extends ListPath> = Parameters<P> extends { path?: infer T } ? T : never;
type BodyOf<P extends ListPath> =
  ListOperation<P> extends { requestBody?: { content: infer C } } ? C[keyof C] : never;

/** One page of a list (the envelope's `result` under /v1/api). */
export type ListPage<P extends ListPath> =
  ListOperation<P> extends { responses: { 200: { content: { 'application/json': infer Body } } } }
    ? ResultOf<Body>
    : never;

/** One item of a list; `never` for the lists that are iterated by page only. */
export type ListItem<P extends ListPath> = ListSpec<P>['items'] extends infer Key extends string
  ? ListPage<P> extends { [K in Key]?: readonly (infer Item)[] | null }
    ? Item
    : never
  : never;

/** What a list takes: its path parameters (when it has any), its query without `cursor`, a body. */
export type ListParams<P extends ListPath> = ([PathOf<P>] extends [never | undefined]
  ? { path?: undefined }
  : { path: PathOf<P> }) & {
  query?: Omit<QueryOf<P>, 'cursor'>;
  body?: BodyOf<P>;
};

/**
 * The items of every page, in order, fetched one page at a time as the loop asks for them:
 *
 *     for await (const account of api.paginate('/v1/api/accounts', { query: { limit: 200 } })) { … }
 *
 * `pages()` gives the pages themselves (with their other fields: totals, counts), `toArray()`
 * collects every item. Each page is `unwrap`ped: an error answer throws ApiError mid-iteration.
 */
export interface Paginated<Item, Page> extends AsyncIterable<Item> {
  pages(): AsyncIterableIterator<Page>;
  toArray(): Promise<Item[]>;
}

/** Pages of `path` from `client`, following the next cursor until it is null. */
export function paginate<P extends ListPath>(
  client: Client<paths>,
  path: P,
  params?: ListParams<P>,
): Paginated<ListItem<P>, ListPage<P>> {
  const spec = CURSOR_LISTS[path];
  async function* pages(): AsyncIterableIterator<ListPage<P>> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const init = {
        params: { path: params?.path, query: { ...params?.query, cursor } },
        ...(params?.body === undefined ? {} : { body: params.body }),
      };
      // The generic openapi-fetch call, typed per path by ListParams and ListPage above.
      const page = (await unwrap(
        (client.request as (method: string, path: string, init: object) => Promise<{ response: Response }>)(
          spec.method,
          path,
          init,
        ),
      )) as ListPage<P>;
      yield page;
      const next = (page as Record<string, unknown>)[spec.next];
      cursor = typeof next === 'string' && next !== '' ? next : undefined;
      if (cursor !== undefined && seen.has(cursor))
        throw new Error(`${path}: the cursor ${cursor} came twice`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
  }
  async function* items(): AsyncIterableIterator<ListItem<P>> {
    if (spec.items === null) throw new TypeError(`${path} pages several lists at once: iterate its pages()`);
    for await (const page of pages()) {
      yield* ((page as Record<string, unknown>)[spec.items] ?? []) as ListItem<P>[];
    }
  }
  return {
    [Symbol.asyncIterator]: items,
    pages,
    async toArray() {
      const all: ListItem<P>[] = [];
      for await (const item of items()) all.push(item);
      return all;
    },
  };
}
