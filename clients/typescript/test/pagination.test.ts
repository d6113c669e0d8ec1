/** Auto-pagination over the cursor lists, with a fake service that pages by `limit` and `cursor`. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, CURSOR_LISTS, createServiceClient, type Schema } from '../src/index.js';
import { clientOptions, envelope, fakeService, json, type Seen } from './fake-service.js';

/** Pages `all` under `key` as the service does: `limit` after the opaque cursor (an index here). */
function pager(
  all: unknown[],
  key: string,
  next = 'nextCursor',
  wrap: (result: Record<string, unknown>) => Response = envelope,
) {
  return (seen: Seen) => {
    const limit = Number(seen.url.searchParams.get('limit') ?? 2);
    const from = Number(seen.url.searchParams.get('cursor') ?? 0);
    const to = from + limit;
    return wrap({ [key]: all.slice(from, to), [next]: to < all.length ? String(to) : null });
  };
}

const accounts = Array.from({ length: 5 }, (_, i) => ({ accountId: `a${i}`, identity: `h/${i}` }));

describe('auto-pagination', () => {
  it('iterates every account over three pages, sending limit and each next cursor', async () => {
    const { fetch, seen } = fakeService(pager(accounts, 'accounts'));
    const api = createServiceClient(clientOptions(fetch));
    const ids: string[] = [];
    for await (const account of api.accounts.list({ limit: 2 })) ids.push(account.accountId);
    assert.deepEqual(ids, ['a0', 'a1', 'a2', 'a3', 'a4']);
    assert.deepEqual(
      seen.map((s) => s.url.search),
      ['?limit=2', '?limit=2&cursor=2', '?limit=2&cursor=4'],
    );
  });

  it('fetches a page only when the loop asks for it', async () => {
    const { fetch, seen } = fakeService(pager(accounts, 'accounts'));
    const api = createServiceClient(clientOptions(fetch));
    for await (const account of api.accounts.list({ limit: 2 })) {
      if (account.accountId === 'a1') break;
    }
    assert.equal(seen.length, 1);
  });

  it('fills path parameters and keeps the query on every page; pages() gives whole pages', async () => {
    const transactions = Array.from({ length: 3 }, (_, i) => ({ transactionId: `t${i}` }));
    const { fetch, seen } = fakeService(pager(transactions, 'transactions'));
    const api = createServiceClient(clientOptions(fetch));
    const pages: Schema<'TransactionsResultDto'>[] = [];
    for await (const page of api.accounts.transactions('acc-1', { limit: 2, from: '2024-01-01' }).pages()) {
      pages.push(page);
    }
    assert.deepEqual(
      pages.map((p) => p.transactions.length),
      [2, 1],
    );
    assert.ok(seen.every((s) => s.url.pathname === '/v1/api/account/acc-1/transactions'));
    assert.ok(seen.every((s) => s.url.searchParams.get('from') === '2024-01-01'));
  });

  it('reads next_cursor and a body that is not an envelope (/taip, /qeychain)', async () => {
    const lots = Array.from({ length: 3 }, (_, i) => ({ lot_id: `l${i}` }));
    const { fetch } = fakeService(
      pager(lots, 'lots', 'next_cursor', (body) => json(200, { totals: [], ...body })),
    );
    const api = createServiceClient(clientOptions(fetch));
    const all = await api.paginate('/taip/lots', { query: { limit: 2 } }).toArray();
    assert.deepEqual(
      all.map((lot) => (lot as { lot_id: string }).lot_id),
      ['l0', 'l1', 'l2'],
    );
  });

  it('throws the ApiError of a page that fails, after the items before it', async () => {
    const { fetch } = fakeService((seen) =>
      seen.url.searchParams.get('cursor')
        ? json(404, { title: 'Not Found', status: 404 })
        : pager(accounts, 'accounts')(seen),
    );
    const api = createServiceClient(clientOptions(fetch));
    const ids: string[] = [];
    await assert.rejects(async () => {
      for await (const account of api.accounts.list({ limit: 2 })) ids.push(account.accountId);
    }, ApiError);
    assert.deepEqual(ids, ['a0', 'a1']);
  });

  it('stops on a cursor that comes back (a service bug would otherwise loop forever)', async () => {
    const { fetch } = fakeService(() => envelope({ accounts: [accounts[0]], nextCursor: 'same' }));
    const api = createServiceClient(clientOptions(fetch));
    await assert.rejects(api.accounts.list().toArray(), /came twice/);
  });

  it('iterates the reconciliation by page only (it pages four lists at once)', async () => {
    const { fetch } = fakeService(() => json(200, { matched: [], next_cursor: null }));
    const api = createServiceClient(clientOptions(fetch));
    const list = api.paginate('/taip/form-1099-da/reconciliation', {
      query: { tax_year: 2025 },
      body: 'csv' as never,
    });
    assert.equal((await list.pages().next()).value?.next_cursor, null);
    await assert.rejects(list.toArray(), /iterate its pages/);
  });

  it('knows every cursor list of the document', () => {
    assert.ok(Object.keys(CURSOR_LISTS).length >= 13);
    assert.deepEqual(CURSOR_LISTS['/v1/api/accounts'], {
      method: 'get',
      items: 'accounts',
      next: 'nextCursor',
    });
  });
});
