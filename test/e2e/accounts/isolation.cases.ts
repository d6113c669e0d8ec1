/**
 * Isolation matrix (issue 6): tenant B's token against tenant A's objects gets exactly what an
 * unknown id gets (same status, same body apart from trace id and echoed path), for every endpoint
 * that takes an id; lists never show another tenant's rows; partner tokens get 403 on /admin.
 */
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const A = {
  accountId: sandboxId('account:sandbox:coinbase-main'),
  collectionId: sandboxId('collection:sandbox:coinbase-main'),
  identity: 'sandbox:coinbase-main',
  walletAccountId: sandboxId('account:sandbox:btc-cold-storage'),
  portfolioId: sandboxId('portfolio:sandbox:core'),
};

/** The body without what legitimately differs between two requests (trace id, echoed path, clock). */
function normalise(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) =>
    ['traceId', 'instance', 'computedAt'].includes(key) ? undefined : value,
  );
}

describe('tenant isolation matrix (e2e)', () => {
  let t: TestApp;
  let tokenA: string;
  let tokenB: string;
  let adminA: string;
  beforeAll(async () => {
    t = await startSuite();
    tokenA = await t.token();
    tokenB = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    adminA = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
  });
  afterAll(() => t.close());

  type Call = (token: string, id: string) => Promise<Response>;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  const cases: [string, Call, string, string][] = [
    [
      'GET /v1/api/account/collection/{collectionId}',
      (tk, id) => t.http.get(`/v1/api/account/collection/${id}`).set(as(tk)),
      A.collectionId,
      randomUUID(),
    ],
    [
      'GET /v1/api/account/identity/{identity}',
      (tk, id) => t.http.get(`/v1/api/account/identity/${encodeURIComponent(id)}`).set(as(tk)),
      A.identity,
      'sandbox:no-such-account',
    ],
    [
      'GET /v1/api/account/{id}/transactions',
      (tk, id) => t.http.get(`/v1/api/account/${id}/transactions`).set(as(tk)),
      A.accountId,
      randomUUID(),
    ],
    [
      'GET /v1/api/account/{id}/transactions?forceRefresh=true',
      (tk, id) => t.http.get(`/v1/api/account/${id}/transactions?forceRefresh=true`).set(as(tk)),
      A.accountId,
      randomUUID(),
    ],
    [
      'GET /v1/api/account/{id}/balances',
      (tk, id) => t.http.get(`/v1/api/account/${id}/balances`).set(as(tk)),
      A.accountId,
      randomUUID(),
    ],
    [
      'GET /api/portfolios/{id}',
      (tk, id) => t.http.get(`/api/portfolios/${id}`).set(as(tk)),
      A.portfolioId,
      randomUUID(),
    ],
    [
      'PUT /api/portfolios/{id}',
      (tk, id) =>
        t.http
          .put(`/api/portfolios/${id}`)
          .set(as(tk))
          .send({ name: 'taken over', allocations: { BTC: 100 } }),
      A.portfolioId,
      randomUUID(),
    ],
    [
      'DELETE /api/portfolios/{id}',
      (tk, id) => t.http.delete(`/api/portfolios/${id}`).set(as(tk)),
      A.portfolioId,
      randomUUID(),
    ],
    [
      'POST /qscore/evaluate',
      (tk, id) =>
        t.http.post('/qscore/evaluate').set(as(tk)).send({ account_id: id, as_of_date: '2024-06-01' }),
      A.accountId,
      randomUUID(),
    ],
    [
      'GET /portfolio/summary?account_id',
      (tk, id) => t.http.get(`/portfolio/summary?account_id=${id}`).set(as(tk)),
      A.accountId,
      randomUUID(),
    ],
    [
      'GET /taip/gains-report?account_id',
      (tk, id) => t.http.get(`/taip/gains-report?tax_year=2024&account_id=${id}`).set(as(tk)),
      A.accountId,
      randomUUID(),
    ],
    [
      'GET /taip/gains-report?identity',
      (tk, id) =>
        t.http.get(`/taip/gains-report?tax_year=2024&identity=${encodeURIComponent(id)}`).set(as(tk)),
      A.identity,
      'sandbox:no-such-account',
    ],
    [
      'GET /taip/form-8949?account_id',
      (tk, id) => t.http.get(`/taip/form-8949?tax_year=2024&account_id=${id}`).set(as(tk)),
      A.accountId,
      randomUUID(),
    ],
    [
      'GET /v1/api/checksum?collectionId',
      (tk, id) => t.http.get(`/v1/api/checksum?collectionId=${id}`).set(as(tk)),
      A.collectionId,
      randomUUID(),
    ],
    [
      'GET /v1/api/checksum?identity',
      (tk, id) => t.http.get(`/v1/api/checksum?identity=${encodeURIComponent(id)}`).set(as(tk)),
      A.identity,
      'sandbox:no-such-account',
    ],
  ];

  // PUT and DELETE are exercised by tenant B only (A's GET proves the id is real).
  const reads = cases.filter(([name]) => !name.startsWith('PUT') && !name.startsWith('DELETE'));
  it.each(reads)('%s: tenant A itself is served', async (_name, call, idOfA) => {
    const own = await call(tokenA, idOfA);
    expect(own.status).toBe(200);
  });

  it.each(cases)(
    '%s: tenant B gets exactly what an unknown id gets',
    async (_name, call, idOfA, unknownId) => {
      const foreign = await call(tokenB, idOfA);
      const unknown = await call(tokenB, unknownId);
      expect(foreign.status).toBe(unknown.status);
      expect([404, 200]).toContain(foreign.status);
      expect(normalise(foreign.body)).toEqual(normalise(unknown.body));
      expect(foreign.headers['content-type']).toBe(unknown.headers['content-type']);
      if (foreign.status === 200) {
        // Filters (checksum) cover no rows: the checksum of empty input.
        expect(foreign.body.result).toMatchObject({
          rowCount: 0,
          checksum: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        });
      }
    },
  );

  it('left tenant A’s portfolio untouched after B’s PUT and DELETE', async () => {
    const res = await t.http.get(`/api/portfolios/${A.portfolioId}`).set(as(tokenA)).expect(200);
    expect(res.body.name).not.toBe('taken over');
  });

  it('rejects tenant A’s wallet cursor under tenant B exactly like a tampered cursor', async () => {
    const page = await t.http.get('/qeychain/wallets?limit=1').set(as(tokenA)).expect(200);
    const cursor = page.body.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const foreign = await t.http
      .get(`/qeychain/wallets?cursor=${encodeURIComponent(cursor)}`)
      .set(as(tokenB));
    const tampered = await t.http
      .get(`/qeychain/wallets?cursor=${encodeURIComponent(cursor.slice(0, -2) + 'xx')}`)
      .set(as(tokenB));
    expect(foreign.status).toBe(400);
    expect(tampered.status).toBe(400);
    expect(normalise(foreign.body)).toEqual(normalise(tampered.body));
  });

  it('rejects tenant A’s accounts-list cursor under tenant B', async () => {
    const page = await t.http.get('/v1/api/accounts?limit=1').set(as(tokenA)).expect(200);
    const cursor = page.body.result.nextCursor as string;
    const res = await t.http.get(`/v1/api/accounts?cursor=${encodeURIComponent(cursor)}`).set(as(tokenB));
    expect(res.status).toBe(400);
  });

  async function allIds(token: string) {
    const accounts: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await t.http
        .get(`/v1/api/accounts?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .set(as(token))
        .expect(200);
      accounts.push(...res.body.result.accounts.map((a: { accountId: string }) => a.accountId));
      cursor = res.body.result.nextCursor;
    } while (cursor);
    const wallets: string[] = [];
    cursor = null;
    do {
      const res: Response = await t.http
        .get(`/qeychain/wallets?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .set(as(token))
        .expect(200);
      wallets.push(...res.body.data.map((w: { address: string }) => w.address));
      cursor = res.body.next_cursor;
    } while (cursor);
    const portfolios = (await t.http.get('/api/portfolios').set(as(token)).expect(200)).body.map(
      (p: { id: string }) => p.id,
    );
    return { accounts, wallets, portfolios };
  }

  it('never lists another tenant’s accounts, wallets or portfolios', async () => {
    const a = await allIds(tokenA);
    const b = await allIds(tokenB);
    expect(a.accounts.length).toBeGreaterThan(0);
    expect(b.accounts.length).toBeGreaterThan(0);
    expect(a.accounts).toContain(A.accountId);
    expect(a.accounts.filter((id) => b.accounts.includes(id))).toEqual([]);
    expect(a.wallets.filter((w) => b.wallets.includes(w))).toEqual([]);
    expect(a.portfolios).toContain(A.portfolioId);
    expect(a.portfolios.filter((id: string) => b.portfolios.includes(id))).toEqual([]);
  });

  it('keeps tenant-wide reports to the caller’s own accounts', async () => {
    const summaryA = (await t.http.get('/portfolio/summary').set(as(tokenA)).expect(200)).body;
    const summaryB = (await t.http.get('/portfolio/summary').set(as(tokenB)).expect(200)).body;
    const ownA = (
      await t.http.get(`/portfolio/summary?account_id=${A.accountId}`).set(as(tokenA)).expect(200)
    ).body;
    expect(summaryA).not.toEqual(summaryB);
    expect(ownA.exchanges).toEqual(['coinbase']);
    const checksumA = (await t.http.get('/v1/api/checksum').set(as(tokenA)).expect(200)).body.result;
    const checksumB = (await t.http.get('/v1/api/checksum').set(as(tokenB)).expect(200)).body.result;
    expect(checksumA.checksum).not.toBe(checksumB.checksum);
    expect(checksumA.rowCount).toBeGreaterThan(0);
  });

  it.each([
    ['GET', '/admin/accounts'],
    ['GET', `/admin/accounts/${A.accountId}?tenant=sandbox`],
    ['POST', '/admin/accounts'],
    ['POST', `/admin/accounts/${A.accountId}/refresh?tenant=sandbox`],
    ['POST', `/admin/accounts/${A.accountId}/import?tenant=sandbox`],
    ['DELETE', `/admin/accounts/${A.accountId}?tenant=sandbox`],
  ])('gives a partner token 403 on %s %s, and an admin token access', async (method, path) => {
    const call = (token: string) =>
      t.http[method.toLowerCase() as 'get' | 'post' | 'delete'](path)
        .set(as(token))
        .set('Content-Type', 'application/json')
        .send(method === 'GET' || method === 'DELETE' ? undefined : '{}');
    for (const token of [tokenA, tokenB]) {
      const res = await call(token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: 403, title: 'Forbidden' });
    }
    if (method === 'GET') await call(adminA).expect(200);
  });
});
