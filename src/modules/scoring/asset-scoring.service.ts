import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { DomainError, ErrorCode, type FieldErrors } from '../../common/errors/domain-error.js';
import {
  annualizeCovariance,
  annualizedVolatility,
  covarianceMatrix,
  dailyLogReturns,
  maxDrawdown,
} from '../../domain/market/volatility.js';
import { scoreAsset, type AssetScore, type ScoreTriple } from '../../domain/scoring/asset-score.js';
import { grade, riskLevel, type Grade, type RiskLevel } from '../../domain/scoring/grades.js';
import {
  ALLOCATION_SUM_TOLERANCE,
  scorePortfolio,
  type PortfolioScore,
  type ReturnCovariance,
} from '../../domain/scoring/portfolio-score.js';
import { ScoringError, ScoringErrorCode } from '../../domain/scoring/scoring.errors.js';
import { MarketDataService, type AssetScoringData } from '../market/index.js';

/** Drawdown and correlations are measured over the last year of daily history (docs/scoring.md). */
export const RISK_WINDOW_DAYS = 365;
/** Computed scores kept per store version and date; a refresh (any instance) changes the version. */
const CACHE_ENTRIES = 16;

export interface AssetScoreRecord extends ScoreTriple {
  symbol: string;
}

export interface ScoreOptions {
  /** Score as of this UTC date (YYYY-MM-DD) instead of the latest stored data. */
  asOfDate?: string;
  /** The request field that carried a symbol's allocation, so errors name it (default: the symbol). */
  fieldFor?: (symbol: string) => string;
}

export interface HoldingsScore extends PortfolioScore {
  grade: Grade;
  riskLevel: RiskLevel;
}

interface AssetModel {
  score: AssetScore;
  marketCapUsd: number;
  dates: string[];
  prices: number[];
}

/**
 * Q/F/R scores of assets and of sets of holdings, from stored market data through the pure
 * formulas of src/domain/scoring. Used by /api/scores, /api/calculate-portfolio-score, portfolio
 * qScores and (later) /qscore/evaluate via scoreHoldings. Throws DomainError only.
 */
@Injectable()
export class AssetScoringService {
  private readonly cache = new Map<string, Promise<Map<string, AssetModel>>>();

  constructor(private readonly marketData: MarketDataService) {}

  /** Scores of every stored asset with enough history, largest market cap first. */
  async scoreAssets(asOfDate?: string): Promise<AssetScoreRecord[]> {
    const models = await this.models(asOfDate);
    return [...models.entries()]
      .sort(([a, x], [b, y]) => y.marketCapUsd - x.marketCapUsd || a.localeCompare(b))
      .map(([symbol, { score }]) => ({
        symbol,
        qScore: score.qScore,
        fScore: score.fScore,
        rScore: score.rScore,
      }));
  }

  /**
   * Scores allocations given as percentages (upper-case symbol → %, non-negative, summing to
   * 100 ± 0.01). 400 naming the field for a negative or non-numeric value, a bad sum, or a symbol
   * without score data.
   */
  async scoreAllocation(
    allocationPercentBySymbol: Readonly<Record<string, number>>,
    options: ScoreOptions = {},
  ): Promise<PortfolioScore> {
    const fieldFor = options.fieldFor ?? ((symbol: string) => symbol);
    validateAllocation(allocationPercentBySymbol, fieldFor);
    const models = await this.models(options.asOfDate);
    const symbols = Object.keys(allocationPercentBySymbol);
    const missing = symbols.filter((symbol) => !models.has(symbol));
    if (missing.length > 0) throw missingScoreData(missing, fieldFor, options.asOfDate);
    const assetScores = Object.fromEntries(symbols.map((symbol) => [symbol, models.get(symbol)!.score]));
    // The sum was checked exactly above; rescaling to 100 keeps a decimal 99.99 from failing the
    // domain's float re-check (33.33 × 3 sums to 99.99000000000001 in binary). Weights are unchanged.
    const total = symbols.reduce((sum, symbol) => sum + allocationPercentBySymbol[symbol], 0);
    const rescaled = Object.fromEntries(
      symbols.map((symbol) => [symbol, (allocationPercentBySymbol[symbol] * 100) / total]),
    );
    try {
      const score = scorePortfolio(rescaled, assetScores, returnCovariance(symbols, models));
      return { ...score, allocation: { ...allocationPercentBySymbol } };
    } catch (error) {
      if (error instanceof ScoringError) throw domainErrorFrom(error, fieldFor);
      throw error;
    }
  }

  /**
   * Scores holdings given as any non-negative weights per symbol (USD values as numbers or decimal
   * text, units, fractions): they are normalised to percentages, zero weights dropped. For
   * /qscore/evaluate: supply the account's holdings valued as of `asOfDate`.
   */
  async scoreHoldings(
    weightsBySymbol: Readonly<Record<string, number | string>>,
    asOfDate?: string,
  ): Promise<HoldingsScore> {
    const weights = Object.entries(weightsBySymbol).map(
      ([symbol, weight]) => [symbol.toUpperCase(), Number(weight)] as const,
    );
    const bad = weights.filter(([, weight]) => !Number.isFinite(weight) || weight < 0);
    if (bad.length > 0) {
      throw fieldErrors(
        Object.fromEntries(
          bad.map(([symbol]) => [symbol, [`The weight of ${symbol} must be a non-negative number.`]]),
        ),
      );
    }
    const held = weights.filter(([, weight]) => weight > 0);
    const total = held.reduce((sum, [, weight]) => sum + weight, 0);
    if (held.length === 0 || !(total > 0)) {
      throw DomainError.validation('holdings', 'There are no holdings with a positive value to score.');
    }
    const percentages: Record<string, number> = {};
    for (const [symbol, weight] of held)
      percentages[symbol] = (percentages[symbol] ?? 0) + (weight / total) * 100;
    const score = await this.scoreAllocation(percentages, { asOfDate });
    return { ...score, grade: grade(score.qScore), riskLevel: riskLevel(score.rScore) };
  }

  private async models(asOfDate?: string): Promise<Map<string, AssetModel>> {
    const version = await this.marketData.storeVersion();
    const key = `${version ?? 'empty'}|${asOfDate ?? 'latest'}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = this.computeModels(asOfDate);
      this.cache.set(key, entry);
      entry.catch(() => this.cache.delete(key));
      while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    }
    return entry;
  }

  private async computeModels(asOfDate?: string): Promise<Map<string, AssetModel>> {
    const data = await this.marketData.scoringData(undefined, RISK_WINDOW_DAYS, asOfDate);
    const models = new Map<string, AssetModel>();
    for (const [symbol, asset] of data) {
      const model = assetModel(asset);
      if (model) models.set(symbol, model);
    }
    return models;
  }
}

function assetModel(asset: AssetScoringData): AssetModel | null {
  const prices = asset.prices.filter((price) => price > 0);
  const volatility = annualizedVolatility(prices);
  if (volatility === null || prices.length !== asset.prices.length) return null;
  const score = scoreAsset({
    marketCapUsd: asset.marketCapUsd,
    circulatingSupply: asset.circulatingSupply,
    totalSupply: asset.totalSupply,
    maxSupply: asset.maxSupply,
    liquidityScore: asset.derived.liquidityScore,
    developerScore: asset.derived.developerScore,
    communityScore: asset.derived.communityScore,
    annualizedVolatility: volatility,
    maxDrawdown: maxDrawdown(prices),
  });
  return { score, marketCapUsd: asset.marketCapUsd, dates: asset.dates, prices: asset.prices };
}

/**
 * Annualized covariance of daily log returns over the days every allocated asset has a price
 * (one-year window). Fewer than three such days leaves no correlation to measure: that is missing
 * score data for the assets with the shortest history.
 */
function returnCovariance(symbols: readonly string[], models: Map<string, AssetModel>): ReturnCovariance {
  const priceByDate = symbols.map((symbol) => {
    const model = models.get(symbol)!;
    return new Map(model.dates.map((date, i) => [date, model.prices[i]]));
  });
  const common = models
    .get(symbols[0])!
    .dates.filter((date) => priceByDate.every((prices) => prices.has(date)));
  if (common.length < 3) {
    const shortest = Math.min(...symbols.map((symbol) => models.get(symbol)!.dates.length));
    const short = symbols.filter((symbol) => models.get(symbol)!.dates.length === shortest);
    throw new ScoringError(ScoringErrorCode.MissingScoreData, 'Not enough overlapping price history', short);
  }
  const returns = priceByDate.map((prices) => dailyLogReturns(common.map((date) => prices.get(date)!)));
  return { symbols, annualized: annualizeCovariance(covarianceMatrix(returns)) };
}

function validateAllocation(
  allocation: Readonly<Record<string, number>>,
  fieldFor: (symbol: string) => string,
): void {
  const symbols = Object.keys(allocation);
  if (symbols.length === 0) {
    throw DomainError.validation('allocations', 'At least one allocation is required.');
  }
  const errors: FieldErrors = {};
  for (const symbol of symbols) {
    const value = allocation[symbol];
    const field = fieldFor(symbol);
    if (typeof value !== 'number' || !Number.isFinite(value)) errors[field] = [`${field} must be a number.`];
    else if (value < 0) errors[field] = [`${field} must not be negative.`];
  }
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  // Exact decimal arithmetic on the numbers as written: 33.33 + 33.33 + 33.33 is 99.99, inside the tolerance.
  const total = symbols.reduce((sum, symbol) => sum.plus(allocation[symbol]), new Decimal(0));
  if (total.minus(100).abs().greaterThan(ALLOCATION_SUM_TOLERANCE)) {
    throw DomainError.validation(
      'allocations',
      `Allocations must sum to 100 (±${ALLOCATION_SUM_TOLERANCE}); they sum to ${total.toFixed()}.`,
    );
  }
}

function missingScoreData(
  symbols: readonly string[],
  fieldFor: (symbol: string) => string,
  asOfDate?: string,
) {
  const when = asOfDate ? ` as of ${asOfDate}` : '';
  return fieldErrors(
    Object.fromEntries(
      symbols.map((symbol) => [
        fieldFor(symbol),
        [`No score data for ${symbol}${when}: not a tracked asset with enough price history.`],
      ]),
    ),
  );
}

function domainErrorFrom(error: ScoringError, fieldFor: (symbol: string) => string): DomainError {
  if (error.code === ScoringErrorCode.MissingScoreData) return missingScoreData(error.symbols, fieldFor);
  if (error.symbols.length === 0) return DomainError.validation('allocations', `${error.message}.`);
  return fieldErrors(
    Object.fromEntries(error.symbols.map((symbol) => [fieldFor(symbol), [`${error.message}.`]])),
  );
}

function fieldErrors(errors: FieldErrors): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', errors);
}
