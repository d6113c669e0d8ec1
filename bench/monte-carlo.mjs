#!/usr/bin/env node
/**
 * Monte Carlo simulator against its floor, in one run (issue 16's row: 10,000 paths × 120 steps ×
 * 10 assets ≤ 2× the floor).
 *
 * The floor is a bare typed-array loop that draws exactly the correlated normals the simulator
 * needs (xoshiro128** + Marsaglia polar, inlined, into a Float64Array; then μΔ + L·z per step, one
 * draw per antithetic pair of paths) and does nothing else: no exp, no portfolio, no sorting. The
 * simulator cannot draw fewer normals without changing what a seed gives, so its time over the
 * floor's is what the model costs beyond the random numbers.
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
const { estimateAnnualMoments } = await import('../dist/src/domain/simulation/annual-moments.js');
const { factorCovariance } = await import('../dist/src/domain/simulation/covariance-factor.js');
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

/**
 * The floor: the simulator's correlated normals and nothing more. The generator is written out
 * here (not SeededRandom) so the floor pays no call or property cost; it checks that it drew the
 * same first normal as SeededRandom, so the two really draw the same numbers.
 */
function floor(stepDrift, lower, n, pairs, steps, seed) {
  const reference = new SeededRandom(seed);
  const mix = splitmix32(typeof seed === 'string' ? fnv(seed) : seed);
  let s0 = mix();
  let s1 = mix();
  let s2 = mix();
  let s3 = mix();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  const z = new Float64Array(n);
  const out = new Float64Array(n);
  let spare = 0;
  let hasSpare = false;
  let checksum = 0;
  let first = NaN;
  for (let pair = 0; pair < pairs; pair++) {
    for (let step = 0; step < steps; step++) {
      for (let i = 0; i < n; i++) {
        if (hasSpare) {
          z[i] = spare;
          hasSpare = false;
          continue;
        }
        let u;
        let v;
        let s;
        do {
          let r = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
          let t = (s1 << 9) >>> 0;
          s2 = (s2 ^ s0) >>> 0;
          s3 = (s3 ^ s1) >>> 0;
          s1 = (s1 ^ s2) >>> 0;
          s0 = (s0 ^ s3) >>> 0;
          s2 = (s2 ^ t) >>> 0;
          s3 = rotl(s3, 11);
          const high = r >>> 5;
          r = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
          t = (s1 << 9) >>> 0;
          s2 = (s2 ^ s0) >>> 0;
          s3 = (s3 ^ s1) >>> 0;
          s1 = (s1 ^ s2) >>> 0;
          s0 = (s0 ^ s3) >>> 0;
          s2 = (s2 ^ t) >>> 0;
          s3 = rotl(s3, 11);
          u = ((high * 67108864 + (r >>> 6)) / 9007199254740992) * 2 - 1;
          r = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
          t = (s1 << 9) >>> 0;
          s2 = (s2 ^ s0) >>> 0;
          s3 = (s3 ^ s1) >>> 0;
          s1 = (s1 ^ s2) >>> 0;
          s0 = (s0 ^ s3) >>> 0;
          s2 = (s2 ^ t) >>> 0;
          s3 = rotl(s3, 11);
          const high2 = r >>> 5;
          r = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
          t = (s1 << 9) >>> 0;
          s2 = (s2 ^ s0) >>> 0;
          s3 = (s3 ^ s1) >>> 0;
          s1 = (s1 ^ s2) >>> 0;
          s0 = (s0 ^ s3) >>> 0;
          s2 = (s2 ^ t) >>> 0;
          s3 = rotl(s3, 11);
          v = ((high2 * 67108864 + (r >>> 6)) / 9007199254740992) * 2 - 1;
          s = u * u + v * v;
        } while (s >= 1 || s === 0);
        const factor = Math.sqrt((-2 * Math.log(s)) / s);
        spare = v * factor;
        hasSpare = true;
        z[i] = u * factor;
      }
      if (Number.isNaN(first)) first = z[0];
      for (let i = 0; i < n; i++) {
        let value = stepDrift[i];
        const row = i * n;
        for (let j = 0; j <= i; j++) value += lower[row + j] * z[j];
        out[i] = value;
      }
      checksum += out[n - 1];
    }
  }
  if (first !== reference.normal())
    throw new Error('The floor does not draw the same normals as SeededRandom');
  return checksum;
}

function splitmix32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}
function fnv(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash >>> 0;
}
function rotl(x, k) {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

// The floor's inputs: the same step drift and Cholesky factor the parametric simulator uses.
const { drift, covariance } = estimateAnnualMoments(history);
const stepDrift = Float64Array.from(drift, (mu) => mu / STEPS_PER_YEAR);
const { lower } = factorCovariance(covariance.map((row) => row.map((v) => v / STEPS_PER_YEAR)));
const lowerFlat = new Float64Array(ASSETS * ASSETS);
for (let i = 0; i < ASSETS; i++) for (let j = 0; j <= i; j++) lowerFlat[i * ASSETS + j] = lower[i][j];
const steps = YEARS * STEPS_PER_YEAR;
const pairs = Math.ceil(PATHS / 2);

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
floor(stepDrift, lowerFlat, ASSETS, pairs, steps, SEED);
for (const method of supportsMethods ? methods : ['parametric']) simulate(method);

const report = { paths: PATHS, steps, assets: ASSETS, normalsDrawn: pairs * steps * ASSETS, rounds: [] };
const floors = [];
const sims = Object.fromEntries(methods.map((m) => [m, []]));
for (let round = 0; round < ROUNDS; round++) {
  const row = {};
  const runFloor = () => {
    const { ms } = time(() => floor(stepDrift, lowerFlat, ASSETS, pairs, steps, SEED));
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
    runFloor();
    runSims();
  } else {
    runSims();
    runFloor();
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
