import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MARKET_PRICES } from '../../common/ports/market-prices.port.js';
import { AppConfig } from '../../config/app-config.js';
import { AssetEntity } from './entities/asset.entity.js';
import { ChainTokenEntity, ChainTokenPriceEntity } from './entities/chain-token.entity.js';
import { MarketRefreshJobEntity } from './entities/market-refresh-job.entity.js';
import { MarketSnapshotEntity } from './entities/market-snapshot.entity.js';
import { PriceHistoryEntity } from './entities/price-history.entity.js';
import { MarketDataController } from './market-data.controller.js';
import { MarketDataService } from './market-data.service.js';
import { MarketPricesService } from './market-prices.service.js';
import { TokenPricesService } from './token-prices.service.js';
import { MarketRefreshService } from './market-refresh.service.js';
import { MarketSandboxSeed } from './market-sandbox.seed.js';
import { JobsModule } from '../jobs/index.js';
import { MarketScheduler } from './market.scheduler.js';
import { MarketRepository } from './market.repository.js';
import { MARKET_DATA_PROVIDER, type MarketDataProvider } from './providers/market-data-provider.js';
import { CoinGeckoMarketProvider } from './providers/coingecko-market.provider.js';
import { SandboxMarketProvider } from './providers/sandbox-market.provider.js';

/**
 * Owns market data: the tracked assets, their latest snapshots and daily price history, the
 * providers that fill them (sandbox, coingecko) and the scheduled refresh. Serves everything from
 * the store; never calls a provider while answering a request. Exports MARKET_PRICES (the port
 * accounts, reports and simulations use) and the read services the scoring module needs.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      AssetEntity,
      MarketSnapshotEntity,
      PriceHistoryEntity,
      MarketRefreshJobEntity,
      ChainTokenEntity,
      ChainTokenPriceEntity,
    ]),
    JobsModule,
  ],
  controllers: [MarketDataController],
  providers: [
    MarketRepository,
    {
      provide: MARKET_DATA_PROVIDER,
      inject: [AppConfig],
      useFactory: (config: AppConfig): MarketDataProvider =>
        config.MARKET_PROVIDER === 'coingecko'
          ? new CoinGeckoMarketProvider({
              baseUrl: config.COINGECKO_BASE_URL,
              apiKey: config.COINGECKO_API_KEY,
            })
          : new SandboxMarketProvider(),
    },
    MarketRefreshService,
    MarketScheduler,
    MarketSandboxSeed,
    TokenPricesService,
    MarketPricesService,
    { provide: MARKET_PRICES, useExisting: MarketPricesService },
    MarketDataService,
  ],
  exports: [MARKET_PRICES, MarketPricesService, MarketDataService, MarketRefreshService],
})
export class MarketModule {}
