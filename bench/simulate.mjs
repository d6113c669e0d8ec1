#!/usr/bin/env node
/**
 * Simulation benchmark: POST /qsim/simulate with 10 assets, 10 years of monthly steps and the
 * default 10,000 paths (the domain allows up to 100,000), timed over HTTP: p50 of N runs after a
 * warm-up, plus the simulator alone on the same history (what the request adds around it).
 *
 *   npm run build && node bench/simulate.mjs [--runs 5] [--horizon 10]
 *   Embedded PGlite in memory by default; with DATABASE_URL, a Postgres schema of its own.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    horizon: { type: 'string', default: '10' },
  },
});
const RUNS = Number(args.runs);
const HORIZON = Number(args.horizon);
const DATABASE_URL = process.env.DATABASE_URL;
const SCHEMA = `bench_simulate_${randomBytes(4).toString('hex')}`;
const SYMBOLS = ['BTC', 'ETH', 'SOL', 'ADA', 'DOT', 'LINK', 'AVAX', 'UNI', 'LTC', 'XRP'];

const { createApp } = await import('../dist/src/app.factory.js');
const { loadConfig } = await import('../dist/src/config/app-config.js');
const { MarketHistoryService } = await import('../dist/src/modules/simulation/market-history.service.js');
const { simulatePortfolio, SIMULATION_DEFAULTS, SIMULATION_LIMITS } =
  await import('../dist/src/domain/simulation/monte-carlo.js');

async function schema(action) {
  if (!DATABASE_URL) return;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(
    action === 'create' ? `CREATE SCHEMA ${SCHEMA}` : `DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`,
  );
  await client.end();
}

await schema('create');
let app;
try {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...(DATABASE_URL ? { DATABASE_URL, DATABASE_SCHEMA: SCHEMA } : { DATA_DIR: 'memory' }),
  });
  app = await createApp(config, { logs: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const token = (
    await (
      await fetch(`${base}/v1/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
      })
    ).json()
  ).result.accessToken;

  const body = {
    portfolio: SYMBOLS.map((symbol) => ({ symbol, weight: 0.1 })),
    horizon_years: HORIZON,
    scenarios: ['bull', 'base', 'bear'],
    seed: 2026,
  };
  async function once() {
    const t0 = performance.now();
    const res = await fetch(`${base}/qsim/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`simulate: ${res.status} ${JSON.stringify(json)}`);
    return { ms, json };
  }
  const { json } = await once(); // warm-up
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push((await once()).ms);
  times.sort((a, b) => a - b);

  // The simulator alone, on the same aligned history.
  const aligned = await app.get(MarketHistoryService).alignedDailyLogReturns(SYMBOLS);
  const t0 = performance.now();
  simulatePortfolio({
    assets: SYMBOLS.map((symbol) => ({ symbol, weight: 0.1 })),
    dailyLogReturns: aligned.dailyLogReturns,
    horizonYears: HORIZON,
    seed: 2026,
  });
  const simulatorMs = Math.round(performance.now() - t0);

  console.log(
    JSON.stringify(
      {
        database: DATABASE_URL ? 'postgres' : 'pglite (embedded, in memory)',
        assets: SYMBOLS.length,
        paths: json.paths,
        maxPathsAllowed: SIMULATION_LIMITS.maxPaths,
        defaultPaths: SIMULATION_DEFAULTS.paths,
        steps: HORIZON * json.steps_per_year,
        historyDays: json.history_days,
        runs: RUNS,
        p50Ms: Math.round(times[Math.floor((times.length - 1) / 2)]),
        minMs: Math.round(times[0]),
        maxMs: Math.round(times[times.length - 1]),
        simulatorOnlyMs: simulatorMs,
        scenarios: json.scenarios,
      },
      null,
      2,
    ),
  );
} finally {
  await app?.close();
  await schema('drop');
}
process.exit(0);
