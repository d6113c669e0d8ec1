/**
 * Security headers in production (issue #13 item 12, helmet): HSTS on every answer, and
 * upgrade-insecure-requests on the Swagger UI page. An app of its own: the other security-headers
 * suite (test/e2e/operations/security-headers.cases.ts) runs on the shared app of
 * test/e2e/operations.e2e-spec.ts, which is not in production, and a second app in that file would
 * take over passport's global `jwt` strategy from the shared one.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApp } from '../src/app.factory.js';
import { expectBaseline, expectPage } from './e2e/operations/security-headers.expect.js';
import { countAppStart, createTestSchema, testConfig, usingPostgres } from './support/test-app.js';

describe('security headers in production (e2e)', () => {
  let app: NestExpressApplication;
  let dropSchema: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // The production configuration as far as headers go: loadConfig would also demand a Postgres
    // server, JWT keys and an encryption key, none of which changes a header; nor does the
    // sandbox, which this app does without.
    countAppStart();
    const schema = usingPostgres() ? await createTestSchema() : undefined;
    dropSchema = schema?.drop;
    const config = Object.assign(testConfig({ SANDBOX: 'false' }, schema?.schema), {
      NODE_ENV: 'production' as const,
    });
    expect(config.isProduction).toBe(true);
    app = await createApp(config, { logs: false });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await dropSchema?.();
  });

  it('add HSTS (one year, subdomains) everywhere and upgrade-insecure-requests to the page', async () => {
    const http = request(app.getHttpServer());
    for (const res of [
      await http.get('/api/status').expect(401),
      await http.post('/v1/api/token').send({}).expect(400),
    ]) {
      expectBaseline(res);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
    const page = await http.get('/docs').redirects(1).expect(200);
    expectPage(page);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(page.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });
});
