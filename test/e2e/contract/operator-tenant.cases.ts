/**
 * The operator tenant (design §3, issue #13 item 13): admin clients live in a tenant that holds no
 * partner data; an admin token has no partner scope unless given one, and every admin request
 * names the tenant it acts on (only the list may span all tenants, and each row names its tenant).
 * Also: a database seeded before operator tenants existed (sandbox-admin in tenant `sandbox` with
 * partner and admin) is put right on start-up: test/services/operator-migration.service.spec.ts.
 *
 * The first suite reads the sandbox's tenants as seeded ("has no accounts": every account is in
 * `sandbox` or `sandbox-b`): it comes before the suites that create tenants of their own.
 */
import { sandboxId, sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { ClientsService, TenancyRepository } from '../../../src/modules/tenancy/index.js';
import { bearer, csvOf, importCsv, simpleHistory } from '../../factories/accounts.factory.js';
import { startSuite } from '../../support/e2e-world.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

const SANDBOX_ACCOUNT = sandboxId('account:sandbox:kraken-trading');
const OPERATOR_TENANT_ID = sandboxTenantId('operator');

describe('operator tenant and tenant-naming admin API (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let partner: string;
  let partnerB: string;

  beforeAll(async () => {
    t = await startSuite();
    [admin, partner, partnerB] = await Promise.all([
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
      t.token(),
      t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
    ]);
  });
  afterAll(() => t.close());

  it('seeds sandbox-admin in the operator tenant with the admin scope only', () => {
    expect(claimsOf(admin)).toMatchObject({ sub: 'sandbox-admin', tid: OPERATOR_TENANT_ID, scope: 'admin' });
  });

  it.each([
    ['GET', '/v1/api/accounts'],
    ['GET', `/v1/api/account/${SANDBOX_ACCOUNT}/balances`],
    ['GET', `/v1/api/account/${SANDBOX_ACCOUNT}/transactions`],
  ])('refuses the admin token on partner endpoint %s %s with 403', async (_method, path) => {
    await t.http.get(path).set(bearer(partner)).expect(200); // also warms the balances cache (fast path)
    const res = await t.http.get(path).set(bearer(admin)).expect(403);
    expect(res.body.responseException.exceptionMessage).toMatchObject({ status: 403 });
    expect(res.body.message).toBe('This operation needs the scope: partner.');
  });

  describe('POST /admin/accounts', () => {
    it('needs the tenant: 400 naming `tenant`, never a default to the caller’s tenant', async () => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ platform: 'coinbase', identity: 'no-tenant', source: 'csv' })
        .expect(400);
      expect(res.body.errors).toEqual({
        tenant: ['tenant is required: the slug of the tenant this admin request acts on.'],
      });
    });

    it('links in the tenant it names and says so; that tenant’s partner sees it, the other gets 404', async () => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: 'sandbox-b', platform: 'coinbase', identity: 'op-b-1', source: 'csv' })
        .expect(201);
      expect(res.body).toMatchObject({ tenant: 'sandbox-b', identity: 'op-b-1', syncStatus: 'syncing' });
      const path = `/v1/api/account/${res.body.accountId}/transactions`;
      await t.http.get(path).set(bearer(partnerB)).expect(200);
      await t.http.get(path).set(bearer(partner)).expect(404);
    });

    it('refuses the operator tenant as the owner of an account (400 naming `tenant`)', async () => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: 'operator', platform: 'coinbase', identity: 'op-own', source: 'csv' })
        .expect(400);
      expect(res.body.errors).toEqual({
        tenant: ['Tenant "operator" is an operator tenant; it holds no partner data.'],
      });
    });
  });

  describe('operations on one account name its tenant', () => {
    let accountId: string;

    beforeAll(async () => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: 'sandbox-b', platform: 'kraken', identity: 'op-b-2', source: 'csv' })
        .expect(201);
      accountId = res.body.accountId;
    });

    it.each([
      ['get', ''],
      ['post', '/refresh'],
      ['post', '/import'],
      ['delete', ''],
    ] as const)(
      '%s /admin/accounts/{id}%s naming another tenant: 404 as if absent',
      async (method, suffix) => {
        const res = await t.http[method](`/admin/accounts/${accountId}${suffix}?tenant=sandbox`)
          .set(bearer(admin))
          .set('Content-Type', 'text/csv')
          .send('')
          .expect(404);
        expect(res.body.detail).toBe('Account not found.');
      },
    );

    it.each([
      ['get', ''],
      ['post', '/refresh'],
      ['post', '/import'],
      ['delete', ''],
    ] as const)('%s /admin/accounts/{id}%s without tenant: 400 naming `tenant`', async (method, suffix) => {
      const res = await t.http[method](`/admin/accounts/${accountId}${suffix}`)
        .set(bearer(admin))
        .set('Content-Type', 'text/csv')
        .send('')
        .expect(400);
      expect(res.body.errors).toEqual({
        tenant: ['tenant is required: the slug of the tenant this admin request acts on.'],
      });
    });

    it('answers with the tenant it acted on', async () => {
      const got = await t.http
        .get(`/admin/accounts/${accountId}?tenant=sandbox-b`)
        .set(bearer(admin))
        .expect(200);
      expect(got.body).toMatchObject({ accountId, tenant: 'sandbox-b' });
      const imported = await importCsv(t, admin, accountId, csvOf(simpleHistory('op-b')), 'sandbox-b').expect(
        200,
      );
      expect(imported.body).toEqual({
        accountId,
        tenant: 'sandbox-b',
        rows: 13,
        inserted: 13,
        updated: 0,
        unchanged: 0,
        format: 'csv',
      });
      const refreshed = await t.http
        .post(`/admin/accounts/${accountId}/refresh?tenant=sandbox-b`)
        .set(bearer(admin))
        .expect(200);
      expect(refreshed.body.account).toMatchObject({ accountId, tenant: 'sandbox-b' });
      await t.http.delete(`/admin/accounts/${accountId}?tenant=sandbox-b`).set(bearer(admin)).expect(204);
      await t.http.get(`/admin/accounts/${accountId}?tenant=sandbox-b`).set(bearer(admin)).expect(404);
    });
  });

  describe('the operator tenant holds no partner data', () => {
    it('has no accounts', async () => {
      const res = await t.http.get('/admin/accounts?tenant=operator').set(bearer(admin)).expect(200);
      expect(res.body).toEqual({
        accounts: [],
        nextCursor: null,
        counts: { syncing: 0, synced: 0, reconnect_required: 0, error: 0 },
        needsReview: 0,
      });
      const all = await t.http.get('/admin/accounts?limit=200').set(bearer(admin)).expect(200);
      const tenants = new Set(all.body.accounts.map((a: { tenant: string }) => a.tenant));
      expect([...tenants].sort()).toEqual(['sandbox', 'sandbox-b']);
    });

    it('an operator client given the partner scope explicitly sees its own tenant: empty', async () => {
      const issued = await t.app
        .get(ClientsService)
        .createClient('operator', ['admin', 'partner'], 'op-both');
      const token = await t.token(issued.clientId, issued.clientSecret);
      expect(claimsOf(token)).toMatchObject({ tid: OPERATOR_TENANT_ID, scope: 'admin partner' });
      const res = await t.http.get('/v1/api/accounts').set(bearer(token)).expect(200);
      expect(res.body.result).toEqual({ accounts: [], nextCursor: null });
      await t.http.get(`/v1/api/account/${SANDBOX_ACCOUNT}/balances`).set(bearer(token)).expect(404);
    });
  });

  describe('the admin scope belongs to operator tenants only', () => {
    it('refuses to create an admin client in a partner tenant', async () => {
      await expect(
        t.app.get(ClientsService).createClient('sandbox', ['admin'], 'partner-admin'),
      ).rejects.toMatchObject({
        fieldErrors: {
          scopes: [
            'The admin scope is only for clients of an operator tenant; "sandbox" is a partner tenant (create one with: tenant create <slug> --operator).',
          ],
        },
      });
    });

    it('gives an admin client left in a partner tenant (an old database) no admin scope in its tokens', async () => {
      const clients = t.app.get(ClientsService);
      const repository = t.app.get(TenancyRepository);
      await repository.insertClientIfAbsent({
        id: '6b0a0c1e-7f3e-4c41-9a53-5b1d0f3c2a10',
        tenantId: sandboxTenantId('sandbox'),
        clientId: 'legacy-partner-admin',
        secretHash: await clients.hashSecret('legacy-secret-legacy-secret'),
        scopes: ['partner', 'admin'],
      });
      const token = await t.token('legacy-partner-admin', 'legacy-secret-legacy-secret');
      expect(claimsOf(token)).toMatchObject({ tid: sandboxTenantId('sandbox'), scope: 'partner' });
      await t.http.get('/admin/accounts').set(bearer(token)).expect(403);
      await t.http.get('/v1/api/accounts').set(bearer(token)).expect(200);
    });
  });
});
