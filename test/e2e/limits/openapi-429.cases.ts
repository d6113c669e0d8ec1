/**
 * The 429 answers of the OpenAPI check (test/e2e/contract/openapi-responses.cases.ts): the
 * envelope, problem+json and RFC 6749 bodies of a refused request match the document, with
 * Retry-After. They need low limits, which this file's app has (the suite used to start an app of
 * its own with limits of 2 for it).
 */
import type { Test } from 'supertest';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { DocumentedCalls, responseValidator } from '../../support/openapi-validation.js';

describe('OpenAPI document against live responses (e2e)', () => {
  let t: SuiteApp;
  let calls: DocumentedCalls;
  beforeAll(async () => {
    t = await startSuite(
      { RATE_LIMIT_PER_MINUTE: '5', TOKEN_RATE_LIMIT_PER_MINUTE: '3' },
      { tenant: 'openapi' },
    );
    const served = (await t.http.get('/docs-json').expect(200)).body;
    calls = new DocumentedCalls(served, await responseValidator(served));
  });
  afterAll(() => t.close());

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('429 answers (envelope, problem+json, RFC 6749) are documented, with Retry-After', async () => {
    const token = await t.token();
    // Up to 80 tries: limits other than these three (per source address, say) may come first.
    const untilLimited = async (key: string, send: () => Test) => {
      for (let attempt = 0; attempt < 80; attempt++) {
        const res = await calls.call(key, send());
        if (res.status === 429) {
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expect(calls.operation(key).responses['429']).toMatchObject({
            headers: { 'Retry-After': expect.any(Object) },
          });
          return;
        }
      }
      throw new Error(`${key}: never limited`);
    };
    await untilLimited('GET /api/status', () => t.http.get('/api/status').set(bearer(token)));
    await untilLimited('GET /v1/api/accounts', () => t.http.get('/v1/api/accounts').set(bearer(token)));
    const other = await t.newTenant('openapi-other');
    await untilLimited('POST /v1/api/token', () =>
      t.http.post('/v1/api/token').send({ clientId: other.clientId, clientSecret: 'wrong' }),
    );
    await untilLimited('POST /oauth/token', () =>
      t.http
        .post('/oauth/token')
        .auth(other.clientId, 'wrong')
        .type('form')
        .send({ grant_type: 'client_credentials' }),
    );
    expect(calls.problems).toEqual([]);
  });
});
