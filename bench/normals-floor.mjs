/**
 * The Monte Carlo's floor, shared by bench/monte-carlo.mjs (the simulator against it) and
 * bench/simulate.mjs (the HTTP request against it): a bare typed-array loop that draws exactly
 * the correlated normals the parametric simulator needs (xoshiro128** + Marsaglia polar, inlined,
 * into a Float64Array; then μΔ + L·z per step, one draw per antithetic pair of paths) and does
 * nothing else: no exp, no portfolio, no sorting. The simulator cannot draw fewer normals without
 * changing what a seed gives, so its time over the floor's is what the model costs beyond the
 * random numbers.
 *
 * Built on the compiled domain (dist/): SeededRandom checks that the floor drew the same first
 * normal, and the inputs come from the simulator's own estimation and factorisation.
 */
const { SeededRandom } = await import('../dist/src/domain/random/seeded-random.js');
const { estimateAnnualMoments } = await import('../dist/src/domain/simulation/annual-moments.js');
const { factorCovariance } = await import('../dist/src/domain/simulation/covariance-factor.js');

/**
 * The floor's inputs from aligned daily log returns (one series per asset): the same step drift
 * and Cholesky factor (row-major, flat) the parametric simulator would use on the history's own
 * moments, the number of antithetic pairs and of steps. What it costs does not depend on the
 * values, only on the sizes.
 */
export function floorInputs(dailyLogReturns, { paths, years, stepsPerYear = 12 }) {
  const n = dailyLogReturns.length;
  const { drift, covariance } = estimateAnnualMoments(dailyLogReturns);
  const stepDrift = Float64Array.from(drift, (mu) => mu / stepsPerYear);
  const { lower } = factorCovariance(covariance.map((row) => row.map((v) => v / stepsPerYear)));
  const lowerFlat = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) lowerFlat[i * n + j] = lower[i][j];
  return { stepDrift, lower: lowerFlat, n, pairs: Math.ceil(paths / 2), steps: years * stepsPerYear };
}

/** Runs the floor on floorInputs(...) with a seed; returns a checksum so nothing is optimised away. */
export function runFloor({ stepDrift, lower, n, pairs, steps }, seed) {
  return floor(stepDrift, lower, n, pairs, steps, seed);
}

/**
 * The generator is written out here (not SeededRandom) so the floor pays no call or property
 * cost; it checks that it drew the same first normal as SeededRandom, so the two really draw the
 * same numbers.
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
