import { Module } from '@nestjs/common';
import { MarketModule } from '../market/index.js';
import { AssetScoringService } from './asset-scoring.service.js';
import { ScoresController } from './scores.controller.js';

/**
 * Q/F/R scores of assets and portfolios from the market store, through the pure formulas of
 * src/domain/scoring. Owns no tables and never calls a market provider. Exports
 * AssetScoringService (scoreAssets, scoreAllocation, scoreHoldings) for portfolios and
 * /qscore/evaluate.
 */
@Module({
  imports: [MarketModule],
  controllers: [ScoresController],
  providers: [AssetScoringService],
  exports: [AssetScoringService],
})
export class ScoringModule {}
