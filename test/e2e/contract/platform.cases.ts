/**
 * The platform edge (from test/platform.e2e-spec.ts): request ids, the error bodies of unknown
 * routes, malformed and oversized bodies, /api/status and the health endpoints. And the token
 * endpoint's X-Forwarded-For without trusted proxies (from test/token-limits.e2e-spec.ts): this
 * file's app trusts none (TRUST_PROXY unset, the default). The limits themselves, behind a
 * trusted proxy, are test/e2e/limits.e2e-spec.ts's.
 */
import { randomBytes } from 'node:crypto';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

describe('platform: envelope, errors, status, limits (e2e)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startSuite();
    token = await t.token();
  });
  afterAll(() => t.close());

  it('echoes a caller-supplied X-Request-Id as the traceId', async () => {
    const res = await t.http.get('/nope').set('X-Request-Id', 'partner-trace-123').expect(404);
    expect(res.headers['x-request-id']).toBe('partner-trace-123');
    expect(res.body.traceId).toBe('partner-trace-123');
  });

  it('replaces an unsafe X-Request-Id with a generated one', async () => {
    const res = await t.http.get('/nope').set('X-Request-Id', 'bad id with spaces').expect(404);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route with problem+json 404', async () => {
    const res = await t.http.get('/api/does-not-exist').set('Authorization', `Bearer ${token}`).expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
      title: 'Not Found',
      status: 404,
      detail: 'No route for GET /api/does-not-exist.',
      instance: '/api/does-not-exist',
      traceId: res.headers['x-request-id'],
    });
  });

  it('answers an unknown /v1/api route with the error envelope', async () => {
    const res = await t.http.get('/v1/api/nothing-here').set('Authorization', `Bearer ${token}`).expect(404);
    expect(res.body).toMatchObject({
      isError: true,
      statusCode: 404,
      result: null,
      responseException: {
        exceptionMessage: { status: 404, title: 'Not Found', traceId: res.headers['x-request-id'] },
      },
    });
  });

  it('answers malformed JSON with 400 naming the body, in the envelope under /v1/api', async () => {
    const res = await t.http
      .post('/v1/api/token')
      .set('Content-Type', 'application/json')
      .send('{"clientId": ')
      .expect(400);
    expect(res.body).toMatchObject({
      isError: true,
      statusCode: 400,
      result: null,
      responseException: {
        exceptionMessage: {
          status: 400,
          errors: { body: ['The request body is not valid JSON.'] },
          traceId: res.headers['x-request-id'],
        },
      },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/Unexpected|position|SyntaxError/);
  });

  it('answers a body over 100 kB with 413', async () => {
    const big = JSON.stringify({ clientId: 'x'.repeat(110 * 1024), clientSecret: 'y' });
    const res = await t.http
      .post('/v1/api/token')
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    expect(res.body.responseException.exceptionMessage).toMatchObject({
      status: 413,
      title: 'Payload Too Large',
    });
  });

  it('answers errors outside /v1/api as problem+json without stack or internals', async () => {
    const res = await t.http.get('/api/status').expect(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Object.keys(res.body).sort()).toEqual([
      'detail',
      'instance',
      'status',
      'title',
      'traceId',
      'type',
    ]);
  });

  it('reports status with the caller’s real remaining quota', async () => {
    const first = await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(200);
    expect(Object.keys(first.body).sort()).toEqual([
      'rateLimitRemaining',
      'status',
      'uptimeSeconds',
      'version',
    ]);
    expect(first.body).toMatchObject({ status: 'ok', version: '2026.04.1' });
    expect(Number.isInteger(first.body.uptimeSeconds)).toBe(true);
    expect(first.body.rateLimitRemaining).toBe(Number(first.headers['ratelimit-remaining']));
    const second = await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(200);
    expect(second.body.rateLimitRemaining).toBe(first.body.rateLimitRemaining - 1);
  });

  it('serves liveness and readiness without a token', async () => {
    await t.http.get('/health/live').expect(200, { status: 'ok' });
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.info.database.status).toBe('up');
  });
});

describe('token endpoint without trusted proxies (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startSuite();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: a new forged address does not get a fresh counter', async () => {
    // Failures are counted per address (and per address + clientId); every answer says how many
    // the tightest of the two has left (RateLimit-Remaining). Honoured, each forged address would
    // start a counter of its own and leave the same number; ignored, they all count against the
    // one socket address. (This file's limits are high: the 429 beyond them is the limits file's.)
    const left = async (from: string) => {
      const res = await t.http
        .post('/v1/api/token')
        .set('X-Forwarded-For', from)
        .send({ clientId: 'sandbox-client', clientSecret: `wrong-${randomBytes(4).toString('hex')}` })
        .expect(401);
      return Number(res.headers['ratelimit-remaining']);
    };
    const first = await left('203.0.113.1');
    expect(first).toBeGreaterThan(2);
    expect(await left('203.0.113.2')).toBe(first - 1);
    expect(await left('203.0.113.99')).toBe(first - 2);
  });
});
