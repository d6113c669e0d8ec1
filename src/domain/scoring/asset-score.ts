/**
 * Per-asset scores, all 0–100, published with two decimals (formulas and reasoning:
 * docs/scoring.md):
 *   fScore: fundamentals, higher = stronger (size, liquidity, developer, community, supply dilution)
 *   rScore: risk, HIGHER = RISKIER (volatility, drawdown, illiquidity)
 *   qScore: 0.6 × fScore + 0.4 × (100 − rScore)
 *
 * Owns the formulas only: where the inputs come from (provider, sandbox, stored history)
 * is the market module's business. The portfolio score reuses the combining functions
 * below, so a one-asset portfolio scores exactly as its asset.
 */
import { clamp01, clampScore, roundScore } from './score-scale.js';

export interface AssetScoreInputs {
  readonly marketCapUsd: number;
  readonly circulatingSupply: number;
  /** null when the provider does not report it. */
  readonly totalSupply: number | null;
  /** null for uncapped assets (ETH). */
  readonly maxSupply: number | null;
  /** Derived 0–100 scores of the market-data record (market/derived-scores.ts). */
  readonly liquidityScore: number;
  readonly developerScore: number;
  readonly communityScore: number;
  /** Annualized standard deviation of daily log returns (0.6 = 60 %), as in the market-data record. */
  readonly annualizedVolatility: number;
  /** Largest peak-to-trough fall over the risk window (last 365 days), as a fraction: 0.5 = 50 %. */
  readonly maxDrawdown: number;
}

/** Unrounded 0–100 parts; fundamentals higher = better, risk parts higher = riskier. */
export interface AssetScoreComponents {
  readonly size: number;
  readonly liquidity: number;
  readonly developer: number;
  readonly community: number;
  /** 100 = no supply left to dilute holders (all of the cap circulates). */
  readonly supplyDilution: number;
  readonly volatility: number;
  readonly drawdown: number;
  readonly illiquidity: number;
}

export interface ScoreTriple {
  readonly qScore: number;
  readonly fScore: number;
  readonly rScore: number;
}

export interface AssetScore extends ScoreTriple {
  readonly components: AssetScoreComponents;
  /** The input volatility, kept because portfolio risk is built from it. */
  readonly annualizedVolatility: number;
}

export const FUNDAMENTAL_WEIGHTS = {
  size: 0.3,
  liquidity: 0.2,
  developer: 0.2,
  community: 0.15,
  supplyDilution: 0.15,
} as const;

export const RISK_WEIGHTS = { volatility: 0.5, drawdown: 0.3, illiquidity: 0.2 } as const;

export const QSCORE_WEIGHTS = { fundamentals: 0.6, safety: 0.4 } as const;

/** Market cap mapped log-linearly: $1M → 0 points, $1T → 100. */
export const SIZE_SCALE_USD = { zeroPoints: 1e6, fullPoints: 1e12 } as const;

/** Annualized volatility that earns the full 100 risk points (150 %); linear below it. */
export const VOLATILITY_FULL_SCALE = 1.5;

/** Supply-dilution points when neither a max nor a total supply is known. */
export const UNKNOWN_SUPPLY_POINTS = 50;

export function scoreAsset(inputs: AssetScoreInputs): AssetScore {
  const components: AssetScoreComponents = {
    size: sizePoints(inputs.marketCapUsd),
    liquidity: clampScore(inputs.liquidityScore),
    developer: clampScore(inputs.developerScore),
    community: clampScore(inputs.communityScore),
    supplyDilution: supplyDilutionPoints(inputs.circulatingSupply, inputs.totalSupply, inputs.maxSupply),
    volatility: volatilityRiskPoints(inputs.annualizedVolatility),
    drawdown: 100 * clamp01(inputs.maxDrawdown),
    illiquidity: 100 - clampScore(inputs.liquidityScore),
  };
  const fundamentals = fundamentalsFrom(components);
  const risk = riskFrom(components.volatility, components.drawdown, components.illiquidity);
  return {
    ...roundTriple(fundamentals, risk),
    components,
    annualizedVolatility: inputs.annualizedVolatility,
  };
}

/** 100 × (log10(marketCap) − 6) / 6, clamped. */
export function sizePoints(marketCapUsd: number): number {
  const { zeroPoints, fullPoints } = SIZE_SCALE_USD;
  return 100 * clamp01(Math.log10(marketCapUsd / zeroPoints) / Math.log10(fullPoints / zeroPoints));
}

/** Circulating / max supply (or / total when uncapped): the share already diluting holders. */
export function supplyDilutionPoints(
  circulatingSupply: number,
  totalSupply: number | null,
  maxSupply: number | null,
): number {
  const cap = maxSupply != null && maxSupply > 0 ? maxSupply : totalSupply;
  if (cap == null || !(cap > 0)) return UNKNOWN_SUPPLY_POINTS;
  return 100 * clamp01(circulatingSupply / cap);
}

/** Linear in annualized volatility up to VOLATILITY_FULL_SCALE; shared by asset and portfolio risk. */
export function volatilityRiskPoints(annualizedVolatility: number): number {
  return 100 * clamp01(annualizedVolatility / VOLATILITY_FULL_SCALE);
}

export function fundamentalsFrom(c: AssetScoreComponents): number {
  const w = FUNDAMENTAL_WEIGHTS;
  return clampScore(
    w.size * c.size +
      w.liquidity * c.liquidity +
      w.developer * c.developer +
      w.community * c.community +
      w.supplyDilution * c.supplyDilution,
  );
}

export function riskFrom(
  volatilityPoints: number,
  drawdownPoints: number,
  illiquidityPoints: number,
): number {
  const w = RISK_WEIGHTS;
  return clampScore(
    w.volatility * volatilityPoints + w.drawdown * drawdownPoints + w.illiquidity * illiquidityPoints,
  );
}

export function qualityFrom(fundamentals: number, risk: number): number {
  return clampScore(QSCORE_WEIGHTS.fundamentals * fundamentals + QSCORE_WEIGHTS.safety * (100 - risk));
}

/** Rounds only at the end, so qScore is computed from the unrounded fScore and rScore. */
export function roundTriple(fundamentals: number, risk: number): ScoreTriple {
  return {
    qScore: roundScore(qualityFrom(fundamentals, risk)),
    fScore: roundScore(fundamentals),
    rScore: roundScore(risk),
  };
}
