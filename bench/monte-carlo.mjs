#!/usr/bin/env node
/**
 * Monte Carlo simulator against its floor, in one run (issue 16's row: 10,000 paths × 120 steps ×
 * 10 assets ≤ 2× the floor).
 *
 * The floor (bench/normals-floor.mjs, shared with bench/simulate.mjs) is a bare typed-array loop
 * that draws exactly the correlated normals the simulator needs (xoshiro128** + Marsaglia polar,
 * inlined, into a Float64Array; then μΔ + L·z per step, one draw per antithetic pair of paths) and
 * does nothing else: no exp, no portfolio, no sorting. The simulator cannot draw fewer normals
 * without changing what a seed gives, so its time over the floor's is what the model costs beyond
 * the random numbers.
 *
 * No database: the history is 2,500 synthetic days of 10 correlated assets, drawn from a fixed
 * seed, so the run is the same on every machine.
 *
 *   npm run build && node bench/monte-carlo.mjs [--rounds 5] [--method parametric|bootstrap|both]
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/monte-carlo.mjs --rounds 3   (where the time goes)
 *
 * Prints per round the floor, the simulator and their ratio (each round times both back to back,
 * alternating which runs first), and the median of each.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    method: { type: 'string', default: 'both' },
    paths: { type: 'string', default: '10000' },
    years: { type: 'string', default: '10' },
    assets: { type: 'string', default: '10' },
  },
});
const ROUNDS = Number(args.rounds);
const PATHS = Number(args.paths);
const YEARS = Number(args.years);
const ASSETS = Number(args.assets);
const STEPS_PER_YEAR = 12;
const SEED = 2026;

const { simulatePortfolio } = await import('../dist/src/domain/simulation/monte-carlo.js');
const { SeededRandom } = await import('../dist/src/domain/random/seeded-random.js');
const { floorInputs, runFloor } = await import('./normals-floor.mjs');
const assumptionsModule = await import('../dist/src/domain/simulation/return-assumptions.js').catch(
  () => undefined,
);

/** 2,500 days of daily log returns: a common factor plus noise, ~60-90 % annual volatility. */
function syntheticHistory(assets, days) {
  const random = new SeededRandom('bench:monte-carlo:history');
  const series = Array.from({ length: assets }, () => new Array(days));
  for (let t = 0; t < days; t++) {
    const market = random.normal() * 0.03;
    for (let i = 0; i < assets; i++) {
      series[i][t] = 0.0008 + (0.6 + 0.04 * i) * market + random.normal() * (0.02 + 0.002 * i);
    }
  }
  return series;
}

const history = syntheticHistory(ASSETS, 2500);
const assets = Array.from({ length: ASSETS }, (_, i) => ({ symbol: `A${i}`, weight: 1 / ASSETS }));

// The floor's inputs: the same step drift and Cholesky factor the parametric simulator uses.
const floorInput = floorInputs(history, { paths: PATHS, years: YEARS, stepsPerYear: STEPS_PER_YEAR });
const { steps, pairs } = floorInput;

const methods =
  args.method === 'both' ? ['parametric', 'bootstrap'] : args.method.split(',').map((m) => m.trim());
const supportsMethods = assumptionsModule !== undefined;

function simulate(method) {
  return simulatePortfolio({
    assets,
    dailyLogReturns: history,
    horizonYears: YEARS,
    seed: SEED,
    paths: PATHS,
    ...(supportsMethods ? { method } : {}),
  });
}

const time = (fn) => {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

// Warm-up: both compiled before timing.
runFloor(floorInput, SEED);
for (const method of supportsMethods ? methods : ['parametric']) simulate(method);

const report = { paths: PATHS, steps, assets: ASSETS, normalsDrawn: pairs * steps * ASSETS, rounds: [] };
const floors = [];
const sims = Object.fromEntries(methods.map((m) => [m, []]));
for (let round = 0; round < ROUNDS; round++) {
  const row = {};
  const timeFloor = () => {
    const { ms } = time(() => runFloor(floorInput, SEED));
    floors.push(ms);
    row.floorMs = Math.round(ms);
  };
  const runSims = () => {
    for (const method of supportsMethods ? methods : ['parametric']) {
      const { ms, value } = time(() => simulate(method));
      sims[method].push(ms);
      row[`${method}Ms`] = Math.round(ms);
      row[`${method}Base`] = value.scenarios.find((s) => s.name === 'base').terminalUsd;
    }
  };
  if (round % 2 === 0) {
    timeFloor();
    runSims();
  } else {
    runSims();
    timeFloor();
  }
  for (const method of supportsMethods ? methods : ['parametric']) {
    row[`${method}Ratio`] = Number((row[`${method}Ms`] / row.floorMs).toFixed(2));
  }
  report.rounds.push(row);
}
report.floorMedianMs = Math.round(median(floors));
for (const method of supportsMethods ? methods : ['parametric']) {
  report[`${method}MedianMs`] = Math.round(median(sims[method]));
  report[`${method}RatioToFloor`] = Number((median(sims[method]) / median(floors)).toFixed(2));
}
report.target = 'simulator ≤ 2× floor';
console.log(JSON.stringify(report, null, 2));
