/**
 * CoinGecko through its official TypeScript SDK. Used only by the refresh job, never in the
 * request path. Rate limits: each refresh makes one /coins/markets call plus at most
 * `perAssetCallBudget` per-asset calls; 429 and 5xx are retried by the SDK with exponential
 * backoff, honouring Retry-After (a wait longer than MAX_RETRY_AFTER_SECONDS is not waited out:
 * the call fails and the next scheduled refresh tries again).
 */
import { APIError, Coingecko } from '@coingecko/coingecko-typescript';
import { Decimal } from 'decimal.js';
import type { CommunityData, DeveloperData } from '../../../domain/market/derived-scores.js';
import { addDays, daysBetween, utcDate } from '../market-dates.js';
import {
  MarketProviderError,
  type MarketDataProvider,
  type ProviderContractCoin,
  type ProviderDailyPrice,
  type ProviderQuote,
  type ProviderScoreInputs,
} from './market-data-provider.js';

export const COINGECKO_PUBLIC_BASE_URL = 'https://api.coingecko.com/api/v3';
const PRO_HOST = 'pro-api.coingecko.com';
/** Longest Retry-After the provider sleeps through inside one call. */
export const MAX_RETRY_AFTER_SECONDS = 30;
/** Public and Demo plans serve at most a year of history; beyond that CoinGecko answers 401. */
const PUBLIC_PLAN_HISTORY_DAYS = 365;

export interface CoinGeckoProviderOptions {
  /** Defaults to the public/Demo API. A pro-api.coingecko.com URL sends the key as a Pro key. */
  baseUrl?: string;
  apiKey?: string;
  /** Retries of one call on 429, 408/409, 5xx and connection errors. */
  maxRetries?: number;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  /** Per-asset calls (history, developer/community data) one refresh may make. */
  perAssetCallBudget?: number;
}

export class CoinGeckoMarketProvider implements MarketDataProvider {
  readonly source = 'coingecko' as const;
  readonly perAssetCallBudget: number;
  private readonly client: Coingecko;

  constructor(options: CoinGeckoProviderOptions = {}) {
    const baseURL = (options.baseUrl ?? COINGECKO_PUBLIC_BASE_URL).replace(/\/+$/, '');
    const pro = new URL(baseURL).hostname === PRO_HOST;
    const apiKey = options.apiKey ?? null;
    this.perAssetCallBudget = options.perAssetCallBudget ?? 10;
    this.client = new Coingecko({
      baseURL,
      proAPIKey: pro ? apiKey : null,
      demoAPIKey: pro ? null : apiKey,
      // Without a key (public API) no auth header is sent; the SDK needs to be told that is intended.
      defaultHeaders: apiKey ? undefined : { 'x-cg-pro-api-key': null, 'x-cg-demo-api-key': null },
      maxRetries: options.maxRetries ?? 4,
      timeout: options.timeoutMs ?? 15_000,
      logLevel: 'off',
      fetch: fetchCappingRetryAfter,
    });
  }

  async quotes(coingeckoIds: readonly string[], now: Date): Promise<ProviderQuote[]> {
    if (coingeckoIds.length === 0) return [];
    const items = await this.call('/coins/markets', () =>
      this.client.coins.markets.get({
        vs_currency: 'usd',
        ids: coingeckoIds.join(','),
        per_page: 250,
        page: 1,
        precision: 'full',
      }),
    );
    const quotes: ProviderQuote[] = [];
    for (const item of items) {
      const priceUsd = decimalText(item.current_price);
      if (priceUsd === null || !item.id || !item.symbol) continue;
      quotes.push({
        coingeckoId: item.id,
        symbol: item.symbol.toUpperCase(),
        name: item.name,
        priceUsd,
        marketCapUsd: decimalText(item.market_cap),
        volume24hUsd: decimalText(item.total_volume),
        marketCapRank: Number.isInteger(item.market_cap_rank) ? item.market_cap_rank : null,
        circulatingSupply: decimalText(item.circulating_supply),
        totalSupply: decimalText(item.total_supply),
        // CoinGecko reports an uncapped supply as null (sometimes 0): never store a made-up cap.
        maxSupply: item.max_supply ? decimalText(item.max_supply) : null,
        updatedAt: parseInstant(item.last_updated, now),
      });
    }
    return quotes;
  }

  /**
   * developer_data and community_data of /coins/{id}. CoinGecko stopped returning them (SDK 8.2
   * marks the flags as no-ops); when absent, both are null and the refresh falls back.
   */
  async scoreInputs(coingeckoId: string): Promise<ProviderScoreInputs | null> {
    const coin = (await this.call(`/coins/${coingeckoId}`, () =>
      this.client.coins.getID(coingeckoId, {
        localization: false,
        tickers: false,
        market_data: false,
        community_data: true,
        developer_data: true,
        sparkline: false,
      }),
    )) as unknown as Record<string, unknown>;
    return { developer: developerData(coin.developer_data), community: communityData(coin.community_data) };
  }

  async dailyHistory(coingeckoId: string, fromDate: string, toDate: string): Promise<ProviderDailyPrice[]> {
    // `days` counts back from now; toDate is at most yesterday, so one extra day covers fromDate.
    const days = Math.max(1, daysBetween(fromDate, addDays(toDate, 1)) + 1);
    const fetch = (n: number) =>
      this.call(`/coins/${coingeckoId}/market_chart`, () =>
        this.client.coins.marketChart.get(coingeckoId, {
          vs_currency: 'usd',
          days: String(n),
          interval: 'daily',
          precision: 'full',
        }),
      );
    let chart;
    try {
      chart = await fetch(days);
    } catch (error) {
      const planLimited =
        error instanceof MarketProviderError &&
        (error.status === 401 || error.status === 403) &&
        days > PUBLIC_PLAN_HISTORY_DAYS;
      if (!planLimited) throw error;
      chart = await fetch(PUBLIC_PLAN_HISTORY_DAYS);
    }
    return dailyRows(chart, fromDate, toDate);
  }

  async contractCoin(platform: string, contract: string): Promise<ProviderContractCoin | null> {
    try {
      const coin = await this.call(`/coins/${platform}/contract/${contract}`, () =>
        this.client.coins.contract.get(contract, { id: platform }),
      );
      if (!coin.id || !coin.symbol) return null;
      return { coingeckoId: coin.id, symbol: coin.symbol.toUpperCase(), name: coin.name ?? coin.id };
    } catch (error) {
      // CoinGecko answers 404 ("coin not found") for a contract it does not list.
      if (error instanceof MarketProviderError && error.status === 404) return null;
      throw error;
    }
  }

  private async call<T>(what: string, request: () => PromiseLike<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof APIError) {
        const status = typeof error.status === 'number' ? error.status : undefined;
        throw new MarketProviderError(
          `CoinGecko ${what} failed${status ? ` with HTTP ${status}` : ''}: ${error.message.slice(0, 200)}`,
          status,
        );
      }
      throw new MarketProviderError(`CoinGecko ${what} failed: ${String(error).slice(0, 200)}`);
    }
  }
}

/**
 * Marks a 429 whose Retry-After is longer than we are willing to wait inside one refresh as not
 * retryable (`x-should-retry: false`, read by the SDK), so the call fails fast instead of holding
 * the job for minutes.
 */
async function fetchCappingRetryAfter(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status !== 429) return response;
  const retryAfter = Number(response.headers.get('retry-after'));
  if (!(retryAfter > MAX_RETRY_AFTER_SECONDS)) return response;
  const headers = new Headers(response.headers);
  headers.set('x-should-retry', 'false');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

interface MarketChart {
  prices: number[][];
  market_caps: number[][];
  total_volumes: number[][];
}

/** One row per UTC day in [fromDate, toDate]; several points on one day: the latest wins. */
export function dailyRows(chart: MarketChart, fromDate: string, toDate: string): ProviderDailyPrice[] {
  const byDate = new Map<string, { at: number; price: number; marketCap?: number; volume?: number }>();
  const dayOf = (ms: number) => utcDate(new Date(ms));
  for (const [at, price] of chart.prices ?? []) {
    if (!Number.isFinite(at) || !(price > 0)) continue;
    const date = dayOf(at);
    const current = byDate.get(date);
    if (!current || at >= current.at) byDate.set(date, { at, price });
  }
  const attach = (series: number[][] | undefined, key: 'marketCap' | 'volume') => {
    for (const [at, value] of series ?? []) {
      const entry = byDate.get(dayOf(at));
      if (entry && entry.at === at && Number.isFinite(value)) entry[key] = value;
    }
  };
  attach(chart.market_caps, 'marketCap');
  attach(chart.total_volumes, 'volume');
  return [...byDate.entries()]
    .filter(([date]) => date >= fromDate && date <= toDate)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, entry]) => ({
      date,
      priceUsd: decimalText(entry.price)!,
      marketCapUsd: decimalText(entry.marketCap),
      volumeUsd: decimalText(entry.volume),
    }));
}

/** A JSON number as plain decimal text (no exponent); null when absent or not finite. */
export function decimalText(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return new Decimal(value).toFixed();
}

function parseInstant(value: string | null | undefined, fallback: Date): Date {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? fallback : new Date(ms);
}

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

function developerData(raw: unknown): DeveloperData | null {
  if (!raw || typeof raw !== 'object') return null;
  const data = raw as Record<string, unknown>;
  const result: DeveloperData = {
    githubStars: count(data.stars),
    githubForks: count(data.forks),
    commitCount4Weeks: count(data.commit_count_4_weeks),
    contributors: count(data.pull_request_contributors),
  };
  return Object.values(result).some((value) => value !== null) ? result : null;
}

function communityData(raw: unknown): CommunityData | null {
  if (!raw || typeof raw !== 'object') return null;
  const data = raw as Record<string, unknown>;
  const result: CommunityData = {
    twitterFollowers: count(data.twitter_followers),
    redditSubscribers: count(data.reddit_subscribers),
  };
  return Object.values(result).some((value) => value !== null) ? result : null;
}
