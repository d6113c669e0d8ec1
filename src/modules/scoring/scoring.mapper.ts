import type { PortfolioScore } from '../../domain/scoring/portfolio-score.js';
import type { AssetScoreDto } from './dto/asset-score.dto.js';
import type { PortfolioScoreDto } from './dto/portfolio-score.dto.js';
import type { AssetScoreRecord } from './asset-scoring.service.js';

export function toAssetScoreDto(record: AssetScoreRecord): AssetScoreDto {
  return { symbol: record.symbol, qScore: record.qScore, fScore: record.fScore, rScore: record.rScore };
}

/** The spec's portfolio score result; the unrounded portfolio volatility stays internal. */
export function toPortfolioScoreDto(score: PortfolioScore): PortfolioScoreDto {
  return {
    qScore: score.qScore,
    fScore: score.fScore,
    rScore: score.rScore,
    allocation: { ...score.allocation },
    breakdown: Object.fromEntries(
      Object.entries(score.breakdown).map(([symbol, s]) => [
        symbol,
        { qScore: s.qScore, fScore: s.fScore, rScore: s.rScore },
      ]),
    ),
  };
}
