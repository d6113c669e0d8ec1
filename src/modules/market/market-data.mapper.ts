import type { MarketDataRecordDto } from './dto/market-data-record.dto.js';
import type { MarketDataRecord } from './market-data.service.js';

/** Field for field today; the one place to change when the record and the service model diverge. */
export function toMarketDataRecordDto(record: MarketDataRecord): MarketDataRecordDto {
  return {
    id: record.id,
    symbol: record.symbol,
    name: record.name,
    price: record.price,
    marketCap: record.marketCap,
    marketCapRank: record.marketCapRank,
    circulatingSupply: record.circulatingSupply,
    totalSupply: record.totalSupply,
    maxSupply: record.maxSupply,
    volume24h: record.volume24h,
    volatility: record.volatility,
    communityScore: record.communityScore,
    developerScore: record.developerScore,
    liquidityScore: record.liquidityScore,
    publicInterestScore: record.publicInterestScore,
    lastUpdated: record.lastUpdated,
    source: record.source,
    asOf: record.asOf,
    scoreInputsSource: record.scoreInputsSource,
  };
}
