/**
 * The limits' Redis (design §12) shared by two instances (the PostgreSQL pass, which has Redis):
 * one counter for both, and a token of one instance works on the other. Two applications of their
 * own by nature; one pair for both old files' checks (test/platform.e2e-spec.ts and
 * test/token-limits.e2e-spec.ts: their limits do not meet, one counts a client's requests, the
 * other failures per forwarded address). Redis unreachable is shown without an application:
 * test/services/rate-limit-redis.service.spec.ts (memory within a second, one warning, no raw
 * ioredis line, the metrics, what readiness reads) and src/modules/status/rate-limits-readiness.spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { createTestSchema, SANDBOX, startTestApp, type TestApp } from '../../support/test-app.js';

const prefix = () => `t${randomBytes(4).toString('hex')}`;

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
