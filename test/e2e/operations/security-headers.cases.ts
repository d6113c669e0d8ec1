/**
 * Security headers (issue #13 item 12, helmet): every answer says `X-Content-Type-Options: nosniff`
 * and never `X-Powered-By`, envelope and problem bodies alike, the cached balances fast path (which
 * writes its answers itself) included; HSTS only in production; Swagger UI keeps a policy it can
 * work under (the browser test drives it). API answers carry the OWASP REST set (nothing may load
 * or frame them); only the Swagger UI page carries helmet's page headers (docs/decisions.md).
 * The same expectations in production (HSTS): test/security-headers.e2e-spec.ts, on an app of its
 * own.
 */
import { jest } from '@jest/globals';
import { EnvelopeInterceptor } from '../../../src/common/interceptors/envelope.interceptor.js';
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { holdReadCacheTime } from '../../support/read-cache-time.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';
import { expectBaseline, expectPage } from './security-headers.expect.js';

const spyOnIntercept = () => jest.spyOn(EnvelopeInterceptor.prototype, 'intercept');

describe('security headers (e2e)', () => {
  let t: SuiteApp;
  // Spied while this suite runs only: other suites of the file spy on it too.
  let intercepted: ReturnType<typeof spyOnIntercept>;

  beforeAll(async () => {
    t = await startSuite();
    intercepted = spyOnIntercept();
  });
  afterAll(async () => {
    intercepted.mockRestore();
    await t.close();
  });

  it('are on /v1/api answers (envelope) and their errors, without HSTS outside production', async () => {
    const ok = await t.http
      .post('/v1/api/token')
      .send({ clientId: SANDBOX.partner.clientId, clientSecret: SANDBOX.partner.secret })
      .expect(200);
    expectBaseline(ok);
    expect(ok.headers['strict-transport-security']).toBeUndefined();
    const bad = await t.http.post('/v1/api/token').send({}).expect(400);
    expectBaseline(bad);
    expect(bad.body.isError).toBe(true);
  });

  it('are on problem+json answers (401, unknown route 404) and on the OAuth endpoint', async () => {
    const unauthorized = await t.http.get('/api/status').expect(401);
    expect(unauthorized.headers['content-type']).toMatch(/^application\/problem\+json/);
    expectBaseline(unauthorized);
    const missing = await t.http.get('/no/such/route').expect(404);
    expectBaseline(missing);
    const oauth = await t.http.post('/oauth/token').type('form').send({ grant_type: 'password' }).expect(400);
    expectBaseline(oauth);
    expect(oauth.headers['strict-transport-security']).toBeUndefined();
  });

  it('are on a cached balances answer from the fast path, exactly as on the route', async () => {
    const token = await t.token();
    const path = `/v1/api/account/${sandboxId('account:sandbox:coinbase-main')}/balances`;
    intercepted.mockClear();
    const release = holdReadCacheTime(t.app); // however slow the machine, the second read finds the first's entry
    try {
      const viaRoute = await t.http.get(path).set('Authorization', `Bearer ${token}`).expect(200);
      expect(intercepted).toHaveBeenCalledTimes(1);
      intercepted.mockClear();
      const viaFastPath = await t.http.get(path).set('Authorization', `Bearer ${token}`).expect(200);
      expect(intercepted).not.toHaveBeenCalled(); // answered by CachedBalancesFrontRoute
      for (const res of [viaRoute, viaFastPath]) {
        expectBaseline(res);
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
      expect(viaFastPath.headers['content-security-policy']).toBe(
        viaRoute.headers['content-security-policy'],
      );
    } finally {
      release();
    }
  });

  it('let Swagger UI load its own scripts and styles (same-origin policy, no external validator)', async () => {
    const page = await t.http.get('/docs').redirects(1).expect(200);
    expectPage(page);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src 'self'[^;]* 'unsafe-inline'/);
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).not.toContain('upgrade-insecure-requests'); // would break http://localhost
    const init = await t.http.get('/docs/swagger-ui-init.js').expect(200);
    expectPage(init);
    expect(init.text).toContain('"validatorUrl": null');
    // The document itself is JSON, not a page.
    expectBaseline(await t.http.get('/docs-json').expect(200));
  });
});
