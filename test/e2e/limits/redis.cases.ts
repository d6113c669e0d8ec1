/**
 * The limits' Redis (design §12), on applications of their own (their REDIS_URL is not the
 * file's): unreachable, the limits carry on in memory, never a wait or a 500 (issue 27 item 12);
 * shared by two instances (the PostgreSQL pass, which has Redis), one counter for both.
 * From test/platform.e2e-spec.ts and test/token-limits.e2e-spec.ts; the two instances, one pair
 * for both files' checks now (their limits do not meet: one counts a client's requests, the other
 * failures per forwarded address).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { jest } from '@jest/globals';
import { ClientsService, TenantsService } from '../../../src/modules/tenancy/index.js';
import { createTestSchema, SANDBOX, startTestApp, type TestApp } from '../../support/test-app.js';

const prefix = () => `t${randomBytes(4).toString('hex')}`;

/** A tenant of `kind` and a client of it with `scope`, through the services. */
async function clientOf(t: TestApp, slug: string, kind: 'partner' | 'operator', scope: 'partner' | 'admin') {
  await t.app.get(TenantsService).createTenant(slug, `E2E ${slug}`, kind);
  const issued = await t.app.get(ClientsService).createClient(slug, [scope]);
  return { clientId: issued.clientId, secret: issued.clientSecret };
}

describe('Redis unreachable: a server that accepts and never answers (e2e)', () => {
  let t: TestApp;
  let silent: Server;
  let partner: { clientId: string; secret: string };
  let admin: { clientId: string; secret: string };
  const sockets = new Set<Socket>();
  const consoleError = jest.spyOn(console, 'error');
  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.add(socket); // held open, never answered
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({
      SANDBOX: 'false',
      REDIS_URL: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      RATE_LIMIT_PER_MINUTE: '4',
      RATE_LIMIT_PREFIX: prefix(),
    });
    partner = await clientOf(t, 'redis-down', 'partner', 'partner');
    admin = await clientOf(t, 'redis-down-ops', 'operator', 'admin');
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
      t.http.post('/v1/api/token').send({ clientId: partner.clientId, clientSecret: partner.secret }),
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
    const adminToken = await t.token(admin.clientId, admin.secret);
    const metrics = await t.http.get('/metrics').set('Authorization', `Bearer ${adminToken}`).expect(200);
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
      TRUST_PROXY: 'loopback',
      TOKEN_RATE_LIMIT_PER_MINUTE: '2',
      BEARER_FAILURES_PER_MINUTE: '2',
      RATE_LIMIT_PREFIX: prefix(),
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

  describe('failure limits across instances sharing Redis (e2e)', () => {
    const guess = (t: TestApp, clientId: string, from: string) =>
      t.http
        .post('/v1/api/token')
        .set('X-Forwarded-For', from)
        .send({ clientId, clientSecret: `wrong-${randomBytes(4).toString('hex')}` });

    it('counts wrong secrets and invalid bearer tokens once for both instances', async () => {
      await guess(a, SANDBOX.partner.clientId, '203.0.113.70').expect(401);
      await guess(b, SANDBOX.partner.clientId, '203.0.113.70').expect(401);
      const limited = await guess(a, SANDBOX.partner.clientId, '203.0.113.70').expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      await b.http
        .post('/v1/api/token')
        .set('X-Forwarded-For', '203.0.113.71')
        .send({ clientId: SANDBOX.partner.clientId, clientSecret: SANDBOX.partner.secret })
        .expect(200);

      await a.http.get('/api/status').set('X-Forwarded-For', '203.0.113.72').expect(401);
      await b.http.get('/api/status').set('X-Forwarded-For', '203.0.113.72').expect(401);
      await a.http.get('/api/status').set('X-Forwarded-For', '203.0.113.72').expect(429);
    });
  });
});
