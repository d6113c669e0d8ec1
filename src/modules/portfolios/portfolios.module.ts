import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MarketModule } from '../market/index.js';
import { ScoringModule } from '../scoring/index.js';
import { PortfolioAllocationEntity } from './entities/portfolio-allocation.entity.js';
import { PortfolioEntity } from './entities/portfolio.entity.js';
import { PortfoliosController } from './portfolios.controller.js';
import { PortfoliosRepository } from './portfolios.repository.js';
import { PortfoliosSandboxSeed } from './portfolios-sandbox.seed.js';
import { PortfoliosService } from './portfolios.service.js';

/**
 * Owns tenant portfolios (name + percentage allocations). Reads market data only through
 * MARKET_PRICES (known symbols) and AssetScoringService (qScore); never sees another tenant's rows.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PortfolioEntity, PortfolioAllocationEntity]),
    MarketModule,
    ScoringModule,
  ],
  controllers: [PortfoliosController],
  providers: [PortfoliosRepository, PortfoliosService, PortfoliosSandboxSeed],
  exports: [PortfoliosService],
})
export class PortfoliosModule {}
