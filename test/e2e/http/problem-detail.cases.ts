/**
 * Every problem body carries `detail` (design §4; issue 13, item 3): a sentence about this
 * occurrence, validation failures included, in both shapes (problem+json outside /v1/api, the
 * ProblemDetails inside the envelope under /v1/api). Never SQL, a stack or a secret.
 */
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

describe('problem bodies carry detail (e2e)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startSuite();
    token = await t.token();
  });
  afterAll(() => t.close());
  const auth = () => ({ Authorization: `Bearer ${token}` });

  it('a one-field validation 400 outside /v1/api names the field and says what is wrong', async () => {
    const res = await t.http
      .post('/api/portfolios')
      .set(auth())
      .send({ name: '', allocations: { BTC: 100 } })
      .expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      detail: 'name: name should not be empty.',
      instance: '/api/portfolios',
      errors: { name: ['name should not be empty'] },
      traceId: res.headers['x-request-id'],
    });
  });

  it('a two-field validation 400 in the envelope counts the fields and lists each', async () => {
    const res = await t.http.post('/v1/api/token').send({}).expect(400);
    expect(res.body.message).toBe('One or more validation errors occurred.');
    expect(res.body.responseException.exceptionMessage.detail).toBe(
      '2 fields failed validation: ClientId: The ClientId field is required. ClientSecret: The ClientSecret field is required.',
    );
  });

  it('a query validation 400 under /v1/api names the parameter in detail', async () => {
    const account = sandboxId('account:sandbox:kraken-trading');
    const res = await t.http
      .get(`/v1/api/account/${account}/transactions?from=yesterday`)
      .set(auth())
      .expect(400);
    expect(res.body.responseException.exceptionMessage).toMatchObject({
      status: 400,
      detail:
        'from: from must be an ISO 8601 date (2024-01-31) or a timestamp with an offset (2024-01-31T12:00:00Z).',
      errors: { from: [expect.any(String)] },
    });
  });

  it.each([
    ['401 without a token', 'get', '/api/status', 401, 'Bearer token missing or invalid.'],
    ['404 for an unknown route', 'get', '/nowhere', 404, 'No route for GET /nowhere.'],
    [
      '404 for an unknown route under /v1/api',
      'get',
      '/v1/api/nowhere',
      404,
      'No route for GET /v1/api/nowhere.',
    ],
  ] as const)('%s has detail', async (_name, method, path, status, detail) => {
    const res = await t.http[method](path);
    expect(res.status).toBe(status);
    const problem = path.startsWith('/v1/api') ? res.body.responseException.exceptionMessage : res.body;
    expect(problem.detail).toBe(detail);
  });

  it('a malformed JSON body has detail in both shapes', async () => {
    const outside = await t.http
      .post('/api/portfolios')
      .set(auth())
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(outside.body.detail).toBe('The request body is not valid JSON.');
    const inside = await t.http
      .post('/v1/api/token')
      .set('Content-Type', 'application/json')
      .send('{"clientId":')
      .expect(400);
    expect(inside.body.responseException.exceptionMessage.detail).toBe('The request body is not valid JSON.');
  });
});
