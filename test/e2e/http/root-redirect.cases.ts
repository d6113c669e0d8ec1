/**
 * The root redirects to Swagger UI (issue 31 item 1): a newcomer opening http://localhost:3000/
 * lands on the docs, not on a JSON 404; the redirect is no operation of the API.
 */
import { startSuite } from '../../support/e2e-world.js';
import type { TestApp } from '../../support/test-app.js';

describe('GET / (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startSuite();
  });
  afterAll(() => t.close());

  it('redirects to /docs (GET and HEAD), without a token', async () => {
    const get = await t.http.get('/').expect(302);
    expect(get.headers.location).toBe('/docs');
    const head = await t.http.head('/').expect(302);
    expect(head.headers.location).toBe('/docs');
    await t.http.get('/docs').expect(200);
  });

  it('is not in the OpenAPI document, and other unknown paths are still a 404 problem', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/');
    const missing = await t.http.get('/nothing-here').expect(404);
    expect(missing.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});
