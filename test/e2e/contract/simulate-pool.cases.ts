/**
 * POST /qsim/simulate off the request thread (issue 13 item 6): simulations run in a worker pool,
 * so liveness and cached reads stay fast while the heaviest allowed simulations run; concurrent
 * simulations are capped per client (429) and per instance (503), both with Retry-After; the
 * work is bounded (400 naming horizon_years); the worker computes exactly what the request's
 * thread computed before.
 *
 * On the file's app (test/e2e/contract.e2e-spec.ts: one worker, room for one more waiting, one
 * simulation per client, seeded at 2026-03-15T12:00Z as this suite's clock starts), with clients
 * of tenants of its own: it comes after the fuzz suite, which writes anything into `sandbox`
 * (assumptions change the figures, accounts get deleted). Last of the file: its last test closes
 * the app.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'supertest';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { formatPercent, formatUsd } from '../../../src/domain/money/format.js';
import { simulatePortfolio } from '../../../src/domain/simulation/monte-carlo.js';
import { resolveAssumptions } from '../../../src/domain/simulation/return-assumptions.js';
import { MarketHistoryService } from '../../../src/modules/simulation/testing.js';
import { SimulationPool } from '../../../src/modules/simulation/index.js';
import { ClientsService } from '../../../src/modules/tenancy/index.js';
import { bearer, createAccount, csvOf, importCsv, simpleHistory } from '../../factories/accounts.factory.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';

const PINNED_SCENARIOS = [
  { name: 'bull', cagr: '88.46%', terminal_usd: '$35,516.87' },
  { name: 'base', cagr: '9.92%', terminal_usd: '$12,081.32' },
  { name: 'bear', cagr: '-35.81%', terminal_usd: '$4,121.00' },
];

const START = new Date('2026-03-15T12:00:00.000Z');
/** The sandbox's 30 assets with stored history. */
const SYMBOLS = [
  'BTC', 'ETH', 'USDT', 'XRP', 'BNB', 'SOL', 'DOGE', 'USDC', 'ADA', 'TRX',
  'AVAX', 'LINK', 'HBAR', 'XLM', 'DOT', 'BCH', 'UNI', 'LTC', 'NEAR', 'APT',
  'AAVE', 'ICP', 'ETC', 'XMR', 'POL', 'ARB', 'ALGO', 'FIL', 'ATOM', 'OP',
]; // prettier-ignore
/** The documented default budget: assets × horizon_years ≤ 600 (10,000 paths × 12 steps a year). */
const BUDGET_ASSET_YEARS = 600;
/**
 * Latency bounds while the heaviest simulations run. A simulation on the request thread would
 * stall it for seconds (each takes ~6 s), so the worst sample must stay far below that; the
 * 95th percentile must stay fast. A single sample is not held to the tight bound: CI runs two
 * test files at once on two cores beside the worker thread, and one scheduling or GC hiccup of
 * the test process itself (513 ms once in CI, 44-86 ms alone) says nothing about the service.
 */
const P95_LIMIT_MS = 250;
const WORST_LIMIT_MS = 2000;

const equalWeights = (symbols: readonly string[]) =>
  symbols.map((symbol, i) => ({
    symbol,
    weight: i === 0 ? 1 - (symbols.length - 1) * 0.03125 : 0.03125,
  }));
/** The heaviest request the budget allows with every sandbox asset: 30 assets × 20 years. */
const HEAVIEST = {
  portfolio: equalWeights(SYMBOLS),
  horizon_years: Math.floor(BUDGET_ASSET_YEARS / SYMBOLS.length),
  scenarios: ['bull', 'base', 'bear'],
  seed: 7,
};

/** Long enough (seconds) to hold a slot while another request comes in. */
const LONG = { ...HEAVIEST, horizon_years: 2 };
const SHORT = { ...HEAVIEST, portfolio: [{ symbol: 'BTC', weight: 1 }], horizon_years: 1 };

describe('POST /qsim/simulate in the worker pool (e2e)', () => {
  let t: SuiteApp;
  let partner: string;
  let partnerB: string;
  /** The balances of an account of the partner's tenant (a CSV history imported). */
  let balancesPath: string;

  beforeAll(async () => {
    // One worker and room for one more waiting: the instance holds two simulations at a time.
    t = await startSuite(
      { SIMULATION_WORKERS: '1', SIMULATION_QUEUE: '1', SIMULATION_PER_CLIENT: '1' },
      { clock: new ManualClock(START), tenant: 'simulate' },
    );
    partner = await t.token();
    const b = await t.newTenant('simulate-b');
    partnerB = await t.token(b.clientId, b.secret);
    const admin = await t.token(t.admin.clientId, t.admin.secret);
    const account = await createAccount(t, admin, { tenant: t.tenant!.slug, identity: 'simulate-pool' });
    await importCsv(t, admin, account.accountId, csvOf(simpleHistory('simulate')), t.tenant!.slug).expect(
      200,
    );
    balancesPath = `/v1/api/account/${account.accountId}/balances`;
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await t.close();
  });

  const simulate = (token: string, body: unknown) =>
    t.http
      .post('/qsim/simulate')
      .set(bearer(token))
      .send(body as object);

  /** Until `count` simulations are admitted (loading history, running or waiting for a worker). */
  const admitted = async (count: number) => {
    const pool = t.app.get(SimulationPool);
    while (pool.inFlight < count) await sleep(10);
  };

  it('computes the same figures as the request thread did before the pool (same seed, same body)', async () => {
    const body = {
      portfolio: [
        { symbol: 'BTC', weight: 0.6 },
        { symbol: 'ETH', weight: 0.3 },
        { symbol: 'SOL', weight: 0.1 },
      ],
      horizon_years: 2,
      scenarios: ['bull', 'base', 'bear'],
      seed: 42,
    };
    const res = await simulate(partner, body).expect(200);
    // Pinned from the in-thread simulator. Before issue 20 (raw historical drift; commit ea1292a,
    // before the worker pool): bull 214.08 % $98,643.19, base 82.94 % $33,465.82, bear 6.64 %
    // $11,371.68. Recomputed with the default (shrunk) return assumptions:
    expect(res.body).toMatchObject({
      scenarios: PINNED_SCENARIOS,
      seed: 42,
      principal_usd: 10000,
      horizon_years: 2,
      paths: 10000,
      steps_per_year: 12,
      history_from: '2020-01-02',
      history_to: '2026-03-15',
      history_days: 2265,
      method: 'parametric',
      inflation_rate: null,
      monthly_contribution_usd: 0,
    });
    // Nothing else but the issue-20 additions (each checked in simulate.e2e-spec.ts).
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'scenarios',
        'seed',
        'principal_usd',
        'horizon_years',
        'paths',
        'steps_per_year',
        'history_from',
        'history_to',
        'history_days',
        'method',
        'rebalancing',
        'risk',
        'assumptions',
        'inflation_rate',
        'monthly_contribution_usd',
        'disclosure',
      ].sort(),
    );

    // And the pure simulator, run here on the same stored history, agrees to the last digit.
    const history = t.app.get(MarketHistoryService);
    const aligned = await history.alignedDailyLogReturns(['BTC', 'ETH', 'SOL']);
    const assumptions = resolveAssumptions(['BTC', 'ETH', 'SOL'], aligned.dailyLogReturns);
    const inThread = simulatePortfolio({
      assets: body.portfolio,
      dailyLogReturns: aligned.dailyLogReturns,
      horizonYears: 2,
      seed: 42,
      annualLogDrift: assumptions.map((a) => a.annualLogDrift),
      annualVolatility: assumptions.map((a) => a.volatility),
    });
    expect(res.body.scenarios).toEqual(
      inThread.scenarios.map((s) => ({
        name: s.name,
        cagr: formatPercent(s.cagr),
        terminal_usd: formatUsd(s.terminalUsd),
      })),
    );
  });

  it('keeps liveness and a cached read fast while the heaviest allowed simulations run', async () => {
    await t.http.get(balancesPath).set(bearer(partner)).expect(200); // now cached
    const started = performance.now();
    const running = [simulate(partner, HEAVIEST), simulate(partnerB, HEAVIEST)];
    let finished = false;
    void Promise.allSettled(running).then(() => (finished = true));
    const live: number[] = [];
    const cached: number[] = [];
    await admitted(2); // both under way: one running, one waiting for the worker
    while (!finished) {
      let at = performance.now();
      await t.http.get('/health/live').expect(200);
      live.push(performance.now() - at);
      at = performance.now();
      await t.http.get(balancesPath).set(bearer(partner)).expect(200);
      cached.push(performance.now() - at);
      await sleep(100);
    }
    const results = await Promise.all(running);
    const elapsed = performance.now() - started;
    for (const res of results) expect(res.status).toBe(200);
    expect(results[0].body.horizon_years).toBe(HEAVIEST.horizon_years);
    const worst = (samples: number[]) => Math.round(Math.max(...samples));
    const p95 = (samples: number[]) =>
      Math.round([...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.95) - 1]);
    console.log(
      `two heaviest simulations (${SYMBOLS.length} assets × ${HEAVIEST.horizon_years} years) in ${Math.round(elapsed)} ms; ` +
        `liveness p95 ${p95(live)} ms, worst ${worst(live)} ms of ${live.length}; ` +
        `cached balances p95 ${p95(cached)} ms, worst ${worst(cached)} ms of ${cached.length}`,
    );
    expect(p95(live)).toBeLessThan(P95_LIMIT_MS);
    expect(p95(cached)).toBeLessThan(P95_LIMIT_MS);
    expect(worst(live)).toBeLessThan(WORST_LIMIT_MS);
    expect(worst(cached)).toBeLessThan(WORST_LIMIT_MS);
    expect(live.length).toBeGreaterThanOrEqual(3);
  });

  it('answers 429 with Retry-After beyond the per-client cap, and the client may go on afterwards', async () => {
    const first = simulate(partner, LONG).then((res) => res);
    await admitted(1);
    expectBusy(await simulate(partner, SHORT), 429, 'too_many_simulations');
    // Another client is not held back by this one's cap.
    const other = await simulate(partnerB, SHORT).expect(200);
    expect(other.body.horizon_years).toBe(1);
    expect((await first).status).toBe(200);
    await simulate(partner, SHORT).expect(200);
  });

  it('answers 503 with Retry-After when every worker is busy and the queue is full', async () => {
    const third = await t.app.get(ClientsService).createClient(t.tenant!.slug, ['partner'], 'simulate-third');
    const thirdToken = await t.token(third.clientId, third.clientSecret);
    const running = [simulate(partner, LONG).then((r) => r), simulate(partnerB, LONG).then((r) => r)];
    await admitted(2);
    expectBusy(await simulate(thirdToken, SHORT), 503, 'simulations_busy');
    for (const done of await Promise.all(running)) expect(done.status).toBe(200);
    await simulate(thirdToken, SHORT).expect(200);
  });

  it('answers 400 naming horizon_years when assets × years exceed the budget', async () => {
    const res = await simulate(partner, { ...HEAVIEST, horizon_years: HEAVIEST.horizon_years + 1 }).expect(
      400,
    );
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.errors).toEqual({
      horizon_years: [
        `With 30 assets, horizon_years may be at most 20: assets × horizon_years must not exceed ${BUDGET_ASSET_YEARS} (10,000 paths × 12 steps a year each).`,
      ],
    });
    const fifty = await simulate(partner, {
      ...HEAVIEST,
      portfolio: equalWeights(SYMBOLS.slice(0, 13)),
      horizon_years: 50,
    }).expect(400);
    expect(Object.keys(fifty.body.errors)).toEqual(['horizon_years']);
    expect(fifty.body.errors.horizon_years[0]).toMatch(/^With 13 assets, horizon_years may be at most 46:/);
  });

  it('ends its worker threads when the application closes', async () => {
    await simulate(partner, SHORT).expect(200);
    const pool = t.app.get(SimulationPool);
    const piscina = (pool as unknown as { pool: { threads: unknown[] } }).pool;
    expect(pool.threads).toBe(1);
    const started = performance.now();
    closed = true;
    await t.close();
    await t.closeApp();
    expect(piscina.threads).toHaveLength(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

function expectBusy(res: Response, status: number, reason: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.body).toMatchObject({ status, reason, instance: '/qsim/simulate' });
  expect(res.body.detail).toMatch(/retry after 5 seconds/);
}
