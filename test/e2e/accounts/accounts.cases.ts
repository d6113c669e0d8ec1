/**
 * Partner account endpoints (/v1/api): lookups, list paging, transactions (range, paging),
 * balances (shape, 422 reasons), forceRefresh fresh vs stale with an injected clock, 400/404 and
 * cross-tenant isolation. Runs on PGlite, and on Postgres with DATABASE_URL.
 */
import { ManualClock } from '../../../src/common/clock/clock.js';
import { computeCostBasis } from '../../../src/domain/cost-basis/index.js';
import { LedgerService } from '../../../src/modules/ledger/index.js';
import { SANDBOX_ACCOUNT_FIXTURES } from '../../../src/modules/sources/index.js';
import { BalanceSnapshotsRepository } from '../../../src/modules/ledger/testing.js';
import { sandboxId, sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { Decimal as GlobalDecimal } from 'decimal.js';
import {
  bearer,
  createAccount,
  importCsv,
  csvOf,
  sandboxAccount,
  sourceTx,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const STATE_KEYS = ['syncStatus', 'connectionStatus', 'balanceSource', 'lastSyncedAt'];
const sorted = (keys: string[]) => [...keys].sort();
/** Exact sums (the global Decimal rounds to 20 digits). */
const Decimal = GlobalDecimal.clone({ precision: 1_000 });

describe('accounts (e2e)', () => {
  let t: TestApp;
  let clock: ManualClock;
  let partner: string;
  let partnerB: string;
  let admin: string;
  const coinbase = sandboxAccount('sandbox', 'coinbase-main');
  const coinbaseB = sandboxAccount('sandbox-b', 'coinbase-main');

  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startSuite({}, { clock });
    [partner, partnerB, admin] = await Promise.all([
      t.token(),
      t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
    ]);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));

  /** A 404 body without the per-request fields: identical for unknown and foreign resources. */
  const shapeOf404 = (body: { responseException: { exceptionMessage: Record<string, unknown> } }) => {
    const { traceId: _t, instance: _i, ...rest } = body.responseException.exceptionMessage;
    return { ...body, responseException: { exceptionMessage: rest } };
  };

  describe('GET /v1/api/accounts', () => {
    it('lists the tenant’s dozen sandbox accounts with the four state fields, oldest first', async () => {
      const res = await get('/v1/api/accounts').expect(200);
      expect(res.body).toMatchObject({ isError: false, message: 'OK', statusCode: 200 });
      const { accounts, nextCursor } = res.body.result;
      expect(nextCursor).toBeNull();
      expect(accounts).toHaveLength(SANDBOX_ACCOUNT_FIXTURES.length);
      for (const item of accounts) {
        expect(sorted(Object.keys(item))).toEqual(
          sorted([
            'accountId',
            'collectionId',
            'identity',
            'platform',
            'address',
            'chain',
            'createdOn',
            ...STATE_KEYS,
          ]),
        );
      }
      expect(accounts[0]).toMatchObject({
        accountId: coinbase.accountId,
        identity: 'sandbox:coinbase-main',
        platform: 'coinbase',
      });
      const wallet = accounts.find((a: { identity: string }) => a.identity === 'sandbox:btc-cold-storage');
      expect(wallet).toMatchObject({ chain: 'bitcoin', address: expect.stringMatching(/^bc1q/) });
      const states = new Set(accounts.map((a: { syncStatus: string }) => a.syncStatus));
      expect([...states].sort()).toEqual(['error', 'reconnect_required', 'synced', 'syncing']);
    });

    it('pages with limit and an opaque cursor; nextCursor is null on the last page', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `?limit=5&cursor=${encodeURIComponent(cursor)}` : '?limit=5';
        const res = await get(`/v1/api/accounts${query}`).expect(200);
        seen.push(...res.body.result.accounts.map((a: { accountId: string }) => a.accountId));
        cursor = res.body.result.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      const all = (await get('/v1/api/accounts').expect(200)).body.result.accounts.map(
        (a: { accountId: string }) => a.accountId,
      );
      expect(seen).toEqual(all);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=abc', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['unknown=1', 'unknown'],
    ])('answers %s with 400 naming %s', async (query, field) => {
      const res = await get(`/v1/api/accounts?${query}`).expect(400);
      expect(res.body.responseException.exceptionMessage.errors).toHaveProperty([field]);
    });

    it('rejects a tampered cursor and another tenant’s cursor', async () => {
      const cursor = (await get('/v1/api/accounts?limit=2').expect(200)).body.result.nextCursor as string;
      const [body, mac] = cursor.split('.');
      const forged = Buffer.from(
        JSON.stringify({ c: 0, id: '00000000-0000-0000-0000-000000000000' }),
      ).toString('base64url');
      for (const bad of [`${forged}.${mac}`, `${body}.${mac.slice(0, -2)}AA`, `${body}x.${mac}`]) {
        const res = await get(`/v1/api/accounts?cursor=${encodeURIComponent(bad)}`).expect(400);
        expect(res.body.responseException.exceptionMessage.errors).toHaveProperty(['cursor']);
      }
      await get(`/v1/api/accounts?cursor=${encodeURIComponent(cursor)}`, partnerB).expect(400);
    });

    it('shows tenant B only its own accounts', async () => {
      const res = await get('/v1/api/accounts', partnerB).expect(200);
      const identities = res.body.result.accounts.map((a: { identity: string }) => a.identity);
      expect(identities.every((i: string) => i.startsWith('sandbox-b:'))).toBe(true);
    });
  });

  describe('GET /v1/api/account/collection/{collectionId}', () => {
    it('returns the account of the collection with exactly the spec fields and the four states', async () => {
      const res = await get(`/v1/api/account/collection/${coinbase.collectionId}`).expect(200);
      expect(res.body.result).toEqual({
        accountId: sandboxId('account:sandbox:coinbase-main'),
        collectionId: sandboxId('collection:sandbox:coinbase-main'),
        platform: 'coinbase',
        // Fixtures are spaced a second apart, the last one linked "now".
        createdOn: new Date(START.getTime() - (SANDBOX_ACCOUNT_FIXTURES.length - 1) * 1_000).toISOString(),
        syncStatus: 'synced',
        connectionStatus: 'connected',
        balanceSource: 'source_reported',
        lastSyncedAt: START.toISOString(),
      });
    });

    it('accepts an upper-case UUID', async () => {
      await get(`/v1/api/account/collection/${coinbase.collectionId.toUpperCase()}`).expect(200);
    });

    it('answers a non-UUID with 400 naming collectionId', async () => {
      const res = await get('/v1/api/account/collection/not-a-uuid').expect(400);
      expect(res.body.responseException.exceptionMessage.errors).toEqual({
        collectionId: ['collectionId must be a UUID.'],
      });
    });

    it('answers another tenant’s collection exactly like an unknown one (404)', async () => {
      const foreign = await get(`/v1/api/account/collection/${coinbaseB.collectionId}`).expect(404);
      const unknown = await get('/v1/api/account/collection/00000000-0000-4000-8000-000000000000').expect(
        404,
      );
      expect(shapeOf404(foreign.body)).toEqual(shapeOf404(unknown.body));
      expect(foreign.body).toMatchObject({ isError: true, statusCode: 404, result: null });
    });
  });

  describe('GET /v1/api/account/identity/{identity}', () => {
    it('returns accountId, identity, platform and the four states', async () => {
      const res = await get('/v1/api/account/identity/sandbox:kraken-trading').expect(200);
      expect(sorted(Object.keys(res.body.result))).toEqual(
        sorted(['accountId', 'identity', 'platform', ...STATE_KEYS]),
      );
      expect(res.body.result).toMatchObject({
        accountId: sandboxAccount('sandbox', 'kraken-trading').accountId,
        identity: 'sandbox:kraken-trading',
        platform: 'kraken',
      });
    });

    it('finds identities with URL-encoded characters', async () => {
      const created = await createAccount(t, admin, {
        identity: 'household 7/coinbase',
        platform: 'coinbase',
      });
      const res = await get(`/v1/api/account/identity/${encodeURIComponent('household 7/coinbase')}`).expect(
        200,
      );
      expect(res.body.result.accountId).toBe(created.accountId);
    });

    it('answers another tenant’s identity exactly like an unknown one (404)', async () => {
      const foreign = await get('/v1/api/account/identity/sandbox-b:coinbase-main').expect(404);
      const unknown = await get('/v1/api/account/identity/nobody').expect(404);
      expect(shapeOf404(foreign.body)).toEqual(shapeOf404(unknown.body));
      expect(foreign.body.message).toBe('Identity not found.');
    });
  });

  describe('GET /v1/api/account/{accountId}/transactions', () => {
    let edges: string;

    beforeAll(async () => {
      edges = (await createAccount(t, admin, { platform: 'robinhood' })).accountId;
      const rows = [
        sourceTx({ transactionId: 'before', at: '2023-12-31T23:59:59.999Z' }),
        sourceTx({ transactionId: 'first', at: '2024-01-01T00:00:00.000Z' }),
        sourceTx({ transactionId: 'b-same-time', at: '2024-01-15T12:00:00.000Z' }),
        sourceTx({ transactionId: 'a-same-time', at: '2024-01-15T12:00:00.000Z' }),
        sourceTx({ transactionId: 'last', at: '2024-01-31T23:59:59.999Z', direction: 'sell', amount: '0.1' }),
        sourceTx({
          transactionId: 'after',
          at: '2024-02-01T00:00:00.000Z',
          direction: 'transfer_out',
          amount: '0.2',
          transferId: 'x-1',
        }),
      ];
      await importCsv(t, admin, edges, csvOf(rows)).expect(200);
    });

    const ids = (body: { result: { transactions: { transactionId: string }[] } }) =>
      body.result.transactions.map((tx) => tx.transactionId);

    it('returns every transaction in (timestamp, transactionId) order with the spec fields', async () => {
      const res = await get(`/v1/api/account/${edges}/transactions`).expect(200);
      expect(ids(res.body)).toEqual(['before', 'first', 'a-same-time', 'b-same-time', 'last', 'after']);
      const result = res.body.result;
      expect(sorted(Object.keys(result))).toEqual(
        sorted([
          'accountId',
          'transactions',
          'nextCursor',
          'lastUpdatedOn',
          'refreshed',
          'cacheAgeSeconds',
          ...STATE_KEYS,
        ]),
      );
      expect(result.transactions[0]).toEqual({
        transactionId: 'before',
        symbol: 'BTC',
        direction: 'buy',
        amount: '0.5',
        price: '40000',
        fee: null,
        transferId: null,
        timestamp: '2023-12-31T23:59:59.999Z',
      });
      expect(result.transactions[5]).toMatchObject({
        direction: 'transfer_out',
        price: null,
        transferId: 'x-1',
      });
      expect(result).toMatchObject({
        nextCursor: null,
        refreshed: false,
        syncStatus: 'synced',
        balanceSource: 'calculated',
      });
    });

    it.each([
      ['from=2024-01-01&to=2024-01-31', ['first', 'a-same-time', 'b-same-time', 'last']],
      ['from=2024-01-31&to=2024-01-31', ['last']],
      ['to=2023-12-31', ['before']],
      ['from=2024-02-01', ['after']],
      ['from=2024-01-31T23:59:59.999Z&to=2024-02-01T00:00:00Z', ['last', 'after']],
      ['from=2024-01-15T13:00:00%2B01:00&to=2024-01-15T12:00:00Z', ['a-same-time', 'b-same-time']],
      ['from=2025-01-01', []],
    ])('filters inclusively: %s', async (query, expected) => {
      const res = await get(`/v1/api/account/${edges}/transactions?${query}`).expect(200);
      expect(ids(res.body)).toEqual(expected);
    });

    it('pages with limit and cursor within the range', async () => {
      const first = await get(`/v1/api/account/${edges}/transactions?limit=4&to=2024-02-01`).expect(200);
      expect(ids(first.body)).toEqual(['before', 'first', 'a-same-time', 'b-same-time']);
      const cursor = first.body.result.nextCursor;
      expect(typeof cursor).toBe('string');
      const second = await get(
        `/v1/api/account/${edges}/transactions?limit=4&to=2024-02-01&cursor=${encodeURIComponent(cursor)}`,
      ).expect(200);
      expect(ids(second.body)).toEqual(['last', 'after']);
      expect(second.body.result.nextCursor).toBeNull();
      const exact = await get(`/v1/api/account/${edges}/transactions?limit=6`).expect(200);
      expect(exact.body.result.nextCursor).toBeNull();
    });

    it.each([
      ['from=yesterday', 'from'],
      ['to=2024-02-30', 'to'],
      ['from=2024-01-01T00:00:00', 'from'],
      ['from=2024-02-01&to=2024-01-31', 'to'],
      ['limit=1001', 'limit'],
      ['limit=0', 'limit'],
      ['forceRefresh=maybe', 'forceRefresh'],
      ['cursor=abc.def', 'cursor'],
    ])('answers %s with 400 naming %s', async (query, field) => {
      const res = await get(`/v1/api/account/${edges}/transactions?${query}`).expect(400);
      expect(res.body.responseException.exceptionMessage.errors).toHaveProperty([field]);
    });

    it('rejects a cursor issued for another account', async () => {
      const cursor = (await get(`/v1/api/account/${edges}/transactions?limit=1`).expect(200)).body.result
        .nextCursor;
      const res = await get(
        `/v1/api/account/${coinbase.accountId}/transactions?cursor=${encodeURIComponent(cursor)}`,
      ).expect(400);
      expect(res.body.responseException.exceptionMessage.errors).toHaveProperty(['cursor']);
    });

    it('answers a non-UUID accountId with 400, unknown and foreign accounts with the same 404', async () => {
      const bad = await get('/v1/api/account/123/transactions').expect(400);
      expect(bad.body.responseException.exceptionMessage.errors).toEqual({
        accountId: ['accountId must be a UUID.'],
      });
      const foreign = await get(`/v1/api/account/${coinbaseB.accountId}/transactions`).expect(404);
      const unknown = await get('/v1/api/account/00000000-0000-4000-8000-000000000000/transactions').expect(
        404,
      );
      expect(shapeOf404(foreign.body)).toEqual(shapeOf404(unknown.body));
      await get(`/v1/api/account/${coinbaseB.accountId}/transactions`, partnerB).expect(200);
    });

    it('needs a bearer token', async () => {
      await t.http.get(`/v1/api/account/${edges}/transactions`).expect(401);
    });

    it('serves a sandbox history of hundreds of transactions since 2020', async () => {
      const res = await get(`/v1/api/account/${coinbase.accountId}/transactions`).expect(200);
      const txs = res.body.result.transactions;
      expect(txs.length).toBeGreaterThan(150);
      expect(txs[0].timestamp.slice(0, 4)).toBe('2020');
      expect(
        txs.some(
          (tx: { direction: string; transferId: string | null }) =>
            tx.direction === 'transfer_out' && tx.transferId,
        ),
      ).toBe(true);
    });
  });

  describe('GET /v1/api/account/{accountId}/balances', () => {
    it('returns the spec fields per asset and in total, plus the states and freshness', async () => {
      const res = await get(`/v1/api/account/${coinbase.accountId}/balances`).expect(200);
      const result = res.body.result;
      expect(sorted(Object.keys(result))).toEqual(
        sorted([
          'accountId',
          'balances',
          'lastUpdatedOn',
          'marketValue',
          'realizedGainLoss',
          'unrealizedGainLoss',
          'costBasisMethod',
          'reconciliation',
          'review',
          'refreshed',
          'cacheAgeSeconds',
          ...STATE_KEYS,
        ]),
      );
      expect(result.balances.map((b: { symbol: string }) => b.symbol)).toEqual(['BTC', 'ETH']);
      for (const balance of result.balances) {
        expect(sorted(Object.keys(balance))).toEqual(
          sorted([
            'symbol',
            'balance',
            'costBasis',
            'marketValue',
            'realizedGainLoss',
            'unrealizedGainLoss',
            'needsReview',
          ]),
        );
        expect(balance.balance).toMatch(/^\d+(\.\d+)?$/);
        for (const usd of ['costBasis', 'marketValue', 'realizedGainLoss', 'unrealizedGainLoss'])
          expect(balance[usd]).toMatch(/^-?\d+\.\d{2}$/);
      }
      const total = (field: string) =>
        result.balances.reduce(
          (sum: GlobalDecimal, b: Record<string, string>) => sum.plus(b[field]),
          new Decimal(0),
        );
      for (const field of ['marketValue', 'realizedGainLoss', 'unrealizedGainLoss'])
        expect(total(field).minus(result[field]).abs().lessThanOrEqualTo(0.02)).toBe(true);
      expect(result).toMatchObject({
        accountId: coinbase.accountId,
        costBasisMethod: 'fifo',
        refreshed: false,
        cacheAgeSeconds: 0,
        syncStatus: 'synced',
        balanceSource: 'source_reported',
      });
      expect(res.headers['cache-status']).toBe('crypto-asset-service; hit');
    });

    it('carries basis across own-account transfers: the cold wallet’s coins keep their cost', async () => {
      const wallet = sandboxAccount('sandbox', 'btc-cold-storage').accountId;
      const res = await get(`/v1/api/account/${wallet}/balances`).expect(200);
      const [btc] = res.body.result.balances;
      expect(btc).toMatchObject({ symbol: 'BTC', needsReview: false });
      expect(Number(btc.costBasis)).toBeGreaterThan(0);
      expect(res.body.result.balanceSource).toBe('calculated');
    });

    it.each([
      ['binanceus-new', 'initial_sync_pending'],
      ['bitstamp-expired', 'reconnect_required'],
      ['kraken-legacy', 'inconsistent_history'],
    ])('answers %s with 422 and reason %s', async (key, reason) => {
      const res = await get(`/v1/api/account/${sandboxAccount('sandbox', key).accountId}/balances`).expect(
        422,
      );
      expect(res.body).toMatchObject({ isError: true, statusCode: 422, result: null });
      expect(res.body.responseException.exceptionMessage).toMatchObject({ status: 422, reason });
      if (reason === 'inconsistent_history')
        expect(res.body.message).toMatch(/disposes of [\d.]+ ETH more than the account held/);
    });

    it('still serves cached balances when the last refresh failed (syncStatus error)', async () => {
      const res = await get(
        `/v1/api/account/${sandboxAccount('sandbox', 'okx-outage').accountId}/balances`,
      ).expect(200);
      expect(res.body.result).toMatchObject({ syncStatus: 'error', lastSyncedAt: START.toISOString() });
    });

    it('answers foreign and unknown accounts with the same 404, non-UUIDs with 400', async () => {
      const foreign = await get(`/v1/api/account/${coinbaseB.accountId}/balances`).expect(404);
      const unknown = await get('/v1/api/account/00000000-0000-4000-8000-000000000000/balances').expect(404);
      expect(shapeOf404(foreign.body)).toEqual(shapeOf404(unknown.body));
      const bad = await get('/v1/api/account/zzz/balances').expect(400);
      expect(bad.body.responseException.exceptionMessage.errors).toHaveProperty(['accountId']);
    });

    it('agrees with the cost-basis engine over the whole tenant ledger (what the gains report uses)', async () => {
      const tenantId = sandboxTenantId('sandbox');
      const result = computeCostBasis(await t.app.get(LedgerService).ledgerForTenant(tenantId), {
        method: 'fifo',
      });
      const snapshots = await t.app
        .get(BalanceSnapshotsRepository)
        .findMany(tenantId, [coinbase.accountId, sandboxAccount('sandbox', 'kraken-trading').accountId]);
      for (const [accountId, snapshot] of snapshots) {
        const realized = result.disposals
          .filter((d) => d.accountId === accountId)
          .reduce((sum, d) => sum.plus(d.gainUsd), new Decimal(0));
        expect(realized.toFixed()).toBe(new Decimal(snapshot.realizedGainUsd).toFixed());
      }
    });
  });

  describe('forceRefresh', () => {
    it('returns the cache while it is fresh, refreshes once it is 30 minutes old', async () => {
      const path = `/v1/api/account/${coinbase.accountId}/balances?forceRefresh=true`;
      clock.set(new Date(START.getTime() + 29 * 60_000));
      const fresh = await get(path).expect(200);
      expect(fresh.body.result).toMatchObject({
        refreshed: false,
        cacheAgeSeconds: 29 * 60,
        lastSyncedAt: START.toISOString(),
      });
      expect(fresh.headers['cache-status']).toBe('crypto-asset-service; hit');

      clock.set(new Date(START.getTime() + 30 * 60_000));
      const unforced = await get(`/v1/api/account/${coinbase.accountId}/balances`).expect(200);
      expect(unforced.body.result).toMatchObject({ refreshed: false, cacheAgeSeconds: 30 * 60 });

      const stale = await get(path).expect(200);
      expect(stale.body.result).toMatchObject({
        refreshed: true,
        cacheAgeSeconds: 0,
        lastSyncedAt: clock.now().toISOString(),
        lastUpdatedOn: clock.now().toISOString(),
      });
      expect(stale.headers['cache-status']).toBe('crypto-asset-service; fwd=request; stored');
    });

    it('applies the same rule to transactions', async () => {
      const path = `/v1/api/account/${coinbase.accountId}/transactions?forceRefresh=true&from=2026-01-01`;
      const fresh = await get(path).expect(200);
      expect(fresh.body.result.refreshed).toBe(false);
      clock.advanceMs(45 * 60_000);
      const stale = await get(path).expect(200);
      expect(stale.body.result).toMatchObject({
        refreshed: true,
        lastUpdatedOn: clock.now().toISOString(),
        cacheAgeSeconds: 0,
      });
    });
  });
});
