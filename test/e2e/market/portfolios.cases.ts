import { sandboxPortfolioId } from '../../../src/modules/portfolios/testing.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('portfolios (e2e)', () => {
  let t: TestApp;
  let a: string;
  let b: string;
  beforeAll(async () => {
    t = await startSuite();
    a = `Bearer ${await t.token()}`;
    b = `Bearer ${await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret)}`;
  });
  afterAll(() => t.close());

  const balancedId = () => sandboxPortfolioId('sandbox', 'balanced');
  const create = (body: object, auth = a) =>
    t.http.post('/api/portfolios').set('Authorization', auth).send(body);

  describe('sandbox fixtures', () => {
    it('lists the caller tenant’s portfolios only, with deterministic ids and exactly id, name, allocations', async () => {
      const listA = (await t.http.get('/api/portfolios').set('Authorization', a).expect(200)).body;
      const listB = (await t.http.get('/api/portfolios').set('Authorization', b).expect(200)).body;
      expect(listA.map((p: { id: string }) => p.id)).toEqual(
        ['core', 'balanced', 'diversified', 'income'].map((key) => sandboxPortfolioId('sandbox', key)),
      );
      expect(listB.map((p: { id: string }) => p.id)).toEqual(
        ['bitcoin-only', 'growth'].map((key) => sandboxPortfolioId('sandbox-b', key)),
      );
      for (const portfolio of [...listA, ...listB]) {
        expect(Object.keys(portfolio).sort()).toEqual(['allocations', 'id', 'name']);
        const values = Object.values(portfolio.allocations) as number[];
        expect(values.reduce((sum, value) => sum + value, 0)).toBeCloseTo(100, 8);
      }
      expect(listA[1]).toEqual({
        id: balancedId(),
        name: 'Balanced large caps (sandbox)',
        allocations: { BTC: 50, ETH: 30, SOL: 20 },
      });
    });

    it('returns one portfolio with the qScore /api/calculate-portfolio-score gives its allocations', async () => {
      const res = await t.http.get(`/api/portfolios/${balancedId()}`).set('Authorization', a).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['allocations', 'id', 'name', 'qScore']);
      const scored = await t.http
        .post('/api/calculate-portfolio-score')
        .set('Authorization', a)
        .send({ btcAllocation: 50, ethAllocation: 30, solAllocation: 20 })
        .expect(200);
      expect(res.body.qScore).toBe(scored.body.qScore);
    });
  });

  describe('create, read, replace, delete', () => {
    let id: string;

    it('creates with 201 and returns id, name and allocations (symbols upper-cased)', async () => {
      const res = await create({
        name: '  Income tilt ',
        allocations: { btc: 40, Eth: 35.5, USDC: 24.5 },
      }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Income tilt',
        allocations: { BTC: 40, ETH: 35.5, USDC: 24.5 },
      });
      id = res.body.id;
      const got = await t.http.get(`/api/portfolios/${id}`).set('Authorization', a).expect(200);
      expect(got.body).toEqual({ ...res.body, qScore: expect.any(Number) });
      const list = (await t.http.get('/api/portfolios').set('Authorization', a).expect(200)).body;
      expect(list.at(-1)).toEqual(res.body);
    });

    it('keeps percentages exactly, to 8 decimals, and accepts a sum within 100 ± 0.01', async () => {
      const res = await create({
        name: 'Thirds',
        allocations: { BTC: 100 / 3, ETH: 100 / 3, SOL: 33.33 },
      }).expect(201);
      expect(res.body.allocations).toEqual({ BTC: 33.33333333, ETH: 33.33333333, SOL: 33.33 });
    });

    it('replaces name and all allocations with PUT (200), old symbols gone', async () => {
      const res = await t.http
        .put(`/api/portfolios/${id}`)
        .set('Authorization', a)
        .send({ name: 'Income tilt v2', allocations: { SOL: 60, ADA: 40 } })
        .expect(200);
      expect(res.body).toEqual({ id, name: 'Income tilt v2', allocations: { SOL: 60, ADA: 40 } });
      const got = await t.http.get(`/api/portfolios/${id}`).set('Authorization', a).expect(200);
      expect(got.body.allocations).toEqual({ SOL: 60, ADA: 40 });
    });

    it('leaves the portfolio unchanged when a PUT is invalid', async () => {
      await t.http
        .put(`/api/portfolios/${id}`)
        .set('Authorization', a)
        .send({ name: 'Broken', allocations: { SOL: 60, ADA: 30 } })
        .expect(400);
      const got = await t.http.get(`/api/portfolios/${id}`).set('Authorization', a).expect(200);
      expect(got.body).toMatchObject({ name: 'Income tilt v2', allocations: { SOL: 60, ADA: 40 } });
    });

    it('answers 404 to another tenant for GET, PUT and DELETE, and changes nothing', async () => {
      const notFound = await t.http.get(`/api/portfolios/${id}`).set('Authorization', b).expect(404);
      expect(notFound.headers['content-type']).toMatch(/application\/problem\+json/);
      await t.http
        .put(`/api/portfolios/${id}`)
        .set('Authorization', b)
        .send({ name: 'Taken over', allocations: { BTC: 100 } })
        .expect(404);
      await t.http.delete(`/api/portfolios/${id}`).set('Authorization', b).expect(404);
      const got = await t.http.get(`/api/portfolios/${id}`).set('Authorization', a).expect(200);
      expect(got.body.name).toBe('Income tilt v2');
      const listB = (await t.http.get('/api/portfolios').set('Authorization', b).expect(200)).body;
      expect(listB.map((p: { id: string }) => p.id)).not.toContain(id);
      // The same answer as for an id that exists nowhere.
      const missing = await t.http
        .get('/api/portfolios/00000000-0000-4000-8000-000000000000')
        .set('Authorization', b)
        .expect(404);
      expect(missing.body.detail).toBe(notFound.body.detail);
    });

    it('deletes with 204 and no body; then GET, PUT and DELETE answer 404', async () => {
      const res = await t.http.delete(`/api/portfolios/${id}`).set('Authorization', a).expect(204);
      expect(res.text).toBe('');
      expect(res.headers['content-length'] ?? '0').toBe('0');
      await t.http.get(`/api/portfolios/${id}`).set('Authorization', a).expect(404);
      await t.http
        .put(`/api/portfolios/${id}`)
        .set('Authorization', a)
        .send({ name: 'Back', allocations: { BTC: 100 } })
        .expect(404);
      await t.http.delete(`/api/portfolios/${id}`).set('Authorization', a).expect(404);
    });
  });

  describe('validation', () => {
    it.each<[string, object, string, RegExp]>([
      [
        'allocations not summing to 100',
        { name: 'x', allocations: { BTC: 50, ETH: 40 } },
        'allocations',
        /sum to 100.*90/,
      ],
      [
        'a sum just outside ± 0.01',
        { name: 'x', allocations: { BTC: 50, ETH: 49.98 } },
        'allocations',
        /sum to 100/,
      ],
      [
        'a negative allocation',
        { name: 'x', allocations: { BTC: 120, ETH: -20 } },
        'allocations.ETH',
        /negative/,
      ],
      [
        'an unknown asset',
        { name: 'x', allocations: { BTC: 50, NOPE: 50 } },
        'allocations.NOPE',
        /not an asset the service tracks/,
      ],
      ['a non-numeric percentage', { name: 'x', allocations: { BTC: '100' } }, 'allocations.BTC', /number/],
      [
        'a malformed symbol',
        { name: 'x', allocations: { 'BTC-X': 100 } },
        'allocations.BTC-X',
        /not an asset symbol/,
      ],
      [
        'the same symbol twice',
        { name: 'x', allocations: { BTC: 50, btc: 50 } },
        'allocations.btc',
        /repeats/,
      ],
      ['no allocations', { name: 'x', allocations: {} }, 'allocations', /At least one/],
      ['allocations not an object', { name: 'x', allocations: [100] }, 'allocations', /object/],
      ['a missing name', { allocations: { BTC: 100 } }, 'name', /name/],
      ['a blank name', { name: '   ', allocations: { BTC: 100 } }, 'name', /blank/],
      ['a name over 200 characters', { name: 'n'.repeat(201), allocations: { BTC: 100 } }, 'name', /200/],
      [
        'an unknown field',
        { name: 'x', allocations: { BTC: 100 }, owner: 'me' },
        'owner',
        /should not exist/,
      ],
    ])('answers 400 naming the field for %s', async (_case, body, field, message) => {
      const res = await create(body).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Object.keys(res.body.errors)).toContain(field);
      expect(res.body.errors[field].join(' ')).toMatch(message);
    });

    it('answers 400 when allocations are missing, for PUT as well', async () => {
      const res = await t.http
        .put(`/api/portfolios/${balancedId()}`)
        .set('Authorization', a)
        .send({ name: 'No allocations' })
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['allocations']);
    });

    it.each(['get', 'put', 'delete'] as const)(
      'answers 400 naming `id` for a malformed id (%s)',
      async (method) => {
        const res = await t.http[method]('/api/portfolios/not-a-uuid')
          .set('Authorization', a)
          .send({ name: 'x', allocations: { BTC: 100 } })
          .expect(400);
        expect(Object.keys(res.body.errors)).toEqual(['id']);
      },
    );

    it('answers 401 without a token', async () => {
      await t.http.get('/api/portfolios').expect(401);
      await t.http
        .post('/api/portfolios')
        .send({ name: 'x', allocations: { BTC: 100 } })
        .expect(401);
      await t.http.get(`/api/portfolios/${balancedId()}`).expect(401);
    });
  });
});
