/**
 * The served OpenAPI document describes what the service really answers (issue #13 item 2): live
 * responses of EVERY operation, a success and at least one error each, are validated against the
 * document by openapi-backend's response validator (ajv; test/support/openapi-validation.ts). The
 * run fails when an operation of the document was not exercised, when a status or media type is
 * not documented for the operation, or when a body does not match its schema. The 429 answers,
 * which need low limits, are checked on the limits file's app (test/e2e/limits/openapi-429.cases.ts).
 *
 * It writes into tenant `sandbox` (accounts, portfolios, lot selections, webhooks, tenants): it
 * comes after the suites that read the sandbox as seeded.
 */
import { computeCostBasis } from '../../../src/domain/cost-basis/index.js';
import { JobQueue } from '../../../src/modules/jobs/index.js';
import { LedgerService } from '../../../src/modules/ledger/index.js';
import { sandboxId, sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { ClientsService, TenantsService } from '../../../src/modules/tenancy/index.js';
import {
  ConnectorRegistry,
  SourceAuthorizationError,
  SourceUnavailableError,
  singlePage,
  type ConnectorRequest,
  type SourceConnector,
} from '../../../src/modules/sources/index.js';
import { WebhookDeliveryWorker } from '../../../src/modules/webhooks/index.js';
import { startSuite } from '../../support/e2e-world.js';
import { DocumentedCalls, METHODS, responseValidator, type Doc } from '../../support/openapi-validation.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
const ACCOUNT = sandboxId('account:sandbox:coinbase-main');
const INCONSISTENT_ACCOUNT = sandboxId('account:sandbox:kraken-legacy');
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('OpenAPI document against live responses (e2e)', () => {
  let t: TestApp;
  let served: Doc;
  let partner: string;
  let admin: string;
  let calls: DocumentedCalls;
  const problems = () => calls.problems;
  const call: DocumentedCalls['call'] = (key, request) => calls.call(key, request);

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    // A loopback port nobody listens on: the link flow's first refresh fails fast, offline.
    t = await startSuite({ ESPLORA_BASE_URL: 'http://127.0.0.1:9' });
    served = (await t.http.get('/docs-json').expect(200)).body;
    calls = new DocumentedCalls(served, await responseValidator(served));
    partner = await t.token();
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
  }, 60_000); // the document made ready for ajv and two tokens: slow on a busy host
  afterAll(() => t.close());
  beforeEach(() => {
    calls.problems.length = 0;
  });

  it('auth operations answer as documented', async () => {
    const token = 'POST /v1/api/token';
    await call(
      token,
      t.http
        .post('/v1/api/token')
        .send({ clientId: SANDBOX.partner.clientId, clientSecret: SANDBOX.partner.secret }),
    );
    await call(
      token,
      t.http.post('/v1/api/token').set({
        clientId: SANDBOX.partner.clientId,
        clientSecret: SANDBOX.partner.secret,
        accept: 'application/json',
      }),
    );
    await call(token, t.http.post('/v1/api/token').send({}));
    await call(
      token,
      t.http.post('/v1/api/token').send({ clientId: SANDBOX.partner.clientId, clientSecret: 'wrong' }),
    );

    const oauth = 'POST /oauth/token';
    await call(
      oauth,
      t.http.post('/oauth/token').type('form').send({
        grant_type: 'client_credentials',
        client_id: SANDBOX.partner.clientId,
        client_secret: SANDBOX.partner.secret,
      }),
    );
    await call(oauth, t.http.post('/oauth/token').type('form').send({ grant_type: 'password' }));
    await call(
      oauth,
      t.http
        .post('/oauth/token')
        .auth(SANDBOX.partner.clientId, 'wrong')
        .type('form')
        .send({ grant_type: 'client_credentials' }),
    );

    await call('GET /.well-known/jwks.json', t.http.get('/.well-known/jwks.json'));
    await call('GET /.well-known/jwks.json', t.http.get('/.well-known/jwks.json?x=%00'));
    expect(problems()).toEqual([]);
  });

  it('account and integrity operations answer as documented (envelope)', async () => {
    const list = await call('GET /v1/api/accounts', t.http.get('/v1/api/accounts').set(bearer(partner)));
    await call('GET /v1/api/accounts', t.http.get('/v1/api/accounts?limit=0').set(bearer(partner)));
    const first = (list.body.result.accounts as { collectionId: string; identity: string }[])[0];

    const collection = 'GET /v1/api/account/collection/{collectionId}';
    await call(
      collection,
      t.http.get(`/v1/api/account/collection/${first.collectionId}`).set(bearer(partner)),
    );
    await call(collection, t.http.get(`/v1/api/account/collection/${NOBODY}`).set(bearer(partner)));
    await call(collection, t.http.get('/v1/api/account/collection/not-a-uuid').set(bearer(partner)));

    const identity = 'GET /v1/api/account/identity/{identity}';
    await call(
      identity,
      t.http.get(`/v1/api/account/identity/${encodeURIComponent(first.identity)}`).set(bearer(partner)),
    );
    await call(identity, t.http.get('/v1/api/account/identity/nobody').set(bearer(partner)));

    const transactions = 'GET /v1/api/account/{accountId}/transactions';
    await call(transactions, t.http.get(`/v1/api/account/${ACCOUNT}/transactions`).set(bearer(partner)));
    await call(
      transactions,
      t.http.get(`/v1/api/account/${ACCOUNT}/transactions?from=2024-01-01&limit=5`).set(bearer(partner)),
    );
    await call(
      transactions,
      t.http.get(`/v1/api/account/${ACCOUNT}/transactions?to=soon`).set(bearer(partner)),
    );
    await call(transactions, t.http.get(`/v1/api/account/${NOBODY}/transactions`).set(bearer(partner)));

    const balances = 'GET /v1/api/account/{accountId}/balances';
    await call(balances, t.http.get(`/v1/api/account/${ACCOUNT}/balances`).set(bearer(partner)));
    await call(balances, t.http.get(`/v1/api/account/${ACCOUNT}/balances`).set(bearer(partner))); // fast path
    await call(balances, t.http.get(`/v1/api/account/${INCONSISTENT_ACCOUNT}/balances`).set(bearer(partner)));
    await call(balances, t.http.get(`/v1/api/account/${NOBODY}/balances`).set(bearer(partner)));

    const checksum = 'GET /v1/api/checksum';
    await call(checksum, t.http.get('/v1/api/checksum').set(bearer(partner)));
    await call(checksum, t.http.get('/v1/api/checksum?collectionId=nope').set(bearer(partner)));
    expect(problems()).toEqual([]);
  });

  it('link flow operations answer as documented (issue 15; envelope)', async () => {
    // A stand-in for an exchange source linked with credentials, as the ccxt sources declare themselves.
    const exchange: SourceConnector = {
      describe: () => ({
        summary: '`openapi-ex` (test)',
        synthetic: false,
        examples: {},
        options: {},
        linking: { platforms: ['openapi-ex'], accepts: ['credentials'] },
      }),
      verifyCredentials: async ({ credentials }: ConnectorRequest) => {
        if (credentials?.['apiKey'] === 'refused') throw new SourceAuthorizationError();
        if (credentials?.['apiKey'] === 'down') throw new SourceUnavailableError();
      },
      fetch: async () => ({ status: 'ready', mode: 'full', pages: singlePage([]), reportedBalances: null }),
    };
    // Registered under a catalogued source name, so the admin answer's `source` is one of its enum.
    const restore = t.app.get(ConnectorRegistry).register('ethereum', exchange);
    try {
      const link = 'POST /v1/api/accounts';
      const post = (body: object) => t.http.post('/v1/api/accounts').set(bearer(partner)).send(body);
      const linked = await call(
        link,
        post({ platform: 'openapi-ex', identity: 'openapi-link', credentials: { apiKey: 'ok' } }),
      );
      expect(linked.status).toBe(202);
      const id = linked.body.result.accountId as string;
      await call(
        link,
        post({
          platform: 'bitcoin',
          identity: 'openapi-btc',
          address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        }),
      );
      await call(link, post({ platform: 'nasdaq', identity: 'x', address: 'bc1q' }));
      await call(
        link,
        post({ platform: 'openapi-ex', identity: 'openapi-link', credentials: { apiKey: 'ok' } }),
      );
      await call(link, post({ platform: 'openapi-ex', identity: 'x', credentials: { apiKey: 'refused' } }));
      await call(link, post({ platform: 'openapi-ex', identity: 'x', credentials: { apiKey: 'down' } }));

      const reconnect = 'PUT /v1/api/accounts/{accountId}/credentials';
      const put = (accountId: string, body: object) =>
        t.http.put(`/v1/api/accounts/${accountId}/credentials`).set(bearer(partner)).send(body);
      await call(reconnect, put(id, { credentials: { apiKey: 'ok-2' } }));
      await call(reconnect, put(id, { credentials: { apiKey: 'refused' } }));
      await call(reconnect, put(NOBODY, { credentials: { apiKey: 'ok' } }));
      await call(reconnect, put(id, {}));

      const adminReconnect = 'PUT /admin/accounts/{accountId}/credentials';
      await call(
        adminReconnect,
        t.http
          .put(`/admin/accounts/${id}/credentials?tenant=sandbox`)
          .set(bearer(admin))
          .send({ credentials: { apiKey: 'ok-3' } }),
      );
      await call(
        adminReconnect,
        t.http
          .put(`/admin/accounts/${NOBODY}/credentials?tenant=sandbox`)
          .set(bearer(admin))
          .send({ credentials: { apiKey: 'ok' } }),
      );

      const unlink = 'DELETE /v1/api/accounts/{accountId}';
      await call(unlink, t.http.delete(`/v1/api/accounts/${id}`).set(bearer(partner)));
      await call(unlink, t.http.delete(`/v1/api/accounts/${id}`).set(bearer(partner)));
      await call(unlink, t.http.delete('/v1/api/accounts/not-a-uuid').set(bearer(partner)));
    } finally {
      restore();
    }
    expect(problems()).toEqual([]);
  });

  it('the partner upload answers as documented (issue 30 item 5; envelope)', async () => {
    const linked = await call(
      'POST /v1/api/accounts',
      t.http
        .post('/v1/api/accounts')
        .set(bearer(partner))
        .send({ platform: 'coinbase', source: 'csv', identity: 'openapi-upload' }),
    );
    expect(linked.status).toBe(202);
    const id = linked.body.result.accountId as string;
    const upload = 'POST /v1/api/accounts/{accountId}/import';
    const post = (accountId: string) =>
      t.http.post(`/v1/api/accounts/${accountId}/import`).set(bearer(partner));
    const csv =
      'transactionId,timestamp,symbol,direction,amount,price,fee,transferId\ntx-1,2024-01-02T03:04:05Z,BTC,buy,0.5,42000.10,12.60,\n';
    expect((await call(upload, post(id).type('text/csv').send(csv))).status).toBe(200);
    expect((await call(upload, post(id).attach('file', Buffer.from('Date,Asset\n'), 'x.csv'))).status).toBe(
      400,
    );
    expect((await call(upload, post(NOBODY).type('text/csv').send(csv))).status).toBe(404);
    expect((await call(upload, post(ACCOUNT).type('text/csv').send(csv))).status).toBe(409);
    expect(
      (await call(upload, post(id).attach('file', Buffer.alloc(20 * 1024 * 1024 + 1, 'a'), 'big.csv')))
        .status,
    ).toBe(413);
    expect((await call(upload, post(id).type('application/json').send({}))).status).toBe(415);
    expect(problems()).toEqual([]);
  });

  it('webhook operations answer as documented (issue 18; envelope)', async () => {
    const other = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    const hooks = '/v1/api/webhooks';
    const create = 'POST /v1/api/webhooks';
    const created = await call(
      create,
      t.http
        .post(hooks)
        .set(bearer(partner))
        .send({ url: 'http://127.0.0.1:9/hooks', eventTypes: ['account.synced'] }),
    );
    const id = (created.body as { result: { id: string } }).result.id;
    await call(
      create,
      t.http
        .post(hooks)
        .set(bearer(partner))
        .send({ url: 'ftp://x', eventTypes: ['account.synced'] }),
    );
    await call('GET /v1/api/webhooks', t.http.get(hooks).set(bearer(partner)));
    await call('GET /v1/api/webhooks', t.http.get(hooks));
    const one = 'GET /v1/api/webhooks/{id}';
    await call(one, t.http.get(`${hooks}/${id}`).set(bearer(partner)));
    await call(one, t.http.get(`${hooks}/${id}`).set(bearer(other)));
    const patch = 'PATCH /v1/api/webhooks/{id}';
    await call(patch, t.http.patch(`${hooks}/${id}`).set(bearer(partner)).send({ description: 'books' }));
    await call(
      patch,
      t.http
        .patch(`${hooks}/${id}`)
        .set(bearer(partner))
        .send({ eventTypes: ['nope'] }),
    );
    const rotate = 'POST /v1/api/webhooks/{id}/rotate-secret';
    await call(rotate, t.http.post(`${hooks}/${id}/rotate-secret`).set(bearer(partner)));
    await call(rotate, t.http.post(`${hooks}/${NOBODY}/rotate-secret`).set(bearer(partner)));
    const test = 'POST /v1/api/webhooks/{id}/test';
    await call(test, t.http.post(`${hooks}/${id}/test`).set(bearer(partner)));
    await call(test, t.http.post(`${hooks}/not-a-uuid/test`).set(bearer(partner)));
    // One attempt (the port refuses): the delivery is listed with its error.
    await t.app.get(WebhookDeliveryWorker).runOnce();
    const list = 'GET /v1/api/webhooks/{id}/deliveries';
    const listed = await call(list, t.http.get(`${hooks}/${id}/deliveries`).set(bearer(partner)));
    await call(list, t.http.get(`${hooks}/${id}/deliveries?limit=0`).set(bearer(partner)));
    const deliveryId = (listed.body as { result: { deliveries: { id: string }[] } }).result.deliveries[0]!.id;
    const replay = 'POST /v1/api/webhooks/{id}/deliveries/{deliveryId}/replay';
    await call(replay, t.http.post(`${hooks}/${id}/deliveries/${deliveryId}/replay`).set(bearer(partner)));
    await call(replay, t.http.post(`${hooks}/${id}/deliveries/${NOBODY}/replay`).set(bearer(partner)));
    const remove = 'DELETE /v1/api/webhooks/{id}';
    await call(remove, t.http.delete(`${hooks}/${id}`).set(bearer(partner)));
    await call(remove, t.http.delete(`${hooks}/${id}`).set(bearer(partner)));
    expect(problems()).toEqual([]);
  });

  it('admin operations answer as documented', async () => {
    const create = 'POST /admin/accounts';
    const created = await call(
      create,
      t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: 'sandbox', platform: 'coinbase', identity: 'openapi-check', source: 'csv' }),
    );
    await call(create, t.http.post('/admin/accounts').set(bearer(admin)).send({ platform: 'coinbase' }));
    const id = created.body.accountId as string;

    await call(
      'GET /admin/accounts',
      t.http.get('/admin/accounts?tenant=sandbox&limit=3').set(bearer(admin)),
    );
    await call('GET /admin/accounts', t.http.get('/admin/accounts?tenant=NOT%20A%20SLUG').set(bearer(admin)));
    await call(
      'GET /admin/accounts/{accountId}',
      t.http.get(`/admin/accounts/${id}?tenant=sandbox`).set(bearer(admin)),
    );
    await call(
      'GET /admin/accounts/{accountId}',
      t.http.get(`/admin/accounts/${NOBODY}?tenant=sandbox`).set(bearer(admin)),
    );

    const importCsv = 'POST /admin/accounts/{accountId}/import';
    const csv =
      'transactionId,timestamp,symbol,direction,amount,price,fee,transferId\ntx-1,2024-01-02T03:04:05Z,BTC,buy,0.5,42000.10,12.60,\n';
    await call(
      importCsv,
      t.http
        .post(`/admin/accounts/${id}/import?tenant=sandbox`)
        .set(bearer(admin))
        .type('text/csv')
        .send(csv),
    );
    await call(
      importCsv,
      t.http
        .post(`/admin/accounts/${id}/import?tenant=sandbox`)
        .set(bearer(admin))
        .type('text/csv')
        .send(`${csv}tx-2,yesterday,BTC,buy,1,1,,\n`),
    );
    // The multipart upload of an exchange export (docs/sources.md, "Export files"): a success, a 413.
    const kraken =
      '"txid","ordertxid","pair","time","type","ordertype","price","cost","fee","vol","margin","misc","ledgers"\n' +
      '"TX-1","OX-1","XXBTZUSD","2024-01-15 12:00:00","buy","limit","42500","4250","6.8","0.1","0","",""\n';
    await call(
      importCsv,
      t.http
        .post(`/admin/accounts/${id}/import?tenant=sandbox`)
        .set(bearer(admin))
        .attach('file', Buffer.from(kraken), 'trades.csv')
        .field('format', 'kraken-trades'),
    );
    await call(
      importCsv,
      t.http
        .post(`/admin/accounts/${id}/import?tenant=sandbox`)
        .set(bearer(admin))
        .attach('file', Buffer.alloc(20 * 1024 * 1024 + 1, 'a'), 'big.csv'),
    );

    const refresh = 'POST /admin/accounts/{accountId}/refresh';
    await call(refresh, t.http.post(`/admin/accounts/${id}/refresh?tenant=sandbox`).set(bearer(admin)));
    await call(refresh, t.http.post(`/admin/accounts/${NOBODY}/refresh?tenant=sandbox`).set(bearer(admin)));

    const remove = 'DELETE /admin/accounts/{accountId}';
    await call(remove, t.http.delete(`/admin/accounts/${id}?tenant=sandbox`).set(bearer(admin)));
    await call(remove, t.http.delete(`/admin/accounts/${id}?tenant=sandbox`).set(bearer(admin)));
    expect(problems()).toEqual([]);
  });

  it('admin tenant, client, market and support operations answer as documented', async () => {
    const tenants = 'POST /admin/tenants';
    await call(
      tenants,
      t.http.post('/admin/tenants').set(bearer(admin)).send({ slug: 'openapi-firm', name: 'OpenAPI Firm' }),
    );
    await call(
      tenants,
      t.http.post('/admin/tenants').set(bearer(admin)).send({ slug: 'openapi-firm', name: 'Again' }),
    );
    await call(tenants, t.http.post('/admin/tenants').set(bearer(admin)).send({ slug: 'X' }));
    await call('GET /admin/tenants', t.http.get('/admin/tenants').set(bearer(admin)));
    await call('GET /admin/tenants', t.http.get('/admin/tenants?x=%00').set(bearer(admin)));
    await call('GET /admin/tenants/{slug}', t.http.get('/admin/tenants/openapi-firm').set(bearer(admin)));
    await call('GET /admin/tenants/{slug}', t.http.get('/admin/tenants/nobody-here').set(bearer(admin)));

    const clients = 'POST /admin/clients';
    await call(
      clients,
      t.http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'openapi-firm', clientId: 'openapi-app' }),
    );
    await call(
      clients,
      t.http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ tenant: 'openapi-firm', clientId: 'openapi-app' }),
    );
    await call(
      clients,
      t.http
        .post('/admin/clients')
        .set(bearer(admin))
        .send({ scopes: ['root'] }),
    );
    await call('GET /admin/clients', t.http.get('/admin/clients?tenant=openapi-firm').set(bearer(admin)));
    await call('GET /admin/clients', t.http.get('/admin/clients?tenant=nobody-here').set(bearer(admin)));
    const one = 'GET /admin/clients/{clientId}';
    await call(one, t.http.get('/admin/clients/openapi-app?tenant=openapi-firm').set(bearer(admin)));
    await call(one, t.http.get('/admin/clients/openapi-app?tenant=sandbox').set(bearer(admin)));
    const rotate = 'POST /admin/clients/{clientId}/rotate';
    await call(
      rotate,
      t.http.post('/admin/clients/openapi-app/rotate?tenant=openapi-firm').set(bearer(admin)),
    );
    await call(rotate, t.http.post('/admin/clients/openapi-app/rotate?tenant=sandbox').set(bearer(admin)));
    const disable = 'POST /admin/clients/{clientId}/disable';
    await call(
      disable,
      t.http.post('/admin/clients/openapi-app/disable?tenant=openapi-firm').set(bearer(admin)),
    );
    await call(
      disable,
      t.http.post('/admin/clients/sandbox-admin/disable?tenant=operator').set(bearer(admin)),
    );
    const enable = 'POST /admin/clients/{clientId}/enable';
    await call(
      enable,
      t.http.post('/admin/clients/openapi-app/enable?tenant=openapi-firm').set(bearer(admin)),
    );
    await call(enable, t.http.post('/admin/clients/openapi-app/enable').set(bearer(admin)));

    const refresh = 'POST /admin/market/refresh';
    await call(refresh, t.http.post('/admin/market/refresh').set(bearer(admin)));
    await call(refresh, t.http.post('/admin/market/refresh?x=%00').set(bearer(admin)));

    const support = (suffix: string, query: string) =>
      t.http.get(`/admin/support/accounts/${ACCOUNT}${suffix}?${query}`).set(bearer(admin));
    for (const [suffix, key] of [
      ['', 'GET /admin/support/accounts/{accountId}'],
      ['/balances', 'GET /admin/support/accounts/{accountId}/balances'],
      ['/transactions', 'GET /admin/support/accounts/{accountId}/transactions'],
    ]) {
      await call(key, support(suffix, 'tenant=sandbox'));
      await call(key, support(suffix, 'tenant=sandbox-b'));
      await call(key, support(suffix, ''));
    }
    await call(
      'GET /admin/support/accounts/{accountId}/balances',
      t.http
        .get(`/admin/support/accounts/${INCONSISTENT_ACCOUNT}/balances?tenant=sandbox`)
        .set(bearer(admin)),
    );
    await call(
      'GET /admin/support/accounts/{accountId}/transactions',
      support('/transactions', 'tenant=sandbox&limit=2'),
    );
    expect(problems()).toEqual([]);
  });

  it('market, scores and portfolio operations answer as documented (problem+json errors)', async () => {
    await call('GET /api/status', t.http.get('/api/status').set(bearer(partner)));
    await call(
      'GET /api/crypto-data/{symbols}',
      t.http.get('/api/crypto-data/bitcoin,ethereum').set(bearer(partner)),
    );
    await call('GET /api/crypto-data/{symbols}', t.http.get('/api/crypto-data/,,,').set(bearer(partner)));
    await call('GET /api/scores', t.http.get('/api/scores').set(bearer(partner)));

    const score = 'POST /api/calculate-portfolio-score';
    await call(
      score,
      t.http
        .post('/api/calculate-portfolio-score')
        .set(bearer(partner))
        .send({ btcAllocation: 50, ethAllocation: 30, solAllocation: 20 }),
    );
    await call(
      score,
      t.http.post('/api/calculate-portfolio-score').set(bearer(partner)).send({ btcAllocation: 50 }),
    );

    await call('GET /api/portfolios', t.http.get('/api/portfolios').set(bearer(partner)));
    const created = await call(
      'POST /api/portfolios',
      t.http
        .post('/api/portfolios')
        .set(bearer(partner))
        .send({ name: 'OpenAPI check', allocations: { BTC: 60, ETH: 40 } }),
    );
    await call(
      'POST /api/portfolios',
      t.http
        .post('/api/portfolios')
        .set(bearer(partner))
        .send({ name: 'Bad', allocations: { BTC: 60 } }),
    );
    // Idempotency-Key: a replay (201), the same key with another body (422).
    const idempotent = (name: string) =>
      t.http
        .post('/api/portfolios')
        .set(bearer(partner))
        .set('Idempotency-Key', 'openapi-check-key')
        .send({ name, allocations: { BTC: 100 } });
    await call('POST /api/portfolios', idempotent('Idempotent'));
    const replayed = await call('POST /api/portfolios', idempotent('Idempotent'));
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    await call('POST /api/portfolios', idempotent('Another body'));
    const id = created.body.id as string;
    const one = 'GET /api/portfolios/{id}';
    await call(one, t.http.get(`/api/portfolios/${id}`).set(bearer(partner)));
    await call(one, t.http.get(`/api/portfolios/${NOBODY}`).set(bearer(partner)));
    const update = 'PUT /api/portfolios/{id}';
    await call(
      update,
      t.http
        .put(`/api/portfolios/${id}`)
        .set(bearer(partner))
        .send({ name: 'Renamed', allocations: { BTC: 100 } }),
    );
    await call(
      update,
      t.http
        .put(`/api/portfolios/${NOBODY}`)
        .set(bearer(partner))
        .send({ name: 'X', allocations: { BTC: 100 } }),
    );
    const remove = 'DELETE /api/portfolios/{id}';
    await call(remove, t.http.delete(`/api/portfolios/${id}`).set(bearer(partner)));
    await call(remove, t.http.delete(`/api/portfolios/${id}`).set(bearer(partner)));
    expect(problems()).toEqual([]);
  });

  it('report, score and projection operations answer as documented (problem+json errors)', async () => {
    const gains = 'GET /taip/gains-report';
    await call(gains, t.http.get('/taip/gains-report?tax_year=2024').set(bearer(partner)));
    await call(gains, t.http.get('/taip/gains-report?tax_year=24').set(bearer(partner)));
    await call(
      gains,
      t.http.get(`/taip/gains-report?tax_year=2024&account_id=${NOBODY}`).set(bearer(partner)),
    );
    const form = 'GET /taip/form-8949';
    await call(form, t.http.get('/taip/form-8949?tax_year=2024').set(bearer(partner)));
    await call(form, t.http.get('/taip/form-8949?tax_year=2024&format=csv').set(bearer(partner)));
    await call(form, t.http.get('/taip/form-8949?tax_year=2024&format=pdf').set(bearer(partner)));

    const lots = 'GET /taip/lots';
    await call(lots, t.http.get(`/taip/lots?account_id=${ACCOUNT}`).set(bearer(partner)));
    await call(lots, t.http.get('/taip/lots?method=average').set(bearer(partner)));
    await call(lots, t.http.get(`/taip/lots?account_id=${NOBODY}`).set(bearer(partner)));
    const electionsView = 'GET /taip/cost-basis-method';
    await call(
      electionsView,
      t.http.get(`/taip/cost-basis-method?account_id=${ACCOUNT}`).set(bearer(partner)),
    );
    await call(
      electionsView,
      t.http.get(`/taip/cost-basis-method?account_id=${NOBODY}`).set(bearer(partner)),
    );
    const electing = 'POST /taip/cost-basis-method';
    // FIFO (the default) from far ahead: the sandbox figures the later cases read do not move.
    await call(
      electing,
      t.http
        .post('/taip/cost-basis-method')
        .set(bearer(partner))
        .send({ method: 'fifo', effective_from: '2099-01-01' }),
    );
    await call(
      electing,
      t.http
        .post('/taip/cost-basis-method')
        .set(bearer(partner))
        .send({ method: 'fifo', effective_from: '2000-01-01' }),
    );
    // Lot selections (issue 19 item 2): the lots FIFO takes anyway for the account's first covered
    // sale, so the sandbox figures the later cases read do not move; then deleted.
    const { entries } = await t.app
      .get(LedgerService)
      .ledgerForAccount(sandboxTenantId('sandbox'), { id: ACCOUNT });
    const fifo = computeCostBasis(entries, { method: 'fifo' }).disposals.filter(
      (x) => x.accountId === ACCOUNT,
    );
    const saleId = fifo.find((x) => x.direction === 'sell')!.transactionId;
    const pieces = fifo.filter((x) => x.transactionId === saleId);
    expect(pieces.every((x) => x.lotOriginTransactionId !== null)).toBe(true);
    const selecting = 'POST /taip/lot-selections';
    const created = await call(
      selecting,
      t.http
        .post('/taip/lot-selections')
        .set(bearer(partner))
        .send({
          account_id: ACCOUNT,
          transaction_id: saleId,
          lots: pieces.map((x) => ({ lot_id: x.lotOriginTransactionId, quantity: x.quantity })),
        }),
    );
    await call(
      selecting,
      t.http
        .post('/taip/lot-selections')
        .set(bearer(partner))
        .send({ account_id: ACCOUNT, transaction_id: saleId, lots: [{ lot_id: 'nope', quantity: '1' }] }),
    );
    const selections = 'GET /taip/lot-selections';
    await call(selections, t.http.get(`/taip/lot-selections?account_id=${ACCOUNT}`).set(bearer(partner)));
    await call(selections, t.http.get(`/taip/lot-selections?account_id=${NOBODY}`).set(bearer(partner)));
    const unselecting = 'DELETE /taip/lot-selections/{id}';
    const selectionId = (created.body as { id: string }).id;
    await call(unselecting, t.http.delete(`/taip/lot-selections/${selectionId}`).set(bearer(partner)));
    await call(unselecting, t.http.delete(`/taip/lot-selections/${selectionId}`).set(bearer(partner)));
    // The safe-harbor allocation (issue 19 item 6): proposed on the sandbox tenant (nothing stored);
    // confirmed on a tenant of its own, so the sandbox figures the later cases read do not move.
    const allocation = 'GET /taip/safe-harbor-allocation';
    await call(allocation, t.http.get('/taip/safe-harbor-allocation').set(bearer(partner)));
    await call(
      allocation,
      t.http.get('/taip/safe-harbor-allocation?universal_method=x').set(bearer(partner)),
    );
    await call(
      allocation,
      t.http.get(`/taip/safe-harbor-allocation?account_id=${NOBODY}`).set(bearer(partner)),
    );
    await t.app.get(TenantsService).createTenant('openapi-safe-harbor', 'Safe-harbor confirmation');
    const shClient = await t.app.get(ClientsService).createClient('openapi-safe-harbor', ['partner']);
    const shPartner = await t.token(shClient.clientId, shClient.clientSecret);
    const confirming = 'POST /taip/safe-harbor-allocation';
    await call(confirming, t.http.post('/taip/safe-harbor-allocation').set(bearer(shPartner)).send({}));
    await call(confirming, t.http.post('/taip/safe-harbor-allocation').set(bearer(shPartner)).send({}));
    await call(
      confirming,
      t.http.post('/taip/safe-harbor-allocation').set(bearer(shPartner)).send({ universal_method: 'x' }),
    );
    const statement = 'GET /taip/client-statement';
    await call(
      statement,
      t.http.get(`/taip/client-statement?tax_year=2024&account_id=${ACCOUNT}`).set(bearer(partner)),
    );
    await call(
      statement,
      t.http.get('/taip/client-statement?tax_year=2024&account_id=x').set(bearer(partner)),
    );
    await call(
      statement,
      t.http.get(`/taip/client-statement?tax_year=2024&account_id=${NOBODY}`).set(bearer(partner)),
    );
    const harvesting = 'GET /taip/harvesting-candidates';
    await call(harvesting, t.http.get('/taip/harvesting-candidates?wash_sale=assume').set(bearer(partner)));
    await call(harvesting, t.http.get('/taip/harvesting-candidates?min_loss=-1').set(bearer(partner)));
    const reconciliation = 'POST /taip/form-1099-da/reconciliation';
    const form1099 = (csv: string) =>
      t.http
        .post('/taip/form-1099-da/reconciliation?tax_year=2024')
        .set(bearer(partner))
        .set('Content-Type', 'text/csv')
        .send(csv);
    await call(
      reconciliation,
      form1099(
        'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference\nBTC,0.1,,2024-05-01,6000.00,,,R-1\n',
      ),
    );
    await call(reconciliation, form1099('asset,units\nBTC,1\n'));
    await call(
      reconciliation,
      t.http.post('/taip/form-1099-da/reconciliation?tax_year=2024').set(bearer(partner)).send({ csv: 'x' }),
    );

    const evaluate = 'POST /qscore/evaluate';
    await call(
      evaluate,
      t.http
        .post('/qscore/evaluate')
        .set(bearer(partner))
        .send({ account_id: ACCOUNT, as_of_date: '2025-01-01' }),
    );
    await call(evaluate, t.http.post('/qscore/evaluate').set(bearer(partner)).send({ account_id: ACCOUNT }));
    await call(
      evaluate,
      t.http
        .post('/qscore/evaluate')
        .set(bearer(partner))
        .send({ account_id: NOBODY, as_of_date: '2025-01-01' }),
    );

    await call('GET /portfolio/summary', t.http.get('/portfolio/summary').set(bearer(partner)));
    await call(
      'GET /portfolio/summary',
      t.http.get(`/portfolio/summary?account_id=${ACCOUNT}`).set(bearer(partner)),
    );
    await call(
      'GET /portfolio/summary',
      t.http.get('/portfolio/summary?account_id=nope').set(bearer(partner)),
    );
    await call('GET /qeychain/wallets', t.http.get('/qeychain/wallets?limit=2').set(bearer(partner)));
    await call('GET /qeychain/wallets', t.http.get('/qeychain/wallets?limit=201').set(bearer(partner)));

    const simulate = 'POST /qsim/simulate';
    await call(
      simulate,
      t.http
        .post('/qsim/simulate')
        .set(bearer(partner))
        .send({
          portfolio: [{ symbol: 'BTC', weight: 1 }],
          horizon_years: 2,
          scenarios: ['bull', 'base', 'bear'],
          seed: 7,
        }),
    );
    await call(
      simulate,
      t.http
        .post('/qsim/simulate')
        .set(bearer(partner))
        .send({ portfolio: [{ symbol: 'BTC', weight: 0.5 }], horizon_years: 2, scenarios: ['base'] }),
    );
    const putAssumption = 'PUT /qsim/assumptions/{symbol}';
    await call(
      putAssumption,
      t.http
        .put('/qsim/assumptions/ETH')
        .set(bearer(partner))
        .send({ expected_return: 0.06, volatility: 0.7 }),
    );
    await call(
      putAssumption,
      t.http.put('/qsim/assumptions/ETH').set(bearer(partner)).send({ expected_return: 3 }),
    );
    await call('GET /qsim/assumptions', t.http.get('/qsim/assumptions').set(bearer(partner)));
    const deleteAssumption = 'DELETE /qsim/assumptions/{symbol}';
    await call(deleteAssumption, t.http.delete('/qsim/assumptions/ETH').set(bearer(partner)));
    await call(deleteAssumption, t.http.delete('/qsim/assumptions/ETH').set(bearer(partner)));
    const roi = 'GET /roi/projection';
    await call(roi, t.http.get('/roi/projection?principal_usd=10000&horizon_years=5').set(bearer(partner)));
    await call(roi, t.http.get('/roi/projection?principal_usd=10000&horizon_years=500').set(bearer(partner)));
    expect(problems()).toEqual([]);
  });

  it('audit trail and report snapshot operations answer as documented (issue 18 items 4 and 6)', async () => {
    // Fresh tokens: earlier cases revoke the suite's (client disable/rotate).
    const partnerNow = await t.token();
    const adminNow = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    const snapshots = 'POST /v1/api/report-snapshots';
    const created = await call(
      snapshots,
      t.http
        .post('/v1/api/report-snapshots')
        .set(bearer(partnerNow))
        .send({ kind: 'gains', taxYear: 2024, accountId: ACCOUNT }),
    );
    await call(
      snapshots,
      t.http
        .post('/v1/api/report-snapshots')
        .set(bearer(partnerNow))
        .send({ kind: 'form8949', taxYear: 2024 }),
    );
    await call(
      snapshots,
      t.http.post('/v1/api/report-snapshots').set(bearer(partnerNow)).send({ kind: 'pdf', taxYear: 2024 }),
    );
    await call(
      snapshots,
      t.http
        .post('/v1/api/report-snapshots')
        .set(bearer(partnerNow))
        .send({ kind: 'gains', taxYear: 2024, accountId: NOBODY }),
    );
    expect(created.status).toBe(201);
    const one = 'GET /v1/api/report-snapshots/{snapshotId}';
    await call(one, t.http.get(`/v1/api/report-snapshots/${created.body.result.id}`).set(bearer(partnerNow)));
    await call(one, t.http.get(`/v1/api/report-snapshots/${NOBODY}`).set(bearer(partnerNow)));
    await call(one, t.http.get('/v1/api/report-snapshots/x').set(bearer(partnerNow)));
    const list = 'GET /v1/api/report-snapshots';
    await call(list, t.http.get('/v1/api/report-snapshots?limit=1').set(bearer(partnerNow)));
    await call(list, t.http.get('/v1/api/report-snapshots?limit=0').set(bearer(partnerNow)));

    const audit = 'GET /admin/audit';
    await call(audit, t.http.get('/admin/audit?limit=5').set(bearer(adminNow)));
    await call(
      audit,
      t.http.get(`/admin/audit?accountId=${ACCOUNT}&from=2020-01-01T00:00:00Z`).set(bearer(adminNow)),
    );
    await call(audit, t.http.get('/admin/audit?limit=5000').set(bearer(adminNow)));
    await call(audit, t.http.get('/admin/audit').set(bearer(partnerNow)));
    const exported = 'GET /admin/audit/export';
    await call(exported, t.http.get('/admin/audit/export?format=csv').set(bearer(adminNow)));
    await call(exported, t.http.get('/admin/audit/export?format=jsonl').set(bearer(adminNow)));
    await call(exported, t.http.get('/admin/audit/export').set(bearer(adminNow)));
    const verify = 'GET /admin/audit/verify';
    await call(verify, t.http.get('/admin/audit/verify').set(bearer(adminNow)));
    await call(verify, t.http.get('/admin/audit/verify'));
    expect(problems()).toEqual([]);
  });

  it('job queue operations answer as documented (issue 18 item 3)', async () => {
    const adminNow = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    const queue = t.app.get(JobQueue);
    const name = 'openapi.fails';
    await queue.define({
      name,
      policy: 'standard',
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      expireInSeconds: 60,
      deleteAfterSeconds: 3600,
      deadLetter: true,
    });
    await queue.work(name, { concurrency: 1 }, async () => {
      throw new Error('fails on purpose');
    });
    const id = (await queue.send(name, {}))!;
    await queue.drain(name);
    const list = 'GET /admin/queues';
    await call(list, t.http.get('/admin/queues').set(bearer(adminNow)));
    await call(list, t.http.get('/admin/queues'));
    const jobs = 'GET /admin/queues/{name}/jobs';
    await call(jobs, t.http.get(`/admin/queues/${name}/jobs?state=failed`).set(bearer(adminNow)));
    await call(jobs, t.http.get(`/admin/queues/${name}/jobs?state=lost`).set(bearer(adminNow)));
    await call(jobs, t.http.get('/admin/queues/no.such.queue/jobs').set(bearer(adminNow)));
    const retry = 'POST /admin/queues/{name}/jobs/{id}/retry';
    await call(retry, t.http.post(`/admin/queues/${name}/jobs/${id}/retry`).set(bearer(adminNow)));
    await call(retry, t.http.post(`/admin/queues/${name}/jobs/${id}/retry`).set(bearer(adminNow)));
    await call(retry, t.http.post(`/admin/queues/${name}/jobs/${NOBODY}/retry`).set(bearer(adminNow)));
    await call(retry, t.http.post(`/admin/queues/${name}/jobs/x/retry`).set(bearer(adminNow)));
    expect(problems()).toEqual([]);
  });

  it('every secured operation answers 401 without a token and 403 without its scope; every body operation 413 past the limit', async () => {
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const key = `${method.toUpperCase()} ${path}`;
        const url = path.replace(/\{[^}]+\}/g, (name) => (name === '{symbols}' ? 'bitcoin' : ACCOUNT));
        const send = (token?: string) => {
          const request = t.http[method as 'get'](url);
          return token ? request.set(bearer(token)) : request;
        };
        if ((op.security ?? []).length) {
          const noToken = await call(key, send());
          expect([key, noToken.status]).toEqual([key, 401]);
          const wrongScope = await call(key, send(path.startsWith('/admin/') ? partner : admin));
          if (path.startsWith('/admin/')) expect([key, wrongScope.status]).toEqual([key, 403]);
        }
        if (op.requestBody) {
          const tooLarge = await call(
            key,
            send((op.security ?? []).length ? partner : undefined)
              .type('json')
              .send(JSON.stringify({ padding: 'x'.repeat(110_000) })),
          );
          expect([key, tooLarge.status]).toEqual([key, 413]);
        }
      }
    }
    expect(problems()).toEqual([]);
  });

  it('exercised every operation of the document with a success and an error', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(served.paths)) {
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        const key = `${method.toUpperCase()} ${path}`;
        const seen = calls.outcomes.get(key);
        if (!seen?.success.length) missing.push(`${key}: no success`);
        if (!seen?.error.length) missing.push(`${key}: no error`);
      }
    }
    expect(missing).toEqual([]);
    // 31 + GET, PUT and DELETE of /qsim/assumptions (issue 20) + the 13 admin API operations of issue 17 item 4
    // + the link flow's POST, PUT credentials and DELETE of /v1/api/accounts and the admin reconnect (issue 15)
    // + open lots, harvesting candidates and the Form 1099-DA reconciliation (issue 19)
    // + the 9 webhook operations of /v1/api/webhooks (issue 18)
    // + the audit trail's query, export and verify and the report snapshots' create, list and read (issue 18)
    // + GET and POST /taip/cost-basis-method (issue 19)
    // + POST, GET and DELETE /taip/lot-selections (issue 19 item 2)
    // + GET and POST /taip/safe-harbor-allocation (issue 19 item 6)
    // + the job queue's GET /admin/queues, its jobs and a job's retry (issue 18 item 3)
    // + the partner upload POST /v1/api/accounts/{accountId}/import (issue 30 item 5)
    // + the client statement GET /taip/client-statement (issue 31 item 5).
    expect(calls.outcomes.size).toBe(31 + 3 + 13 + 4 + 3 + 9 + 6 + 2 + 3 + 2 + 3 + 1 + 1);
  });
});
