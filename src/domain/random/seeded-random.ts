/**
 * Deterministic random source for everything that must be reproducible from a seed
 * (the sandbox market, sandbox account histories, Monte Carlo simulation).
 *
 * xoshiro128** (Blackman & Vigna): 32-bit state words, fast with integer imul,
 * identical on every platform. Seeded through splitmix32 so nearby seeds diverge.
 * Never use Math.random() where a figure must be reproducible.
 */
// Bound once: under Jest's sandbox every global lookup (imul...) is much slower than in Node.
const { imul, log, sqrt, floor } = Math;

export interface RandomSource {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal N(0, 1). */
  normal(): number;
  /** Uniform integer in [minInclusive, maxInclusive]. */
  int(minInclusive: number, maxInclusive: number): number;
  /**
   * Optional bulk form of normal(): writes `count` normals into out[0..count), exactly the
   * numbers `count` calls of normal() would return, in that order.
   */
  fillNormals?(out: Float64Array, count: number): void;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a over the string: turns a name ("sandbox:bitcoin") into a 32-bit seed. */
export function seedFromString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export class SeededRandom implements RandomSource {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal: number | null = null;

  constructor(seed: number | string) {
    const mix = splitmix32(typeof seed === 'string' ? seedFromString(seed) : seed);
    this.s0 = mix();
    this.s1 = mix();
    this.s2 = mix();
    this.s3 = mix();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  private nextUint32(): number {
    const result = imul(rotl(imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 = (this.s2 ^ this.s0) >>> 0;
    this.s3 = (this.s3 ^ this.s1) >>> 0;
    this.s1 = (this.s1 ^ this.s2) >>> 0;
    this.s0 = (this.s0 ^ this.s3) >>> 0;
    this.s2 = (this.s2 ^ t) >>> 0;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  next(): number {
    // 53 bits of randomness from two draws, as Math.random-quality doubles.
    const high = this.nextUint32() >>> 5; // 27 bits
    const low = this.nextUint32() >>> 6; // 26 bits
    return (high * 67108864 + low) / 9007199254740992;
  }

  normal(): number {
    if (this.spareNormal !== null) {
      const spare = this.spareNormal;
      this.spareNormal = null;
      return spare;
    }
    // Marsaglia polar method: exact normals, no trig.
    let u: number;
    let v: number;
    let s: number;
    do {
      u = this.next() * 2 - 1;
      v = this.next() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const factor = sqrt((-2 * log(s)) / s);
    this.spareNormal = v * factor;
    return u * factor;
  }

  /**
   * `count` calls of normal() in one: the same numbers in the same order, the generator state
   * left exactly as they would leave it. The state lives in locals for the loop (no property
   * loads and stores per draw), which is what the Monte Carlo's millions of draws need: through
   * normal() the generator took about twice the time of this loop.
   */
  fillNormals(out: Float64Array, count: number): void {
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    let k = 0;
    if (count > 0 && this.spareNormal !== null) {
      out[k++] = this.spareNormal;
      this.spareNormal = null;
    }
    let spare = 0;
    let hasSpare = false;
    while (k < count) {
      let u: number;
      let v: number;
      let s: number;
      do {
        // Four xoshiro128** steps (nextUint32), two per uniform as in next().
        let r = imul(rotl(imul(s1, 5) >>> 0, 7), 9) >>> 0;
        let t = (s1 << 9) >>> 0;
        s2 = (s2 ^ s0) >>> 0;
        s3 = (s3 ^ s1) >>> 0;
        s1 = (s1 ^ s2) >>> 0;
        s0 = (s0 ^ s3) >>> 0;
        s2 = (s2 ^ t) >>> 0;
        s3 = rotl(s3, 11);
        const highU = r >>> 5;
        r = imul(rotl(imul(s1, 5) >>> 0, 7), 9) >>> 0;
        t = (s1 << 9) >>> 0;
        s2 = (s2 ^ s0) >>> 0;
        s3 = (s3 ^ s1) >>> 0;
        s1 = (s1 ^ s2) >>> 0;
        s0 = (s0 ^ s3) >>> 0;
        s2 = (s2 ^ t) >>> 0;
        s3 = rotl(s3, 11);
        u = ((highU * 67108864 + (r >>> 6)) / 9007199254740992) * 2 - 1;
        r = imul(rotl(imul(s1, 5) >>> 0, 7), 9) >>> 0;
        t = (s1 << 9) >>> 0;
        s2 = (s2 ^ s0) >>> 0;
        s3 = (s3 ^ s1) >>> 0;
        s1 = (s1 ^ s2) >>> 0;
        s0 = (s0 ^ s3) >>> 0;
        s2 = (s2 ^ t) >>> 0;
        s3 = rotl(s3, 11);
        const highV = r >>> 5;
        r = imul(rotl(imul(s1, 5) >>> 0, 7), 9) >>> 0;
        t = (s1 << 9) >>> 0;
        s2 = (s2 ^ s0) >>> 0;
        s3 = (s3 ^ s1) >>> 0;
        s1 = (s1 ^ s2) >>> 0;
        s0 = (s0 ^ s3) >>> 0;
        s2 = (s2 ^ t) >>> 0;
        s3 = rotl(s3, 11);
        v = ((highV * 67108864 + (r >>> 6)) / 9007199254740992) * 2 - 1;
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const factor = sqrt((-2 * log(s)) / s);
      out[k++] = u * factor;
      if (k < count) {
        out[k++] = v * factor;
      } else {
        spare = v * factor;
        hasSpare = true;
      }
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
    if (hasSpare) this.spareNormal = spare;
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + floor(this.next() * (maxInclusive - minInclusive + 1));
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
