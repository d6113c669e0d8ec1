/**
 * The request rate limit per client, and the token endpoint's limit per address + clientId
 * (from test/platform.e2e-spec.ts, whose suite had an app of its own with these limits; now the
 * file's, test/e2e/limits.e2e-spec.ts). The requests carry no X-Forwarded-For: the socket's
 * address counts.
 */
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';

describe('rate limiting (e2e)', () => {
  let t: SuiteApp;
  beforeAll(async () => {
    t = await startSuite(
      { RATE_LIMIT_PER_MINUTE: '5', TOKEN_RATE_LIMIT_PER_MINUTE: '3' },
      { tenant: 'rate' },
    );
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
    const other = await t.newTenant('rate-other');
    const otherToken = await t.token(other.clientId, other.secret);
    await t.http.get('/api/status').set('Authorization', `Bearer ${otherToken}`).expect(200);
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
