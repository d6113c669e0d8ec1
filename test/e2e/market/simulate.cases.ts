/**
 * POST /qsim/simulate (e2e): Monte Carlo from stored history; the same seed gives the same
 * answer; bull ≥ base ≥ bear; scenarios in the order asked; every body field validated with
 * named errors.
 */
import { ManualClock } from '../../../src/common/clock/clock.js';
import { bearer } from '../../factories/accounts.factory.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const PORTFOLIO = [
  { symbol: 'BTC', weight: 0.6 },
  { symbol: 'ETH', weight: 0.3 },
  { symbol: 'SOL', weight: 0.1 },
];

/** Recomputed with the default assumptions (issue 20); see docs/simulation.md "Before and after". */
const PINNED_PARAMETRIC = {
  scenarios: [
    { name: 'bull', cagr: '37.87%', terminal_usd: '$248,139.32' },
    { name: 'base', cagr: '8.47%', terminal_usd: '$22,542.80' },
    { name: 'bear', cagr: '-14.70%', terminal_usd: '$2,039.87' },
  ],
  risk: {
    probability_below_principal: '33.37%',
    max_drawdown_median: '80.27%',
    max_drawdown_p90: '94.46%',
    expected_shortfall_5_usd: '$592.88',
  },
};
const PINNED_BOOTSTRAP = {
  scenarios: [
    { name: 'bull', cagr: '36.40%', terminal_usd: '$222,934.87' },
    { name: 'base', cagr: '8.32%', terminal_usd: '$22,242.03' },
    { name: 'bear', cagr: '-13.89%', terminal_usd: '$2,240.19' },
  ],
  risk: {
    probability_below_principal: '32.90%',
    max_drawdown_median: '79.46%',
    max_drawdown_p90: '93.94%',
    expected_shortfall_5_usd: '$687.51',
  },
};

const percent = (text: string) => Number(/^(-?\d+\.\d{2})%$/.exec(text)![1]);
const usd = (text: string) => Number(/^\$([\d,]+\.\d{2})$/.exec(text)![1].replace(/,/g, ''));

describe('POST /qsim/simulate (e2e)', () => {
  let t: TestApp;
  let partner: string;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
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

  it('with the default assumptions, the 60/40 BTC/ETH bear case over 10 years is below risk-free growth', async () => {
    const body = {
      portfolio: [
        { symbol: 'BTC', weight: 0.6 },
        { symbol: 'ETH', weight: 0.4 },
      ],
      horizon_years: 10,
      scenarios: ['bull', 'base', 'bear'],
      seed: 2026,
    };
    for (const method of ['parametric', 'bootstrap']) {
      const res = await simulate({ ...body, method }).expect(200);
      const bear = res.body.scenarios[2];
      // The principal at the prior's risk-free 4 % for 10 years: 10,000 × 1.04¹⁰ = 14,802.44.
      expect(usd(bear.terminal_usd)).toBeLessThan(14_802.44);
      // A bad outcome, not a smaller boom: the bear case loses money.
      expect(percent(bear.cagr)).toBeLessThan(0);
      expect(res.body.method).toBe(method);
      expect(res.body.assumptions.map((a: { source: string }) => a.source)).toEqual([
        'history_shrunk',
        'history_shrunk',
      ]);
      expect(res.body.disclosure).toMatch(/^Hypothetical projection/);
      expect(res.body.rebalancing).toMatch(/every month/);
      const risk = res.body.risk;
      expect(percent(risk.max_drawdown_p90)).toBeGreaterThanOrEqual(percent(risk.max_drawdown_median));
      expect(usd(risk.expected_shortfall_5_usd)).toBeLessThan(usd(bear.terminal_usd));
      expect(percent(risk.probability_below_principal)).toBeGreaterThan(10);
    }
  });

  it('pins the 60/40 figures of both methods (recomputed for issue 20; before: bear +19.17 %)', async () => {
    const body = {
      portfolio: [
        { symbol: 'BTC', weight: 0.6 },
        { symbol: 'ETH', weight: 0.4 },
      ],
      horizon_years: 10,
      scenarios: ['bull', 'base', 'bear'],
      seed: 2026,
    };
    const parametric = await simulate(body).expect(200);
    expect({ scenarios: parametric.body.scenarios, risk: parametric.body.risk }).toEqual(PINNED_PARAMETRIC);
    const bootstrap = await simulate({ ...body, method: 'bootstrap' }).expect(200);
    expect({ scenarios: bootstrap.body.scenarios, risk: bootstrap.body.risk }).toEqual(PINNED_BOOTSTRAP);
  });

  it('adds contributions and deflates by inflation; old requests keep their defaults', async () => {
    const plain = await simulate(valid).expect(200);
    expect(plain.body).toMatchObject({
      method: 'parametric',
      inflation_rate: null,
      monthly_contribution_usd: 0,
    });
    const paying = await simulate({ ...valid, monthly_contribution_usd: 500 }).expect(200);
    expect(usd(paying.body.scenarios[1].terminal_usd)).toBeGreaterThan(
      usd(plain.body.scenarios[1].terminal_usd),
    );
    const real = await simulate({ ...valid, inflation_rate: 0.03 }).expect(200);
    expect(real.body.inflation_rate).toBe('3.00%');
    // Same paths, every value divided by 1.03²: the median in today's dollars.
    expect(usd(real.body.scenarios[1].terminal_usd)).toBeCloseTo(
      usd(plain.body.scenarios[1].terminal_usd) / 1.03 ** 2,
      1,
    );
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
      ['an unknown method', { ...valid, method: 'historical' }, 'method'],
      ['inflation_rate as text', { ...valid, inflation_rate: '2%' }, 'inflation_rate'],
      ['inflation_rate above 0.5', { ...valid, inflation_rate: 0.6 }, 'inflation_rate'],
      [
        'monthly_contribution_usd as text',
        { ...valid, monthly_contribution_usd: '500' },
        'monthly_contribution_usd',
      ],
      [
        'monthly_contribution_usd beyond 1e12',
        { ...valid, monthly_contribution_usd: -2e12 },
        'monthly_contribution_usd',
      ],
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
