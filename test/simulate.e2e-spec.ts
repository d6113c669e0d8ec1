/**
 * POST /qsim/simulate (e2e): Monte Carlo from stored history; the same seed gives the same
 * answer; bull ≥ base ≥ bear; scenarios in the order asked; every body field validated with
 * named errors.
 */
import { ManualClock } from '../src/common/clock/clock.js';
import { bearer } from './factories/accounts.factory.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const PORTFOLIO = [
  { symbol: 'BTC', weight: 0.6 },
  { symbol: 'ETH', weight: 0.3 },
  { symbol: 'SOL', weight: 0.1 },
];

const percent = (text: string) => Number(/^(-?\d+\.\d{2})%$/.exec(text)![1]);
const usd = (text: string) => Number(/^\$([\d,]+\.\d{2})$/.exec(text)![1].replace(/,/g, ''));

describe('POST /qsim/simulate (e2e)', () => {
  let t: TestApp;
  let partner: string;

  beforeAll(async () => {
    t = await startTestApp({}, { clock: new ManualClock(START) });
    partner = await t.token();
  });
  afterAll(() => t.close());

  const simulate = (body: unknown) =>
    t.http
      .post('/qsim/simulate')
      .set(bearer(partner))
      .send(body as object);
  // Two years keep the suite quick (cost is linear in the horizon); the first test runs ten.
  const valid = { portfolio: PORTFOLIO, horizon_years: 2, scenarios: ['bull', 'base', 'bear'], seed: 42 };

  it('answers bull, base and bear with percentage and currency text; bull ≥ base ≥ bear', async () => {
    const res = await simulate({ ...valid, horizon_years: 10 }).expect(200);
    expect(res.body).toMatchObject({
      seed: 42,
      principal_usd: 10000,
      horizon_years: 10,
      paths: 10000,
      steps_per_year: 12,
      history_to: '2026-03-15',
    });
    expect(res.body.history_days).toBeGreaterThan(2000);
    const [bull, base, bear] = res.body.scenarios;
    expect([bull.name, base.name, bear.name]).toEqual(['bull', 'base', 'bear']);
    for (const s of res.body.scenarios) {
      expect(s.cagr).toMatch(/^-?\d+\.\d{2}%$/);
      expect(s.terminal_usd).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    }
    expect(usd(bull.terminal_usd)).toBeGreaterThanOrEqual(usd(base.terminal_usd));
    expect(usd(base.terminal_usd)).toBeGreaterThanOrEqual(usd(bear.terminal_usd));
    expect(percent(bull.cagr)).toBeGreaterThanOrEqual(percent(base.cagr));
    expect(percent(base.cagr)).toBeGreaterThanOrEqual(percent(bear.cagr));
    expect(usd(bull.terminal_usd)).toBeGreaterThan(usd(bear.terminal_usd));
  });

  it('the same seed gives the identical answer; another seed another one', async () => {
    const first = await simulate(valid).expect(200);
    const second = await simulate(valid).expect(200);
    expect(second.body).toEqual(first.body);
    const other = await simulate({ ...valid, seed: 'another seed' }).expect(200);
    expect(other.body.scenarios).not.toEqual(first.body.scenarios);
    expect(other.body.seed).toBe('another seed');
  });

  it('without a seed, chooses one and returns it so the run can be repeated', async () => {
    const { seed: _seed, ...unseeded } = valid;
    const res = await simulate(unseeded).expect(200);
    expect(Number.isInteger(res.body.seed)).toBe(true);
    const again = await simulate({ ...unseeded, seed: res.body.seed }).expect(200);
    expect(again.body).toEqual(res.body);
  });

  it('returns the scenarios asked for, in the order asked; symbols are case-insensitive', async () => {
    const all = await simulate(valid).expect(200);
    const res = await simulate({ ...valid, scenarios: ['bear', 'bull'] }).expect(200);
    expect(res.body.scenarios).toEqual([all.body.scenarios[2], all.body.scenarios[0]]);
    const lower = await simulate({
      ...valid,
      portfolio: PORTFOLIO.map((p) => ({ ...p, symbol: p.symbol.toLowerCase() })),
    }).expect(200);
    expect(lower.body.scenarios).toEqual(all.body.scenarios);
  });

  it('scales with principal_usd (default 10,000); the CAGR does not change', async () => {
    const ten = await simulate(valid).expect(200);
    const five = await simulate({ ...valid, principal_usd: 5000 }).expect(200);
    expect(five.body.principal_usd).toBe(5000);
    five.body.scenarios.forEach((s: { cagr: string; terminal_usd: string }, i: number) => {
      expect(s.cagr).toBe(ten.body.scenarios[i].cagr);
      expect(Math.abs(usd(s.terminal_usd) * 2 - usd(ten.body.scenarios[i].terminal_usd))).toBeLessThanOrEqual(
        0.02,
      );
    });
  });

  it('accepts weights summing to 1 within ± 0.0001', async () => {
    await simulate({
      ...valid,
      portfolio: [
        { symbol: 'BTC', weight: 0.50005 },
        { symbol: 'ETH', weight: 0.5 },
      ],
    }).expect(200);
    await simulate({ ...valid, portfolio: [{ symbol: 'BTC', weight: 1 }], horizon_years: 1 }).expect(200);
  });

  describe('validation: 400 naming the field', () => {
    it.each([
      ['portfolio missing', { ...valid, portfolio: undefined }, 'portfolio'],
      ['portfolio empty', { ...valid, portfolio: [] }, 'portfolio'],
      ['portfolio not an array', { ...valid, portfolio: { BTC: 1 } }, 'portfolio'],
      ['a symbol missing', { ...valid, portfolio: [{ weight: 1 }] }, 'portfolio.0.symbol'],
      ['a malformed symbol', { ...valid, portfolio: [{ symbol: 'B T C', weight: 1 }] }, 'portfolio.0.symbol'],
      [
        'an unknown symbol',
        {
          ...valid,
          portfolio: [
            { symbol: 'BTC', weight: 0.5 },
            { symbol: 'NOPE', weight: 0.5 },
          ],
        },
        'portfolio.1.symbol',
      ],
      [
        'a repeated symbol',
        {
          ...valid,
          portfolio: [
            { symbol: 'BTC', weight: 0.5 },
            { symbol: 'btc', weight: 0.5 },
          ],
        },
        'portfolio.1.symbol',
      ],
      ['a weight as text', { ...valid, portfolio: [{ symbol: 'BTC', weight: '1' }] }, 'portfolio.0.weight'],
      [
        'a weight above 1',
        {
          ...valid,
          portfolio: [
            { symbol: 'BTC', weight: 1.5 },
            { symbol: 'ETH', weight: -0.5 },
          ],
        },
        'portfolio.0.weight',
      ],
      [
        'weights summing to 0.9',
        {
          ...valid,
          portfolio: [
            { symbol: 'BTC', weight: 0.6 },
            { symbol: 'ETH', weight: 0.3 },
          ],
        },
        'portfolio',
      ],
      [
        'weights summing to 1.0002',
        {
          ...valid,
          portfolio: [
            { symbol: 'BTC', weight: 0.5002 },
            { symbol: 'ETH', weight: 0.5 },
          ],
        },
        'portfolio',
      ],
      [
        'an unknown entry field',
        { ...valid, portfolio: [{ symbol: 'BTC', weight: 1, note: 'x' }] },
        'portfolio.0.note',
      ],
      ['horizon_years missing', { ...valid, horizon_years: undefined }, 'horizon_years'],
      ['horizon_years 0', { ...valid, horizon_years: 0 }, 'horizon_years'],
      ['horizon_years 51', { ...valid, horizon_years: 51 }, 'horizon_years'],
      ['horizon_years 2.5', { ...valid, horizon_years: 2.5 }, 'horizon_years'],
      ['horizon_years as text', { ...valid, horizon_years: '10' }, 'horizon_years'],
      ['scenarios missing', { ...valid, scenarios: undefined }, 'scenarios'],
      ['scenarios empty', { ...valid, scenarios: [] }, 'scenarios'],
      ['a repeated scenario', { ...valid, scenarios: ['base', 'base'] }, 'scenarios'],
      ['an unknown scenario', { ...valid, scenarios: ['base', 'moon'] }, 'scenarios'],
      ['principal_usd 0', { ...valid, principal_usd: 0 }, 'principal_usd'],
      ['principal_usd negative', { ...valid, principal_usd: -100 }, 'principal_usd'],
      ['principal_usd as text', { ...valid, principal_usd: '10000' }, 'principal_usd'],
      ['a negative seed', { ...valid, seed: -1 }, 'seed'],
      ['a fractional seed', { ...valid, seed: 1.5 }, 'seed'],
      ['an object seed', { ...valid, seed: { x: 1 } }, 'seed'],
      ['an unknown field', { ...valid, paths: 5 }, 'paths'],
    ])('%s', async (_name, body, field) => {
      const res = await simulate(body).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('lists every bad field at once', async () => {
      const res = await simulate({ portfolio: [], horizon_years: 0, scenarios: ['x'] }).expect(400);
      expect(Object.keys(res.body.errors).sort()).toEqual(['horizon_years', 'portfolio', 'scenarios']);
    });

    it('400 for malformed JSON; 401 without a bearer token', async () => {
      await t.http
        .post('/qsim/simulate')
        .set(bearer(partner))
        .set('Content-Type', 'application/json')
        .send('{"portfolio":[')
        .expect(400);
      await t.http.post('/qsim/simulate').send(valid).expect(401);
    });
  });
});
