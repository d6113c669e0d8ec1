/**
 * Portfolio scores from allocations, per-asset scores and the covariance of the assets'
 * returns (docs/scoring.md, "Portfolio"). Callers: /api/calculate-portfolio-score (the
 * request's allocations) and /qscore/evaluate (weights from an account's holdings as of
 * a date); both supply percentages and already-computed asset scores.
 *
 *   fScore = Σ wᵢ·Fᵢ
 *   σp     = √(wᵀ Σ w), Σᵢⱼ = ρᵢⱼ σᵢ σⱼ (ρ from the given covariance, σᵢ each asset's volatility)
 *   rScore = 0.5·volatilityPoints(σp) + 0.3·Σ wᵢ·drawdownᵢ + 0.2·Σ wᵢ·illiquidityᵢ
 *   qScore = 0.6·fScore + 0.4·(100 − rScore)
 *
 * Risk is not a weighted average: uncorrelated assets lower σp, perfectly correlated ones
 * give exactly the weighted average of their volatilities (and so never lower risk).
 */
import {
  fundamentalsFrom,
  riskFrom,
  roundTriple,
  volatilityRiskPoints,
  type AssetScore,
  type ScoreTriple,
} from './asset-score.js';
import { ScoringError, ScoringErrorCode } from './scoring.errors.js';

/** Allocations must sum to 100 within this tolerance (the API's rule). */
export const ALLOCATION_SUM_TOLERANCE = 0.01;

/** Annualized covariance of daily log returns (market/volatility.ts), rows/columns in `symbols` order. */
export interface ReturnCovariance {
  readonly symbols: readonly string[];
  readonly annualized: readonly (readonly number[])[];
}

export interface PortfolioScore extends ScoreTriple {
  /** Echo of the input: symbol → percentage. */
  readonly allocation: Readonly<Record<string, number>>;
  /** symbol → that asset's own scores. */
  readonly breakdown: Readonly<Record<string, ScoreTriple>>;
  /** σp, unrounded. */
  readonly annualizedVolatility: number;
}

/**
 * @param allocationPercentBySymbol upper-case symbol → percentage of the portfolio (0–100,
 *   summing to 100 ± 0.01). Percentages, as in the API; they are normalised by their sum.
 * @param assetScores symbol → scoreAsset() result, for every allocated symbol.
 * @param covariance annualized covariance of daily log returns covering every allocated
 *   symbol. Only its correlations are used: the diagonal is replaced by each asset's own
 *   volatility, so the portfolio agrees with its breakdown whatever window Σ came from.
 * @throws ScoringError InvalidAllocation / MissingScoreData
 */
export function scorePortfolio(
  allocationPercentBySymbol: Readonly<Record<string, number>>,
  assetScores: Readonly<Record<string, AssetScore>>,
  covariance: ReturnCovariance,
): PortfolioScore {
  const symbols = Object.keys(allocationPercentBySymbol);
  const percentages = symbols.map((symbol) => allocationPercentBySymbol[symbol]);
  validateAllocation(symbols, percentages);
  const covarianceIndex = new Map(covariance.symbols.map((symbol, index) => [symbol, index]));
  validateCovarianceShape(covariance);
  const missing = symbols.filter(
    (symbol) => !Object.hasOwn(assetScores, symbol) || !covarianceIndex.has(symbol),
  );
  if (missing.length > 0) {
    throw new ScoringError(
      ScoringErrorCode.MissingScoreData,
      `No score data for: ${missing.join(', ')}`,
      missing,
    );
  }

  const total = percentages.reduce((sum, p) => sum + p, 0);
  const weights = percentages.map((p) => p / total);
  const scores = symbols.map((symbol) => assetScores[symbol]);
  const indices = symbols.map((symbol) => covarianceIndex.get(symbol) as number);

  let fundamentals = 0;
  let drawdown = 0;
  let illiquidity = 0;
  for (let i = 0; i < symbols.length; i++) {
    fundamentals += weights[i] * fundamentalsFrom(scores[i].components);
    drawdown += weights[i] * scores[i].components.drawdown;
    illiquidity += weights[i] * scores[i].components.illiquidity;
  }

  const volatilities = scores.map((score) => nonNegative(score.annualizedVolatility));
  let variance = 0;
  for (let i = 0; i < symbols.length; i++) {
    for (let j = 0; j < symbols.length; j++) {
      const rho = i === j ? 1 : correlationAt(covariance.annualized, indices[i], indices[j]);
      variance += weights[i] * weights[j] * rho * volatilities[i] * volatilities[j];
    }
  }
  // Negative correlations can leave a rounding-level negative variance.
  const portfolioVolatility = Math.sqrt(Math.max(0, variance));
  const risk = riskFrom(volatilityRiskPoints(portfolioVolatility), drawdown, illiquidity);

  const breakdown: Record<string, ScoreTriple> = {};
  for (let i = 0; i < symbols.length; i++) {
    const { qScore, fScore, rScore } = scores[i];
    breakdown[symbols[i]] = { qScore, fScore, rScore };
  }
  return {
    ...roundTriple(fundamentals, risk),
    allocation: { ...allocationPercentBySymbol },
    breakdown,
    annualizedVolatility: portfolioVolatility,
  };
}

function validateAllocation(symbols: readonly string[], percentages: readonly number[]): void {
  if (symbols.length === 0) {
    throw new ScoringError(ScoringErrorCode.InvalidAllocation, 'At least one allocation is required');
  }
  const bad = symbols.filter((_, i) => !Number.isFinite(percentages[i]) || percentages[i] < 0);
  if (bad.length > 0) {
    throw new ScoringError(
      ScoringErrorCode.InvalidAllocation,
      `Allocations must be non-negative numbers: ${bad.join(', ')}`,
      bad,
    );
  }
  const total = percentages.reduce((sum, p) => sum + p, 0);
  if (Math.abs(total - 100) > ALLOCATION_SUM_TOLERANCE) {
    throw new ScoringError(ScoringErrorCode.InvalidAllocation, `Allocations must sum to 100, got ${total}`);
  }
}

/** A malformed matrix is a caller bug, not bad client input. */
function validateCovarianceShape(covariance: ReturnCovariance): void {
  const n = covariance.symbols.length;
  if (covariance.annualized.length !== n || covariance.annualized.some((row) => row.length !== n)) {
    throw new RangeError(`Covariance matrix must be ${n}×${n} to match its symbols`);
  }
}

/** ρ = Σij / √(Σii Σjj), clamped to [−1, 1]; 0 when either asset shows no variance. */
function correlationAt(matrix: readonly (readonly number[])[], i: number, j: number): number {
  const varianceI = matrix[i][i];
  const varianceJ = matrix[j][j];
  if (!(varianceI > 0) || !(varianceJ > 0) || !Number.isFinite(matrix[i][j])) return 0;
  return Math.max(-1, Math.min(1, matrix[i][j] / Math.sqrt(varianceI * varianceJ)));
}

function nonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}
