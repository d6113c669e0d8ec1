/**
 * What the market store needs from a source of market data. Implementations: `sandbox`
 * (synthetic, in-process) and `coingecko` (the official SDK). Chosen by AppConfig.MARKET_PROVIDER.
 * Only the refresh job calls a provider; requests are served from the store.
 * Every amount is decimal text; ids are CoinGecko ids ("bitcoin").
 */
import type { CommunityData, DeveloperData } from '../../../domain/market/derived-scores.js';
import type { MarketSource } from '../entities/asset.entity.js';

export const MARKET_DATA_PROVIDER = Symbol('MARKET_DATA_PROVIDER');

/** The current market numbers of one asset. */
export interface ProviderQuote {
  readonly coingeckoId: string;
  /** Upper-case ticker. */
  readonly symbol: string;
  readonly name: string;
  readonly priceUsd: string;
  readonly marketCapUsd: string | null;
  readonly volume24hUsd: string | null;
  readonly marketCapRank: number | null;
  readonly circulatingSupply: string | null;
  readonly totalSupply: string | null;
  /** Null when uncapped. */
  readonly maxSupply: string | null;
  /** When the provider says these numbers were current. */
  readonly updatedAt: Date;
}

/** Raw developer/community counts; null where the provider does not publish them. */
export interface ProviderScoreInputs {
  readonly developer: DeveloperData | null;
  readonly community: CommunityData | null;
}

export interface ProviderDailyPrice {
  /** UTC calendar date, YYYY-MM-DD. */
  readonly date: string;
  readonly priceUsd: string;
  readonly marketCapUsd: string | null;
  readonly volumeUsd: string | null;
}

/** The coin a token contract (or Solana mint) is, as the provider lists it. */
export interface ProviderContractCoin {
  readonly coingeckoId: string;
  /** Upper-case ticker as the provider writes it (for display; the ledger keeps its own symbol). */
  readonly symbol: string;
  readonly name: string;
}

export interface MarketDataProvider {
  readonly source: MarketSource;
  /**
   * How many per-asset calls (scoreInputs, dailyHistory) one refresh may make, so a refresh stays
   * inside the provider's rate limit; the rest waits for the next run. Infinity for in-process data.
   */
  readonly perAssetCallBudget: number;
  /** Current quotes of the given assets; ids the provider does not know are absent. */
  quotes(coingeckoIds: readonly string[], now: Date): Promise<ProviderQuote[]>;
  /** Developer/community counts of one asset, or null when the provider knows nothing of it. */
  scoreInputs(coingeckoId: string): Promise<ProviderScoreInputs | null>;
  /** One price per UTC day from `fromDate` to `toDate` inclusive, ascending; days it lacks are absent. */
  dailyHistory(coingeckoId: string, fromDate: string, toDate: string): Promise<ProviderDailyPrice[]>;
  /**
   * The coin a token contract is on an asset platform (CoinGecko's `/coins/{platform}/contract/
   * {address}`), or null when the provider does not know it. Absent: the provider serves no
   * tokens (the sandbox), so chain tokens outside the catalog stay unpriced.
   */
  contractCoin?(platform: string, contract: string): Promise<ProviderContractCoin | null>;
}

/** A provider call failed after its retries; the refresh keeps the stored data. */
export class MarketProviderError extends Error {
  constructor(
    message: string,
    /** HTTP status from the provider, when there was a response. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'MarketProviderError';
  }
}
