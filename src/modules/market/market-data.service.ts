import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import {
  deriveScores,
  type CommunityData,
  type DerivedScores,
  type DeveloperData,
} from '../../domain/market/derived-scores.js';
import { annualizedVolatility, DEFAULT_VOLATILITY_WINDOW_DAYS } from '../../domain/market/volatility.js';
import type { MarketSource, ScoreInputsSource } from './entities/asset.entity.js';
import { addDays, utcDate } from './market-dates.js';
import { MarketRepository, type HistoryRow, type StoredMarketRow } from './market.repository.js';

/** A market-data record (the spec's 16 fields) plus where its numbers came from. */
export interface MarketDataRecord {
  id: number;
  symbol: string;
  name: string;
  price: number;
  marketCap: number | null;
  marketCapRank: number | null;
  circulatingSupply: number | null;
  totalSupply: number | null;
  maxSupply: number | null;
  volume24h: number | null;
  volatility: number | null;
  communityScore: number;
  developerScore: number;
  liquidityScore: number;
  publicInterestScore: number;
  lastUpdated: string;
  source: MarketSource;
  asOf: string;
  scoreInputsSource: ScoreInputsSource;
}

/** What the scoring module needs of one asset on one day; numbers, since scores are floats. */
export interface AssetScoringData {
  symbol: string;
  /** The last day the data covers (the snapshot's day, or the last stored day on or before asOfDate). */
  date: string;
  marketCapUsd: number;
  circulatingSupply: number;
  totalSupply: number | null;
  maxSupply: number | null;
  derived: DerivedScores;
  /** Daily prices, oldest first, ending on `date`, at most `windowDays` + 1 of them. */
  dates: string[];
  prices: number[];
}

const NO_DEVELOPER_DATA: DeveloperData = {
  githubStars: null,
  githubForks: null,
  commitCount4Weeks: null,
  contributors: null,
};
const NO_COMMUNITY_DATA: CommunityData = { twitterFollowers: null, redditSubscribers: null };

const numberOrNull = (text: string | null): number | null => (text === null ? null : Number(text));

/**
 * Market data as the API serves it, from the store only: records for /api/crypto-data (volatility
 * from stored history, the four derived scores from stored raw inputs) and the per-asset series the
 * scoring module scores. Never calls a provider.
 */
@Injectable()
export class MarketDataService {
  /** assetId → volatility computed for the snapshot with that asOf (ms). Bounded by the asset count. */
  private readonly volatilityCache = new Map<number, { asOf: number; volatility: number | null }>();

  constructor(private readonly repository: MarketRepository) {}

  /** Records for the given CoinGecko ids, in request order; ids not stored are left out. */
  async records(coingeckoIds: readonly string[]): Promise<MarketDataRecord[]> {
    const rows = await this.repository.findByCoingeckoIds(coingeckoIds);
    if (rows.length === 0) {
      await this.assertSomethingStored();
      return [];
    }
    const volatilities = await this.volatilities(rows);
    const byId = new Map(rows.map((row) => [row.coingeckoId, row]));
    return coingeckoIds
      .map((id) => byId.get(id))
      .filter((row): row is StoredMarketRow => row !== undefined)
      .map((row) => toRecord(row, volatilities.get(row.assetId) ?? null));
  }

  /**
   * 30-day volatility per asset from stored history. Every refresh that writes history also
   * rewrites the snapshot's asOf, so a value computed for the same asOf is still exact: only assets
   * refreshed since the last request cost a history query.
   */
  private async volatilities(rows: readonly StoredMarketRow[]): Promise<Map<number, number | null>> {
    const result = new Map<number, number | null>();
    const stale: StoredMarketRow[] = [];
    for (const row of rows) {
      const cached = this.volatilityCache.get(row.assetId);
      if (cached && cached.asOf === new Date(row.asOf).getTime()) result.set(row.assetId, cached.volatility);
      else stale.push(row);
    }
    if (stale.length === 0) return result;
    const snapshotDate = (row: StoredMarketRow) => utcDate(new Date(row.asOf));
    const dates = stale.map(snapshotDate).sort();
    const history = groupPrices(
      await this.repository.history(
        stale.map((row) => row.assetId),
        addDays(dates[0], -DEFAULT_VOLATILITY_WINDOW_DAYS),
        dates[dates.length - 1],
      ),
    );
    for (const row of stale) {
      const until = snapshotDate(row);
      const from = addDays(until, -DEFAULT_VOLATILITY_WINDOW_DAYS);
      const prices = (history.get(row.assetId) ?? [])
        .filter((entry) => entry.date >= from && entry.date <= until && entry.price > 0)
        .map((entry) => entry.price);
      const raw = annualizedVolatility(prices);
      const volatility = raw === null ? null : Math.round(raw * 1e6) / 1e6;
      this.volatilityCache.set(row.assetId, { asOf: new Date(row.asOf).getTime(), volatility });
      result.set(row.assetId, volatility);
    }
    return result;
  }

  /** Changes whenever a refresh writes (any instance): a cache key for derived results. */
  async storeVersion(): Promise<string | null> {
    return this.repository.latestSnapshotTime();
  }

  /**
   * Per-asset scoring data (all stored assets when `symbols` is undefined), keyed by upper-case
   * symbol. Without `asOfDate`: the latest snapshot. With it: the last stored day on or before it
   * (market cap and volume of that day; supplies, rank and developer/community inputs are the
   * current ones, as no history of them is kept). Assets with no price on or before the date are
   * absent. 500 when nothing is stored at all.
   */
  async scoringData(
    symbols: readonly string[] | undefined,
    windowDays: number,
    asOfDate?: string,
  ): Promise<Map<string, AssetScoringData>> {
    const assets = await this.repository.findBySymbols(symbols);
    if (assets.size === 0) {
      await this.assertSomethingStored();
      return new Map();
    }
    const assetIds = [...assets.values()].map((asset) => asset.assetId);
    const latestDate = [...assets.values()]
      .map((row) => utcDate(new Date(row.asOf)))
      .sort()
      .at(-1)!;
    const endDate = asOfDate && asOfDate < latestDate ? asOfDate : latestDate;
    const history = await this.repository.history(assetIds, addDays(endDate, -windowDays), endDate);
    const pricesByAsset = groupHistory(history);
    const result = new Map<string, AssetScoringData>();
    for (const [symbol, asset] of assets) {
      const rows = pricesByAsset.get(asset.assetId) ?? [];
      const last = rows.at(-1);
      if (!last) continue;
      // The latest view takes today's numbers from the snapshot; a past date from that day's row.
      const useSnapshot = !asOfDate || last.date === utcDate(new Date(asset.asOf));
      const marketCapUsd = useSnapshot ? asset.marketCapUsd : last.marketCapUsd;
      const volumeUsd = useSnapshot ? asset.volume24hUsd : last.volumeUsd;
      const circulatingSupply = numberOrNull(asset.circulatingSupply);
      if (marketCapUsd === null || circulatingSupply === null) continue;
      result.set(symbol, {
        symbol,
        date: last.date,
        marketCapUsd: Number(marketCapUsd),
        circulatingSupply,
        totalSupply: numberOrNull(asset.totalSupply),
        maxSupply: numberOrNull(asset.maxSupply),
        derived: derivedScores(asset, numberOrNull(volumeUsd), Number(marketCapUsd)),
        dates: rows.map((row) => row.date),
        prices: rows.map((row) => Number(row.priceUsd)),
      });
    }
    return result;
  }

  private async assertSomethingStored(): Promise<void> {
    if (!(await this.repository.hasAnySnapshot())) {
      throw new DomainError(
        ErrorCode.Internal,
        'No market data is stored yet: the market data refresh has not completed. Retry shortly.',
      );
    }
  }
}

function groupHistory(rows: readonly HistoryRow[]): Map<number, HistoryRow[]> {
  const grouped = new Map<number, HistoryRow[]>();
  for (const row of rows) {
    const list = grouped.get(row.assetId);
    if (list) list.push(row);
    else grouped.set(row.assetId, [row]);
  }
  return grouped;
}

function groupPrices(rows: readonly HistoryRow[]): Map<number, { date: string; price: number }[]> {
  const grouped = new Map<number, { date: string; price: number }[]>();
  for (const [assetId, list] of groupHistory(rows)) {
    grouped.set(
      assetId,
      list.map((row) => ({ date: row.date, price: Number(row.priceUsd) })),
    );
  }
  return grouped;
}

function derivedScores(
  row: StoredMarketRow,
  volumeUsd: number | null,
  marketCapUsd: number | null,
): DerivedScores {
  return deriveScores({
    developer: row.developerData ?? NO_DEVELOPER_DATA,
    community: row.communityData ?? NO_COMMUNITY_DATA,
    volume24hUsd: volumeUsd,
    marketCapUsd,
    marketCapRank: row.marketCapRank,
  });
}

function toRecord(row: StoredMarketRow, volatility: number | null): MarketDataRecord {
  const scores = derivedScores(row, numberOrNull(row.volume24hUsd), numberOrNull(row.marketCapUsd));
  return {
    id: row.assetId,
    symbol: row.symbol.toUpperCase(),
    name: row.name,
    price: Number(row.priceUsd),
    marketCap: numberOrNull(row.marketCapUsd),
    marketCapRank: row.marketCapRank,
    circulatingSupply: numberOrNull(row.circulatingSupply),
    totalSupply: numberOrNull(row.totalSupply),
    maxSupply: numberOrNull(row.maxSupply),
    volume24h: numberOrNull(row.volume24hUsd),
    volatility,
    communityScore: scores.communityScore,
    developerScore: scores.developerScore,
    liquidityScore: scores.liquidityScore,
    publicInterestScore: scores.publicInterestScore,
    lastUpdated: new Date(row.providerUpdatedAt).toISOString(),
    source: row.source,
    asOf: new Date(row.asOf).toISOString(),
    scoreInputsSource: row.scoreInputsSource,
  };
}
