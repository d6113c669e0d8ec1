/**
 * How a raw measure becomes a 0–100 score. Every score in the service (fScore, rScore,
 * qScore and the four derived market-data scores) is built from these, so clamping and
 * rounding behave the same everywhere. Formulas: docs/scoring.md.
 */

/** Clamps to [0, 1]; NaN (missing or undefined input) counts as 0. */
export function clamp01(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Clamps to the score range [0, 100]; NaN counts as 0. */
export function clampScore(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** Published scores carry two decimals. */
export function roundScore(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * 0 at zero, 100 at `fullScaleAt` or more, logarithmic in between: log10(1 + x) / log10(1 + full).
 * Counts such as followers or stars span many orders of magnitude, so each tenfold step
 * earns about the same number of points. Null (not reported) and negatives count as 0.
 */
export function logScaled(value: number | null | undefined, fullScaleAt: number): number {
  const x = value == null || !Number.isFinite(value) || value < 0 ? 0 : value;
  return 100 * clamp01(Math.log10(1 + x) / Math.log10(1 + fullScaleAt));
}

/**
 * Market-cap rank to points: rank 1 → 100, 10 → 66.67, 100 → 33.33, 1000 or worse → 0
 * (100 × (1 − log10(rank) / 3)). Unknown rank → 0.
 */
export function rankScaled(rank: number | null | undefined): number {
  if (rank == null || !Number.isFinite(rank) || rank < 1) return 0;
  return 100 * clamp01(1 - Math.log10(rank) / 3);
}
