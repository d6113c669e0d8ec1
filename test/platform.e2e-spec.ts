import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { jest } from '@jest/globals';
import { createTestSchema, SANDBOX, startTestApp, type TestApp } from './support/test-app.js';

describe('platform: envelope, errors, status, limits (e2e)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
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

describe('rate limiting (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_PER_MINUTE: '5',
      TOKEN_RATE_LIMIT_PER_MINUTE: '3',
      RATE_LIMIT_PREFIX: `t${randomBytes(4).toString('hex')}`,
    });
  });
  afterAll(() => t.close());

  it('counts every request of a client and answers 429 with Retry-After', async () => {
    const token = await t.token();
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.http.get('/api/status').set('Authorization', `Bearer ${token}`);
      seen.push(Number(res.headers['ratelimit-remaining']));
      expect(res.headers['ratelimit-limit']).toBe('5');
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const limited = await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
    // Another client has its own quota.
    const other = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    await t.http.get('/api/status').set('Authorization', `Bearer ${other}`).expect(200);
  });

  it('limits the token endpoint by IP and clientId', async () => {
    for (let i = 0; i < 3; i++) {
      await t.http
        .post('/v1/api/token')
        .send({ clientId: 'guess-target', clientSecret: `guess-${i}` })
        .expect(401);
    }
    const res = await t.http
      .post('/v1/api/token')
      .send({ clientId: 'guess-target', clientSecret: 'guess-4' })
      .expect(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.body).toMatchObject({ isError: true, statusCode: 429 });
  });
});

// Design §12: Redis down → the limits carry on in memory, never a wait or a 500 (issue 27 item 12).
describe('Redis unreachable: a server that accepts and never answers (e2e)', () => {
  let t: TestApp;
  let silent: Server;
  const sockets = new Set<Socket>();
  const consoleError = jest.spyOn(console, 'error');
  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.add(socket); // held open, never answered
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({
      REDIS_URL: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      RATE_LIMIT_PER_MINUTE: '4',
      RATE_LIMIT_PREFIX: `t${randomBytes(4).toString('hex')}`,
    });
  });
  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    consoleError.mockRestore();
  });

  const timed = async <T>(call: () => PromiseLike<T>) => {
    const startedAt = performance.now();
    const answer = await call();
    return { answer, ms: performance.now() - startedAt };
  };

  it('answers within a second, limits in memory, readiness says so, no raw ioredis lines', async () => {
    const issued = await timed(() =>
      t.http.post('/v1/api/token').send({
        clientId: SANDBOX.partner.clientId,
        clientSecret: SANDBOX.partner.secret,
      }),
    );
    expect(issued.answer.status).toBe(200);
    expect(issued.ms).toBeLessThan(1_000);
    const token = issued.answer.body.result.accessToken as string;
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const { answer, ms } = await timed(() =>
        t.http.get('/api/status').set('Authorization', `Bearer ${token}`),
      );
      expect(ms).toBeLessThan(1_000);
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);

    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.info.rateLimits).toEqual({ status: 'up', store: 'memory', redis: 'unreachable' });
    const admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    const metrics = await t.http.get('/metrics').set('Authorization', `Bearer ${admin}`).expect(200);
    expect(metrics.text).toMatch(/^cas_redis_up 0$/m);
    expect(metrics.text).toMatch(/^cas_rate_limit_memory_fallbacks_total [1-9]\d*$/m);
    expect(
      consoleError.mock.calls.filter((call) => String(call[0]).includes('[ioredis] Unhandled error event')),
    ).toEqual([]);
  });
});

// Two instances = one Postgres + one Redis; runs in the CI pass that has both.
const describeWithRedis = process.env.REDIS_URL && process.env.DATABASE_URL ? describe : describe.skip;

describeWithRedis('two instances sharing Postgres and Redis (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  let schema: { schema: string; drop: () => Promise<void> };
  beforeAll(async () => {
    schema = await createTestSchema();
    const overrides = {
      REDIS_URL: process.env.REDIS_URL!,
      RATE_LIMIT_PER_MINUTE: '4',
      RATE_LIMIT_PREFIX: `t${randomBytes(4).toString('hex')}`,
    };
    a = await startTestApp(overrides, { schema: schema.schema });
    b = await startTestApp(overrides, { schema: schema.schema });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  it('shares one rate-limit counter, and a token from one instance works on the other', async () => {
    const tokenA = await a.token();
    const tokenB = tokenA;
    await a.http.get('/api/status').set('Authorization', `Bearer ${tokenA}`).expect(200);
    await a.http.get('/api/status').set('Authorization', `Bearer ${tokenA}`).expect(200);
    const third = await b.http.get('/api/status').set('Authorization', `Bearer ${tokenB}`).expect(200);
    expect(third.body.rateLimitRemaining).toBe(1);
    await b.http.get('/api/status').set('Authorization', `Bearer ${tokenB}`).expect(200);
    await a.http.get('/api/status').set('Authorization', `Bearer ${tokenA}`).expect(429);
  });
});
