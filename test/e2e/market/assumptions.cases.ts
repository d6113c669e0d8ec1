/**
 * /qsim/assumptions (e2e): a tenant's capital-market assumptions — set, listed, used by
 * /qsim/simulate, removed; validated with named fields; partner-scoped and tenant-isolated.
 */
import { ManualClock } from '../../../src/common/clock/clock.js';
import { CONSERVATIVE_PRIOR } from '../../../src/domain/simulation/return-assumptions.js';
import { bearer } from '../../factories/accounts.factory.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');

describe('/qsim/assumptions (e2e)', () => {
  let t: TestApp;
  let partner: string;
  let partnerB: string;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
    partner = await t.token();
    partnerB = await t.token('sandbox-b-client', 'sandbox-b-secret');
  });
  afterAll(() => t.close());

  const body = {
    portfolio: [
      { symbol: 'BTC', weight: 0.6 },
      { symbol: 'ETH', weight: 0.4 },
    ],
    horizon_years: 2,
    scenarios: ['bull', 'base', 'bear'],
    seed: 11,
  };

  it('starts empty and states the default', async () => {
    const res = await t.http.get('/qsim/assumptions').set(bearer(partner)).expect(200);
    expect(res.body).toEqual({
      assumptions: [],
      default: {
        prior: CONSERVATIVE_PRIOR.name,
        prior_expected_return: 0.04,
        prior_uncertainty: 0.05,
        formula: expect.stringContaining('τ²/(τ² + SE²)'),
      },
    });
  });

  it('sets, lists, uses, isolates and removes an assumption', async () => {
    const before = await t.http.post('/qsim/simulate').set(bearer(partner)).send(body).expect(200);
    const put = await t.http
      .put('/qsim/assumptions/eth')
      .set(bearer(partner))
      .send({ expected_return: 0.08, volatility: 0.5, note: 'CIO 2026' })
      .expect(200);
    expect(put.body).toEqual({
      symbol: 'ETH',
      expected_return: 0.08,
      volatility: 0.5,
      note: 'CIO 2026',
      updated_at: START.toISOString(),
    });
    const listed = await t.http.get('/qsim/assumptions').set(bearer(partner)).expect(200);
    expect(listed.body.assumptions).toEqual([put.body]);

    const after = await t.http.post('/qsim/simulate').set(bearer(partner)).send(body).expect(200);
    expect(after.body.assumptions[1]).toMatchObject({
      symbol: 'ETH',
      expected_return: '8.00%',
      volatility: '50.00%',
      source: 'tenant',
    });
    expect(after.body.assumptions[0].source).toBe('history_shrunk');
    expect(after.body.scenarios).not.toEqual(before.body.scenarios);

    // Another tenant neither sees nor gets it, and cannot remove it.
    const other = await t.http.get('/qsim/assumptions').set(bearer(partnerB)).expect(200);
    expect(other.body.assumptions).toEqual([]);
    const theirs = await t.http.post('/qsim/simulate').set(bearer(partnerB)).send(body).expect(200);
    expect(theirs.body.assumptions[1].source).toBe('history_shrunk');
    expect(theirs.body.scenarios).toEqual(before.body.scenarios);
    await t.http.delete('/qsim/assumptions/ETH').set(bearer(partnerB)).expect(404);

    // Replacing keeps one row; null volatility means the history's.
    await t.http
      .put('/qsim/assumptions/ETH')
      .set(bearer(partner))
      .send({ expected_return: -0.1, volatility: null })
      .expect(200);
    const replaced = await t.http.get('/qsim/assumptions').set(bearer(partner)).expect(200);
    expect(replaced.body.assumptions).toEqual([
      { symbol: 'ETH', expected_return: -0.1, volatility: null, note: null, updated_at: START.toISOString() },
    ]);

    await t.http.delete('/qsim/assumptions/eth').set(bearer(partner)).expect(204);
    const back = await t.http.post('/qsim/simulate').set(bearer(partner)).send(body).expect(200);
    expect(back.body).toEqual(before.body);
    const gone = await t.http.delete('/qsim/assumptions/ETH').set(bearer(partner)).expect(404);
    expect(JSON.stringify(gone.body)).toMatch(/ETH/);
  });

  it.each([
    ['expected_return missing', 'BTC', {}, 'expected_return'],
    ['expected_return as text', 'BTC', { expected_return: '7%' }, 'expected_return'],
    ['expected_return above 1', 'BTC', { expected_return: 1.5 }, 'expected_return'],
    ['expected_return below -0.5', 'BTC', { expected_return: -0.6 }, 'expected_return'],
    ['volatility negative', 'BTC', { expected_return: 0.05, volatility: -0.1 }, 'volatility'],
    ['volatility above 3', 'BTC', { expected_return: 0.05, volatility: 4 }, 'volatility'],
    ['note too long', 'BTC', { expected_return: 0.05, note: 'x'.repeat(501) }, 'note'],
    ['an unknown field', 'BTC', { expected_return: 0.05, correlation: 0.5 }, 'correlation'],
    ['an unknown symbol', 'NOPE', { expected_return: 0.05 }, 'symbol'],
    ['a malformed symbol', 'B-T', { expected_return: 0.05 }, 'symbol'],
  ])('PUT: %s → 400 naming %s', async (_name, symbol, payload, field) => {
    const res = await t.http
      .put(`/qsim/assumptions/${symbol}`)
      .set(bearer(partner))
      .send(payload)
      .expect(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it('is for partners only: an admin token gets 403', async () => {
    const admin = await t.token('sandbox-admin', 'sandbox-admin-secret');
    await t.http.get('/qsim/assumptions').set(bearer(admin)).expect(403);
    await t.http.put('/qsim/assumptions/BTC').set(bearer(admin)).send({ expected_return: 0.05 }).expect(403);
  });
});
