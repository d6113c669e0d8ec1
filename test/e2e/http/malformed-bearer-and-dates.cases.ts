/**
 * Inputs that answered 500 (issue 13, item 11): a JWT whose payload is not JSON, and transaction
 * ranges whose end falls outside the years 0001-9999 once a date-only `to` is taken to the end of
 * its day. Each is a 401 or a 400 naming the field.
 */
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

describe('inputs that used to answer 500 (e2e)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startSuite({ RATE_LIMIT_PER_MINUTE: '100000' });
    token = await t.token();
  });
  afterAll(() => t.close());

  it.each([
    ['AAAA', 'not JSON'],
    [Buffer.from('{"sub":').toString('base64url'), 'truncated JSON'],
    [Buffer.from('"a string"').toString('base64url'), 'a JSON string'],
    [Buffer.from('[1,2]').toString('base64url'), 'a JSON array'],
  ])('a token with a valid header and payload %s (%s) is 401', async (payload) => {
    const [header, , signature] = token.split('.');
    const res = await t.http
      .get('/api/status')
      .set('Authorization', `Bearer ${header}.${payload}.${signature}`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, detail: 'Bearer token missing or invalid.' });
  });

  const transactions = (query: string) =>
    t.http
      .get(`/v1/api/account/${sandboxId('account:sandbox:kraken-trading')}/transactions?${query}`)
      .set('Authorization', `Bearer ${token}`);

  it.each([
    ['to=9999-12-31', 'to'],
    ['to=9999-12-31T23:59:59.999Z', 'to'],
    ['from=9999-12-31T23:59:59.999Z&to=9999-12-31', 'to'],
    ['from=10000-01-01', 'from'],
    ['to=0000-12-31', 'to'],
    ['from=0001-01-01T00:00:00+00:01', 'from'],
  ])('%s is 400 naming %s', async (query, field) => {
    const res = await transactions(query);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.responseException.exceptionMessage.errors)).toEqual([field]);
  });

  it.each([
    'from=0001-01-01',
    'from=0001-01-01T00:00:00Z',
    'to=9999-12-30',
    'to=9999-12-31T23:59:59.998Z',
    'from=9999-12-31&to=9999-12-31T23:59:59.998Z',
  ])('%s is accepted', async (query) => {
    const res = await transactions(query);
    expect(res.status).toBe(200);
  });
});
