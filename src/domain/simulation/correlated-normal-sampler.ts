import type { RandomSource } from '../random/seeded-random.js';
import type { Matrix } from './cholesky.js';

/**
 * Draws vectors from N(mean, L·Lᵀ) as mean + L·z, z standard normal from the random
 * source, consuming exactly `dimension` normals per draw in asset order (the order is
 * part of what makes a seeded run reproducible). Allocation-free per draw.
 */
export class CorrelatedNormalSampler {
  readonly dimension: number;
  private readonly mean: Float64Array;
  /** Row-major n×n lower triangle. */
  private readonly lower: Float64Array;
  private readonly z: Float64Array;
  /** Normals of fillSteps, grown on demand. */
  private stepNormals = new Float64Array(0);

  constructor(
    mean: readonly number[],
    lower: Matrix,
    private readonly random: RandomSource,
  ) {
    this.dimension = mean.length;
    this.mean = Float64Array.from(mean);
    this.lower = new Float64Array(this.dimension * this.dimension);
    for (let i = 0; i < this.dimension; i++) {
      for (let j = 0; j <= i; j++) this.lower[i * this.dimension + j] = lower[i][j];
    }
    this.z = new Float64Array(this.dimension);
  }

  /** Writes one draw into `out` (length ≥ dimension). */
  fill(out: Float64Array): void {
    const n = this.dimension;
    const z = this.z;
    const lower = this.lower;
    for (let i = 0; i < n; i++) z[i] = this.random.normal();
    for (let i = 0; i < n; i++) {
      let value = this.mean[i];
      const row = i * n;
      for (let j = 0; j <= i; j++) value += lower[row + j] * z[j];
      out[i] = value;
    }
  }

  /**
   * `steps` draws at once into out[0 .. steps·dimension), draw s at offset s·dimension: the
   * same numbers as `steps` calls of fill(), with the normals drawn in one bulk call of the
   * random source (RandomSource.fillNormals) when it has one.
   */
  fillSteps(out: Float64Array, steps: number): void {
    const n = this.dimension;
    const count = steps * n;
    if (this.stepNormals.length < count) this.stepNormals = new Float64Array(count);
    const z = this.stepNormals;
    if (this.random.fillNormals) this.random.fillNormals(z, count);
    else for (let k = 0; k < count; k++) z[k] = this.random.normal();
    const lower = this.lower;
    const mean = this.mean;
    for (let base = 0; base < count; base += n) {
      for (let i = 0; i < n; i++) {
        let value = mean[i];
        const row = i * n;
        for (let j = 0; j <= i; j++) value += lower[row + j] * z[base + j];
        out[base + i] = value;
      }
    }
  }
}
