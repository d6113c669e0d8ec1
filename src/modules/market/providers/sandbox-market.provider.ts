/**
 * SYNTHETIC SANDBOX MARKET: NOT REAL MARKET DATA. Serves the deterministic model of
 * src/domain/market (docs/sandbox-market.md) through the provider interface; everything it
 * returns is stored with source "sandbox" and says so in every record.
 */
import { Decimal } from 'decimal.js';
import { sandboxAssetByCoingeckoId, SANDBOX_ASSETS } from '../../../domain/market/sandbox-assets.js';
import {
  generateDailyHistory,
  sandboxMarketCapRanks,
  snapshotAt,
} from '../../../domain/market/sandbox-market.js';
import { utcDate } from '../market-dates.js';
import type {
  MarketDataProvider,
  ProviderDailyPrice,
  ProviderQuote,
  ProviderScoreInputs,
} from './market-data-provider.js';

const plain = (value: number): string => new Decimal(value).toFixed();

export class SandboxMarketProvider implements MarketDataProvider {
  readonly source = 'sandbox' as const;
  readonly perAssetCallBudget = Number.POSITIVE_INFINITY;

  async quotes(coingeckoIds: readonly string[], now: Date): Promise<ProviderQuote[]> {
    const date = utcDate(now);
    // Rank among all sandbox assets by the day's market cap, as CoinGecko ranks the whole market.
    const ranks = sandboxMarketCapRanks(date);
    const wanted = new Set(coingeckoIds);
    return SANDBOX_ASSETS.filter((asset) => wanted.has(asset.coingeckoId))
      .flatMap((asset) => {
        const snapshot = snapshotAt(asset, date);
        return snapshot ? [{ asset, snapshot, rank: ranks.get(asset.coingeckoId)! }] : [];
      })
      .sort((a, b) => a.rank - b.rank)
      .map(({ asset, snapshot, rank }) => ({
        coingeckoId: asset.coingeckoId,
        symbol: asset.symbol,
        name: asset.name,
        priceUsd: plain(snapshot.priceUsd),
        marketCapUsd: plain(snapshot.marketCapUsd),
        volume24hUsd: plain(snapshot.volume24hUsd),
        marketCapRank: rank,
        circulatingSupply: plain(snapshot.circulatingSupply),
        totalSupply: plain(snapshot.totalSupply),
        maxSupply: snapshot.maxSupply === null ? null : plain(snapshot.maxSupply),
        updatedAt: now,
      }));
  }

  async scoreInputs(coingeckoId: string): Promise<ProviderScoreInputs | null> {
    const asset = sandboxAssetByCoingeckoId(coingeckoId);
    return asset ? { developer: asset.developer, community: asset.community } : null;
  }

  async dailyHistory(coingeckoId: string, fromDate: string, toDate: string): Promise<ProviderDailyPrice[]> {
    const asset = sandboxAssetByCoingeckoId(coingeckoId);
    if (!asset) return [];
    return generateDailyHistory(asset, fromDate, toDate).map((row) => ({
      date: row.date,
      priceUsd: row.priceUsd,
      marketCapUsd: row.marketCapUsd,
      volumeUsd: row.volumeUsd,
    }));
  }
}
