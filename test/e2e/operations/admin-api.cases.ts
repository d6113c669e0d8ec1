/**
 * The admin API of issue 17 item 4, through HTTP (one app, to start it once):
 * - tenants and API clients: create, list and get tenants; create, list, get, rotate, disable and
 *   enable clients. Secrets are shown once (create, rotate), stored as argon2id hashes, and never
 *   in a list, a read or a log line. Operations on one client name its tenant; another tenant's
 *   client answers 404 like one that does not exist.
 * - the market-data refresh trigger, under the scheduler's lease (409 while another run holds it);
 * - support reads of any tenant's account data, recorded (logged) once each.
 * Partner tokens get 403 on all of it; no token 401.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type TestAgent from 'supertest/lib/agent.js';
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { MARKET_REFRESH_JOB, MarketRepository } from '../../../src/modules/market/testing.js';
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { bearer } from '../../factories/accounts.factory.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';
import { logs } from './log-capture.js';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const SANDBOX_ACCOUNT = sandboxId('account:sandbox:coinbase-main');
const NOBODY = '00000000-0000-4000-8000-000000000000';
const SECRET = /^[A-Za-z0-9_-]{43}$/;

describe('admin API: tenants, clients, market refresh, support reads (e2e)', () => {
  let t: SuiteApp;
  let app: NestExpressApplication;
  let http: TestAgent;
  let admin: string;
  let partner: string;
  /** Every secret this suite saw, to check none reached a log line. */
  const secrets: string[] = [];

  const token = async (clientId: string, clientSecret: string) => {
    const res = await http.post('/v1/api/token').send({ clientId, clientSecret });
    return { status: res.status, token: res.body?.result?.accessToken as string };
  };

  beforeAll(async () => {
    // The file's app logs to `logs` at info from its start, seeded at NOW (operations.e2e-spec.ts).
    t = await startSuite(
      { LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '100000' },
      { clock: new ManualClock(NOW) },
    );
    app = t.app;
    http = t.http;
    admin = (await token(SANDBOX.admin.clientId, SANDBOX.admin.secret)).token;
    partner = (await token(SANDBOX.partner.clientId, SANDBOX.partner.secret)).token;
  });
  afterAll(() => t.close());

  it.each([
    ['post', '/admin/tenants'],
    ['get', '/admin/tenants'],
    ['get', '/admin/tenants/sandbox'],
    ['post', '/admin/clients'],
    ['get', '/admin/clients'],
    ['get', '/admin/clients/sandbox-client?tenant=sandbox'],
    ['post', '/admin/clients/sandbox-client/rotate?tenant=sandbox'],
    ['post', '/admin/clients/sandbox-client/disable?tenant=sandbox'],
    ['post', '/admin/clients/sandbox-client/enable?tenant=sandbox'],
    ['post', '/admin/market/refresh'],
    ['get', `/admin/support/accounts/${SANDBOX_ACCOUNT}?tenant=sandbox`],
    ['get', `/admin/support/accounts/${SANDBOX_ACCOUNT}/balances?tenant=sandbox`],
    ['get', `/admin/support/accounts/${SANDBOX_ACCOUNT}/transactions?tenant=sandbox`],
  ] as const)('%s %s: partner token 403, no token 401', async (method, path) => {
    const refused = await http[method](path).set(bearer(partner)).send({}).expect(403);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.body.detail).toBe('This operation needs the scope: admin.');
    await http[method](path).send({}).expect(401);
    // The partner's client was not rotated or disabled by the refused calls.
    expect((await token(SANDBOX.partner.clientId, SANDBOX.partner.secret)).status).toBe(200);
  });

  describe('tenants', () => {
    it('creates a partner tenant (201), lists it among all tenants and reads it by slug', async () => {
      const created = await http
        .post('/admin/tenants')
        .set(bearer(admin))
        .send({ slug: 'acme', name: 'Acme Advisors' })
        .expect(201);
      expect(created.body).toEqual({
        tenantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        slug: 'acme',
        name: 'Acme Advisors',
        kind: 'partner',
        sandbox: false,
        createdAt: expect.any(String),
      });

      const list = await http.get('/admin/tenants').set(bearer(admin)).expect(200);
      const slugs = (list.body.tenants as { slug: string }[]).map((t) => t.slug);
      expect(slugs).toEqual([...slugs].sort());
      expect(slugs).toEqual(expect.arrayContaining(['acme', 'operator', 'sandbox', 'sandbox-b']));
      expect(list.body.tenants.find((t: { slug: string }) => t.slug === 'operator')).toMatchObject({
        kind: 'operator',
        sandbox: true,
      });

      const one = await http.get('/admin/tenants/acme').set(bearer(admin)).expect(200);
      expect(one.body).toEqual(created.body);
    });

    it('creates an operator tenant with kind: operator', async () => {
      const res = await http
        .post('/admin/tenants')
        .set(bearer(admin))
        .send({ slug: 'ops-two', name: 'Second operations desk', kind: 'operator' })
        .expect(201);
      expect(res.body).toMatchObject({ slug: 'ops-two', kind: 'operator' });
    });

    it('a taken slug is 409 naming slug; nothing changes', async () => {
      const res = await http
        .post('/admin/tenants')
        .set(bearer(admin))
        .send({ slug: 'acme', name: 'Another Acme' })
        .expect(409);
      expect(res.body).toMatchObject({
        status: 409,
        detail: 'Tenant "acme" already exists.',
        errors: { slug: ['Tenant "acme" already exists.'] },
      });
      const one = await http.get('/admin/tenants/acme').set(bearer(admin)).expect(200);
      expect(one.body.name).toBe('Acme Advisors');
    });

    it('bad fields are 400 naming each field', async () => {
      const res = await http
        .post('/admin/tenants')
        .set(bearer(admin))
        .send({ slug: 'Not A Slug', name: '', kind: 'root' })
        .expect(400);
      expect(Object.keys(res.body.errors).sort()).toEqual(['kind', 'name', 'slug']);
      expect(res.body.errors.kind).toEqual(['kind must be one of: partner, operator']);
      const extra = await http
        .post('/admin/tenants')
        .set(bearer(admin))
        .send({ slug: 'extra-field', name: 'X', isSandbox: true })
        .expect(400);
      expect(extra.body.errors).toEqual({ isSandbox: ['property isSandbox should not exist'] });
    });

    it('an unknown tenant is 404; a malformed slug 400 naming slug', async () => {
      const missing = await http.get('/admin/tenants/nobody-here').set(bearer(admin)).expect(404);
      expect(missing.body.detail).toBe('Tenant "nobody-here" not found.');
      const bad = await http.get('/admin/tenants/NOPE!').set(bearer(admin)).expect(400);
      expect(Object.keys(bad.body.errors)).toEqual(['slug']);
    });
  });

  describe('clients', () => {
    let clientSecret: string;

    it('creates a client (201) whose secret is shown once, stored only as an argon2id hash, and works on partner endpoints of its own tenant only', async () => {
      const res = await http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'acme', clientId: 'acme-app' })
        .expect(201);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        clientId: 'acme-app',
        tenant: 'acme',
        tenantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        scopes: ['partner'],
        clientSecret: expect.stringMatching(SECRET),
      });
      clientSecret = res.body.clientSecret;
      secrets.push(clientSecret);

      const [row] = await app
        .get(DataSource)
        .query(`SELECT secret_hash FROM api_client WHERE client_id = 'acme-app'`);
      expect(row.secret_hash).toMatch(/^\$argon2id\$/);
      expect(row.secret_hash).not.toContain(clientSecret);

      const issued = await token('acme-app', clientSecret);
      expect(issued.status).toBe(200);
      const accounts = await http.get('/v1/api/accounts').set(bearer(issued.token)).expect(200);
      expect(accounts.body.result.accounts).toEqual([]);
      // Tenant isolation: the sandbox tenant's account is not there for acme.
      await http.get(`/v1/api/account/${SANDBOX_ACCOUNT}/transactions`).set(bearer(issued.token)).expect(404);
      // A partner client has no admin scope.
      await http.get('/admin/tenants').set(bearer(issued.token)).expect(403);
    });

    it('generates a client id when none is given; an operator tenant gets an admin client', async () => {
      const res = await http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'ops-two' })
        .expect(201);
      expect(res.body).toMatchObject({
        clientId: expect.stringMatching(/^ops-two-[0-9a-f]{12}$/),
        tenant: 'ops-two',
        scopes: ['admin'],
      });
      secrets.push(res.body.clientSecret);
      const issued = await token(res.body.clientId, res.body.clientSecret);
      await http.get('/admin/tenants').set(bearer(issued.token)).expect(200);
      await http.get('/v1/api/accounts').set(bearer(issued.token)).expect(403);
    });

    it('refuses bad input with 400 naming the field, and a taken clientId with 409', async () => {
      const adminInPartner = await http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'acme', scopes: ['admin'] })
        .expect(400);
      expect(Object.keys(adminInPartner.body.errors)).toEqual(['scopes']);
      expect(adminInPartner.body.errors.scopes[0]).toMatch(
        /^The admin scope is only for clients of an operator tenant/,
      );

      const bad = await http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'acme', scopes: ['root'], clientId: 'x' })
        .expect(400);
      expect(bad.body.errors).toEqual({
        scopes: ['each scope must be one of: partner, admin'],
        clientId: ['clientId must be 3-128 characters of A-Z a-z 0-9 . _ -'],
      });

      const noTenant = await http.post('/admin/clients').set(bearer(admin)).send({}).expect(400);
      expect(noTenant.body.errors).toEqual({
        tenant: ['tenant is required: the slug of the tenant this admin request acts on.'],
      });
      const unknownTenant = await http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'nobody-here' })
        .expect(400);
      expect(unknownTenant.body.errors).toEqual({ tenant: ['Tenant "nobody-here" does not exist.'] });

      const taken = await http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'sandbox-b', clientId: 'acme-app' })
        .expect(409);
      expect(taken.body.errors).toEqual({ clientId: ['clientId "acme-app" already exists.'] });
    });

    it('lists clients of one tenant or of all, never with a secret or its hash', async () => {
      const acme = await http.get('/admin/clients?tenant=acme').set(bearer(admin)).expect(200);
      expect(acme.body).toEqual({
        clients: [
          {
            clientId: 'acme-app',
            tenant: 'acme',
            tenantId: expect.any(String),
            scopes: ['partner'],
            disabled: false,
            createdAt: expect.any(String),
            lastUsedAt: expect.any(String), // a token was issued above
            secretRotatedAt: null,
          },
        ],
      });
      const all = await http.get('/admin/clients').set(bearer(admin)).expect(200);
      const rows = all.body.clients as { clientId: string; tenant: string }[];
      expect(rows.map((c) => c.clientId)).toEqual([...rows.map((c) => c.clientId)].sort());
      expect(rows).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ clientId: 'sandbox-client', tenant: 'sandbox' }),
          expect.objectContaining({ clientId: 'sandbox-b-client', tenant: 'sandbox-b' }),
          expect.objectContaining({ clientId: 'sandbox-admin', tenant: 'operator' }),
          expect.objectContaining({ clientId: 'acme-app', tenant: 'acme' }),
        ]),
      );
      const text = JSON.stringify(all.body);
      expect(text).not.toMatch(/secret"|secretHash|argon2/i);
      for (const secret of secrets) expect(text).not.toContain(secret);

      await http.get('/admin/clients?tenant=Bad%20Slug').set(bearer(admin)).expect(400);
      const unknown = await http.get('/admin/clients?tenant=nobody-here').set(bearer(admin)).expect(400);
      expect(unknown.body.errors).toEqual({ tenant: ['Tenant "nobody-here" does not exist.'] });
    });

    it('reads one client in its tenant; another tenant’s answers 404 exactly as an unknown one', async () => {
      const one = await http.get('/admin/clients/acme-app?tenant=acme').set(bearer(admin)).expect(200);
      expect(one.body).toMatchObject({ clientId: 'acme-app', tenant: 'acme', disabled: false });
      expect(one.body).not.toHaveProperty('clientSecret');

      const elsewhere = await http
        .get('/admin/clients/acme-app?tenant=sandbox')
        .set(bearer(admin))
        .expect(404);
      expect(elsewhere.body.detail).toBe('Client "acme-app" not found.');
      const absent = await http
        .get('/admin/clients/nobody-app?tenant=sandbox')
        .set(bearer(admin))
        .expect(404);
      expect(absent.body.detail).toBe('Client "nobody-app" not found.');

      const noTenant = await http.get('/admin/clients/acme-app').set(bearer(admin)).expect(400);
      expect(Object.keys(noTenant.body.errors)).toEqual(['tenant']);
      const badId = await http.get('/admin/clients/x?tenant=acme').set(bearer(admin)).expect(400);
      expect(badId.body.errors).toEqual({
        clientId: ['clientId must be 3-128 characters of A-Z a-z 0-9 . _ -'],
      });
    });

    it('rotates a secret: the new one is shown once; the old secret and its tokens stop working', async () => {
      const before = await token('acme-app', clientSecret);
      expect(before.status).toBe(200);
      await http.get('/v1/api/accounts').set(bearer(before.token)).expect(200);

      await http.post('/admin/clients/acme-app/rotate?tenant=sandbox').set(bearer(admin)).expect(404);
      const rotated = await http
        .post('/admin/clients/acme-app/rotate?tenant=acme')
        .set(bearer(admin))
        .expect(200);
      expect(rotated.headers['cache-control']).toBe('no-store');
      expect(rotated.body).toEqual({
        clientId: 'acme-app',
        tenant: 'acme',
        tenantId: expect.any(String),
        scopes: ['partner'],
        clientSecret: expect.stringMatching(SECRET),
      });
      expect(rotated.body.clientSecret).not.toBe(clientSecret);
      secrets.push(rotated.body.clientSecret);

      await http.get('/v1/api/accounts').set(bearer(before.token)).expect(401);
      expect((await token('acme-app', clientSecret)).status).toBe(401);
      const after = await token('acme-app', rotated.body.clientSecret);
      expect(after.status).toBe(200);
      await http.get('/v1/api/accounts').set(bearer(after.token)).expect(200);
      clientSecret = rotated.body.clientSecret;

      const read = await http.get('/admin/clients/acme-app?tenant=acme').set(bearer(admin)).expect(200);
      expect(read.body.secretRotatedAt).toEqual(expect.any(String));
      expect(read.body).not.toHaveProperty('clientSecret');
    });

    it('disables a client (its live token and new tokens refused) and enables it again', async () => {
      const live = (await token('acme-app', clientSecret)).token;
      await http.post('/admin/clients/acme-app/disable?tenant=sandbox-b').set(bearer(admin)).expect(404);

      const disabled = await http
        .post('/admin/clients/acme-app/disable?tenant=acme')
        .set(bearer(admin))
        .expect(200);
      expect(disabled.body).toMatchObject({ clientId: 'acme-app', tenant: 'acme', disabled: true });
      await http.get('/v1/api/accounts').set(bearer(live)).expect(401);
      expect((await token('acme-app', clientSecret)).status).toBe(401);
      const listed = await http.get('/admin/clients?tenant=acme').set(bearer(admin)).expect(200);
      expect(listed.body.clients[0].disabled).toBe(true);

      const enabled = await http
        .post('/admin/clients/acme-app/enable?tenant=acme')
        .set(bearer(admin))
        .expect(200);
      expect(enabled.body).toMatchObject({ clientId: 'acme-app', disabled: false });
      const again = await token('acme-app', clientSecret);
      expect(again.status).toBe(200);
      await http.get('/v1/api/accounts').set(bearer(again.token)).expect(200);

      await http.post('/admin/clients/nobody-app/enable?tenant=acme').set(bearer(admin)).expect(404);
      const noTenant = await http.post('/admin/clients/acme-app/enable').set(bearer(admin)).expect(400);
      expect(Object.keys(noTenant.body.errors)).toEqual(['tenant']);
    });

    it('an admin client cannot disable itself (409); its token still works', async () => {
      const res = await http
        .post('/admin/clients/sandbox-admin/disable?tenant=operator')
        .set(bearer(admin))
        .expect(409);
      expect(res.body.detail).toMatch(/is the client this request is authenticated with/);
      await http.get('/admin/tenants').set(bearer(admin)).expect(200);
    });

    it('no secret reached a log line', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const everything = logs.chunks.join('');
      expect(everything).toMatch(/admin\/clients/); // the requests were logged
      expect(secrets).toHaveLength(3); // acme-app, the ops-two client, the rotation
      for (const secret of secrets) expect(everything).not.toContain(secret);
      expect(everything).not.toMatch(/\$argon2id\$/);
    });
  });

  describe('market-data refresh trigger', () => {
    it('runs the refresh now and says what it wrote: 30 assets quoted, today’s 30 history rows', async () => {
      const res = await http.post('/admin/market/refresh').set(bearer(admin)).expect(200);
      // The sandbox store is current after start-up, so a forced run writes each asset's quote
      // and today's history row only.
      expect(res.body).toEqual({
        status: 'refreshed',
        provider: 'sandbox',
        quotedAssets: 30,
        historyRows: 30,
        errors: [],
        startedAt: NOW.toISOString(),
        finishedAt: NOW.toISOString(),
        durationMs: expect.any(Number),
      });
      expect(res.body.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('while another run holds the lease: 409 saying since when, and nothing runs', async () => {
      const market = app.get(MarketRepository);
      expect(await market.claimJob(MARKET_REFRESH_JOB, 'another-instance', 600, 0)).toBe(true);
      const held = await market.jobState(MARKET_REFRESH_JOB);
      try {
        const res = await http.post('/admin/market/refresh').set(bearer(admin)).expect(409);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(res.body.detail).toBe(
          `A market-data refresh is already running since ${new Date(held!.lastStartedAt!).toISOString()} (the scheduler's or another admin's); its lease ends at ${new Date(held!.leaseUntil!).toISOString()} at the latest. Nothing was started; the data is refreshed when it finishes.`,
        );
        // The other run's lease is untouched.
        expect((await market.jobState(MARKET_REFRESH_JOB))?.owner).toBe('another-instance');
      } finally {
        await market.finishJob(MARKET_REFRESH_JOB, 'another-instance', { failed: false, error: null });
      }
      await http.post('/admin/market/refresh').set(bearer(admin)).expect(200);
    });
  });

  describe('support reads', () => {
    const path = (suffix = '', query = 'tenant=sandbox') =>
      `/admin/support/accounts/${SANDBOX_ACCOUNT}${suffix}?${query}`;

    it('reads an account of the tenant it names, with its state', async () => {
      const res = await http.get(path()).set(bearer(admin)).expect(200);
      expect(res.body).toMatchObject({
        accountId: SANDBOX_ACCOUNT,
        tenant: 'sandbox',
        syncStatus: 'synced',
        hasCredentials: expect.any(Boolean),
      });
    });

    it('balances and transactions are what the tenant’s partner gets, without the envelope', async () => {
      const partnerBalances = await http
        .get(`/v1/api/account/${SANDBOX_ACCOUNT}/balances`)
        .set(bearer(partner))
        .expect(200);
      const balances = await http.get(path('/balances')).set(bearer(admin)).expect(200);
      expect(balances.body).toEqual(partnerBalances.body.result);
      expect(balances.body.balances.length).toBeGreaterThan(0);

      const partnerTransactions = await http
        .get(`/v1/api/account/${SANDBOX_ACCOUNT}/transactions?from=2024-01-01&to=2024-06-30`)
        .set(bearer(partner))
        .expect(200);
      const transactions = await http
        .get(path('/transactions', 'tenant=sandbox&from=2024-01-01&to=2024-06-30'))
        .set(bearer(admin))
        .expect(200);
      expect(transactions.body).toEqual(partnerTransactions.body.result);
      expect(transactions.body.transactions.length).toBeGreaterThan(2);
    });

    it('pages transactions with limit and cursor, as the partner does', async () => {
      const all = await http.get(path('/transactions')).set(bearer(admin)).expect(200);
      const first = await http
        .get(path('/transactions', 'tenant=sandbox&limit=2'))
        .set(bearer(admin))
        .expect(200);
      expect(first.body.transactions).toEqual(all.body.transactions.slice(0, 2));
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await http
        .get(
          path('/transactions', `tenant=sandbox&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`),
        )
        .set(bearer(admin))
        .expect(200);
      expect(second.body.transactions).toEqual(all.body.transactions.slice(2, 4));
    });

    it.each(['', '/balances', '/transactions'])(
      'GET …%s naming another tenant, or an unknown account: 404 alike',
      async (suffix) => {
        const elsewhere = await http.get(path(suffix, 'tenant=sandbox-b')).set(bearer(admin)).expect(404);
        const absent = await http
          .get(`/admin/support/accounts/${NOBODY}${suffix}?tenant=sandbox`)
          .set(bearer(admin))
          .expect(404);
        expect(elsewhere.body.detail).toBe('Account not found.');
        expect(absent.body.detail).toBe('Account not found.');
      },
    );

    it.each(['', '/balances', '/transactions'])(
      'GET …%s: bad input is 400 naming the field',
      async (suffix) => {
        const noTenant = await http.get(path(suffix, '')).set(bearer(admin)).expect(400);
        expect(noTenant.body.errors).toEqual({
          tenant: ['tenant is required: the slug of the tenant this admin request acts on.'],
        });
        const unknown = await http.get(path(suffix, 'tenant=nobody-here')).set(bearer(admin)).expect(400);
        expect(unknown.body.errors).toEqual({ tenant: ['Tenant "nobody-here" does not exist.'] });
        const badId = await http
          .get(`/admin/support/accounts/not-a-uuid${suffix}?tenant=sandbox`)
          .set(bearer(admin))
          .expect(400);
        expect(badId.body.errors).toEqual({ accountId: ['accountId must be a UUID.'] });
      },
    );

    it('never refreshes: forceRefresh is refused; a bad range names its field', async () => {
      const res = await http
        .get(path('/balances', 'tenant=sandbox&forceRefresh=true'))
        .set(bearer(admin))
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['forceRefresh']);
      const range = await http
        .get(path('/transactions', 'tenant=sandbox&from=2024-02-01&to=2024-01-01'))
        .set(bearer(admin))
        .expect(400);
      expect(range.body.errors).toEqual({ to: ['to must not be before from.'] });
    });

    it('records every support read that found data (in the log until the audit trail exists)', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const recorded = logs.chunks
        .join('')
        .split('\n')
        .filter((line) => line.includes('Support read:'));
      for (const what of ['account', 'balances', 'transactions'])
        expect(
          recorded.some((line) =>
            line.includes(
              `Support read: admin client sandbox-admin read the ${what} of account ${SANDBOX_ACCOUNT} in tenant sandbox`,
            ),
          ),
        ).toBe(true);
      // 404s read nothing and are not recorded as reads.
      expect(recorded.some((line) => line.includes('tenant sandbox-b'))).toBe(false);
    });
  });
});
