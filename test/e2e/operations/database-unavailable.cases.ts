/**
 * A database that refuses connections (issue 13, item 7) answers 503 with Retry-After on every
 * route, the token endpoints included, never 401 (a client would drop a good token) or 500. The
 * outage is injected where both drivers (pg and the PGlite adapter) hand out connections: the
 * pool's `connect` fails with a Postgres error carrying the SQLSTATE, as pg does when the server
 * says so at connection time. test/faults-database.e2e-spec.ts breaks a real TCP link instead.
 * The outage lasts one test at most (`afterEach` gives the pool its `connect` back).
 */
import { DataSource } from 'typeorm';
import { ClientsService } from '../../../src/modules/tenancy/index.js';
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';

interface Pool {
  connect(callback: (error: Error | null, client?: unknown, release?: () => void) => void): void;
}

/** SQLSTATEs of a server that cannot take the query now (PostgreSQL appendix A, classes 08, 53, 55, 57, 3D). */
const UNAVAILABLE: Array<[string, string]> = [
  ['55000', 'object not in prerequisite state'],
  ['53300', 'sorry, too many clients already'],
  ['3D000', 'database "app" does not exist'],
  ['57P01', 'terminating connection due to administrator command'],
  ['57P02', 'terminating connection due to crash shutdown'],
  ['57P03', 'the database system is not yet accepting connections'],
  ['08006', 'connection failure'],
  ['08P01', 'protocol violation'],
];

describe('database unavailable: 503 with Retry-After everywhere (e2e)', () => {
  let t: SuiteApp;
  let pool: Pool;
  let connect: Pool['connect'];
  const accountId = sandboxId('account:sandbox:kraken-trading');
  const balances = `/v1/api/account/${accountId}/balances`;

  beforeAll(async () => {
    t = await startSuite({ RATE_LIMIT_PER_MINUTE: '100000' });
    pool = (t.app.get(DataSource).driver as unknown as { master: Pool }).master;
    connect = pool.connect.bind(pool);
    // The suites before this one used the sandbox client: forget its "client is enabled" memo
    // (5 s), so the guard asks the database, as on an app of its own.
    (t.app.get(ClientsService) as unknown as { activeCache: Map<string, unknown> }).activeCache.clear();
  });
  afterEach(() => {
    pool.connect = connect;
  });
  afterAll(() => t.close());

  /** From now on every new database connection fails with this SQLSTATE. */
  const refuse = (code: string, message: string) => {
    pool.connect = (callback) => {
      const error = Object.assign(new Error(message), { code, severity: 'FATAL' });
      setImmediate(() => callback(error));
    };
  };

  it.each(UNAVAILABLE)(
    'SQLSTATE %s (%s): a valid bearer token gets 503 + Retry-After, not 401',
    async (code, message) => {
      const token = await t.token(); // issued while the database is up, never used yet
      refuse(code, message);
      const res = await t.http.get('/api/status').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['www-authenticate']).toBeUndefined();
    },
  );

  it('the bearer route answers problem+json outside /v1/api', async () => {
    const token = await t.token();
    refuse('55000', 'object not in prerequisite state');
    const res = await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.6.4',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The database is unavailable; retry shortly.',
      instance: '/api/status',
      traceId: res.headers['x-request-id'],
    });
  });

  it('a cached balances read with a token not yet seen gets the envelope with 503', async () => {
    const warm = await t.token();
    await t.http.get(balances).set('Authorization', `Bearer ${warm}`).expect(200);
    await t.http.get(balances).set('Authorization', `Bearer ${warm}`).expect(200); // cached now
    const fresh = await t.token(SANDBOX.partner.clientId, SANDBOX.partner.secret);
    // The "client is enabled" memo lasts 5 s; forget it so the guard must ask the database.
    (t.app.get(ClientsService) as unknown as { activeCache: Map<string, unknown> }).activeCache.clear();
    refuse('55000', 'object not in prerequisite state');
    const res = await t.http.get(balances).set('Authorization', `Bearer ${fresh}`).expect(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      isError: true,
      message: 'The database is unavailable; retry shortly.',
      statusCode: 503,
      result: null,
      responseException: {
        exceptionMessage: {
          type: 'https://tools.ietf.org/html/rfc9110#section-15.6.4',
          title: 'Service Unavailable',
          status: 503,
          detail: 'The database is unavailable; retry shortly.',
          instance: balances,
          traceId: res.headers['x-request-id'],
        },
      },
    });
  });

  it.each(UNAVAILABLE)(
    'SQLSTATE %s: POST /v1/api/token answers 503 in the envelope',
    async (code, message) => {
      refuse(code, message);
      const res = await t.http
        .post('/v1/api/token')
        .send({ clientId: SANDBOX.partner.clientId, clientSecret: SANDBOX.partner.secret });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({
        isError: true,
        statusCode: 503,
        result: null,
        responseException: {
          exceptionMessage: {
            status: 503,
            title: 'Service Unavailable',
            detail: 'The database is unavailable; retry shortly.',
          },
        },
      });
    },
  );

  it.each(UNAVAILABLE)(
    'SQLSTATE %s: POST /oauth/token answers 503 temporarily_unavailable',
    async (code, message) => {
      refuse(code, message);
      const res = await t.http.post('/oauth/token').type('form').send({
        grant_type: 'client_credentials',
        client_id: SANDBOX.partner.clientId,
        client_secret: SANDBOX.partner.secret,
      });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'The database is unavailable; retry shortly.',
      });
    },
  );

  it('an unrelated SQL error is still a 500 without SQL text', async () => {
    const token = await t.token();
    refuse('42P01', 'relation "api_client" does not exist');
    const res = await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(500);
    expect(JSON.stringify(res.body)).not.toContain('api_client');
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('answers again once the database is back', async () => {
    const token = await t.token();
    await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(200);
  });
});
