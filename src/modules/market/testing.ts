/**
 * For tests only (the lint rule lets test/ import it, never src/): the stored prices, the catalog,
 * the refresh job's name and the provider seam (its token, its type, the CoinGecko provider), to
 * run a refresh against a fake provider and check what was stored.
 */
export { catalogAsset, MARKET_CATALOG } from './market-catalog.js';
export { MARKET_REFRESH_JOB } from './market-refresh.service.js';
export { MarketRepository } from './market.repository.js';
export { CoinGeckoMarketProvider } from './providers/coingecko-market.provider.js';
export { MARKET_DATA_PROVIDER, type MarketDataProvider } from './providers/market-data-provider.js';
export { SandboxMarketProvider } from './providers/sandbox-market.provider.js';
export { MarketPricesService } from './market-prices.service.js';
export { CallBudget, TokenPricesService, UNPRICEABLE_RETRY_MS } from './token-prices.service.js';
export { ChainTokenEntity, ChainTokenPriceEntity } from './entities/chain-token.entity.js';
