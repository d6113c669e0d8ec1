/**
 * SYNTHETIC SANDBOX DATA: NOT REAL MARKET DATA.
 *
 * The ~30 well-known assets the sandbox market provider serves, with the parameters of
 * the synthetic price model (sandbox-market.ts) and provider-like raw inputs for the
 * derived scores. Names, symbols, CoinGecko ids and supplies are realistic so the
 * sandbox looks familiar; prices after 2020-01-01 are generated, and the developer /
 * community counts are rounded approximations, not fetched values. Every asset carries
 * `source: 'sandbox'` so nothing downstream can mistake it for provider data.
 *
 * `id` is stable: it is the listing order by market cap at the anchor date. Never
 * renumber an asset; append new ones with the next id.
 */
import type { CommunityData, DeveloperData } from './derived-scores.js';

export interface SandboxSupply {
  /** Circulating supply on SANDBOX_ANCHOR_DATE. */
  readonly circulating: number;
  /** Circulating supply on SANDBOX_HISTORY_START; the model interpolates linearly. */
  readonly circulatingAt2020: number;
  /** Total supply on SANDBOX_ANCHOR_DATE. */
  readonly total: number;
  /** Hard cap; null for uncapped assets (ETH, SOL, DOGE, stablecoins, …), never 0. */
  readonly max: number | null;
}

export interface SandboxPriceModel {
  /** Price on SANDBOX_HISTORY_START (for assets launched later: near their first traded price). */
  readonly startPriceUsd: number;
  /** Price the path is pinned to on SANDBOX_ANCHOR_DATE (roughly the real price then). */
  readonly anchorPriceUsd: number;
  /**
   * Annual log growth of the price trend after the anchor date (before it, the start and
   * anchor prices set the path's drift).
   */
  readonly annualDrift: number;
  /** Annualized volatility of daily log returns. */
  readonly annualVolatility: number;
  /**
   * Loading on the common crypto-market factor, in [0, 1]: the correlation of the asset's
   * daily log returns with that factor. Two assets correlate at about loadingA × loadingB
   * (BTC 0.9 × ETH 0.9 ≈ 0.81).
   */
  readonly marketFactorLoading: number;
  /** Stablecoins ignore the drift/volatility/factor and stay pinned near 1.00. */
  readonly stablecoin: boolean;
  /** Typical 24h volume / market cap. */
  readonly volumeToMarketCap: number;
}

export interface SandboxAsset {
  readonly source: 'sandbox';
  readonly id: number;
  readonly coingeckoId: string;
  /** Upper-case ticker, as everywhere in the service. */
  readonly symbol: string;
  readonly name: string;
  readonly supply: SandboxSupply;
  readonly model: SandboxPriceModel;
  readonly developer: DeveloperData;
  readonly community: CommunityData;
}

/** First day of every sandbox history. */
export const SANDBOX_HISTORY_START = '2020-01-01';
/** Day on which each path is pinned to `anchorPriceUsd` and supplies equal `supply.circulating`. */
export const SANDBOX_ANCHOR_DATE = '2025-01-01';

type AssetRow = Omit<SandboxAsset, 'source' | 'model'> & {
  readonly model: Omit<SandboxPriceModel, 'stablecoin'> & { readonly stablecoin?: boolean };
};

const STABLE = {
  startPriceUsd: 1,
  anchorPriceUsd: 1,
  annualDrift: 0,
  annualVolatility: 0,
  marketFactorLoading: 0,
  stablecoin: true,
} as const;

// A data table: one block per asset reads better than Prettier's one-field-per-line layout.
// prettier-ignore
const ROWS: readonly AssetRow[] = [
  {
    id: 1, coingeckoId: 'bitcoin', symbol: 'BTC', name: 'Bitcoin',
    supply: { circulating: 19_800_000, circulatingAt2020: 18_130_000, total: 19_800_000, max: 21_000_000 },
    model: { startPriceUsd: 7_200, anchorPriceUsd: 94_000, annualDrift: 0.15, annualVolatility: 0.55, marketFactorLoading: 0.9, volumeToMarketCap: 0.025 },
    developer: { githubStars: 79_000, githubForks: 36_500, commitCount4Weeks: 180, contributors: 900 },
    community: { twitterFollowers: 6_900_000, redditSubscribers: 7_600_000 },
  },
  {
    id: 2, coingeckoId: 'ethereum', symbol: 'ETH', name: 'Ethereum',
    supply: { circulating: 120_500_000, circulatingAt2020: 109_000_000, total: 120_500_000, max: null },
    model: { startPriceUsd: 130, anchorPriceUsd: 3_350, annualDrift: 0.12, annualVolatility: 0.72, marketFactorLoading: 0.9, volumeToMarketCap: 0.05 },
    developer: { githubStars: 48_000, githubForks: 20_000, commitCount4Weeks: 120, contributors: 1_000 },
    community: { twitterFollowers: 3_900_000, redditSubscribers: 3_300_000 },
  },
  {
    id: 3, coingeckoId: 'tether', symbol: 'USDT', name: 'Tether',
    supply: { circulating: 137_000_000_000, circulatingAt2020: 4_100_000_000, total: 137_000_000_000, max: null },
    model: { ...STABLE, volumeToMarketCap: 0.4 },
    developer: { githubStars: 0, githubForks: 0, commitCount4Weeks: 0, contributors: 0 },
    community: { twitterFollowers: 540_000, redditSubscribers: 0 },
  },
  {
    id: 4, coingeckoId: 'ripple', symbol: 'XRP', name: 'XRP',
    supply: { circulating: 57_500_000_000, circulatingAt2020: 43_400_000_000, total: 99_990_000_000, max: 100_000_000_000 },
    model: { startPriceUsd: 0.193, anchorPriceUsd: 2.08, annualDrift: 0.08, annualVolatility: 0.9, marketFactorLoading: 0.75, volumeToMarketCap: 0.04 },
    developer: { githubStars: 4_800, githubForks: 1_500, commitCount4Weeks: 40, contributors: 250 },
    community: { twitterFollowers: 2_900_000, redditSubscribers: 450_000 },
  },
  {
    id: 5, coingeckoId: 'binancecoin', symbol: 'BNB', name: 'BNB',
    supply: { circulating: 144_000_000, circulatingAt2020: 155_500_000, total: 144_000_000, max: 200_000_000 },
    model: { startPriceUsd: 13.7, anchorPriceUsd: 700, annualDrift: 0.1, annualVolatility: 0.65, marketFactorLoading: 0.8, volumeToMarketCap: 0.02 },
    developer: { githubStars: 2_800, githubForks: 1_700, commitCount4Weeks: 30, contributors: 600 },
    community: { twitterFollowers: 6_000_000, redditSubscribers: 1_200_000 },
  },
  {
    id: 6, coingeckoId: 'solana', symbol: 'SOL', name: 'Solana',
    supply: { circulating: 480_000_000, circulatingAt2020: 270_000_000, total: 590_000_000, max: null },
    model: { startPriceUsd: 0.95, anchorPriceUsd: 190, annualDrift: 0.12, annualVolatility: 1.0, marketFactorLoading: 0.85, volumeToMarketCap: 0.05 },
    developer: { githubStars: 13_000, githubForks: 4_200, commitCount4Weeks: 300, contributors: 430 },
    community: { twitterFollowers: 3_000_000, redditSubscribers: 250_000 },
  },
  {
    id: 7, coingeckoId: 'dogecoin', symbol: 'DOGE', name: 'Dogecoin',
    supply: { circulating: 147_000_000_000, circulatingAt2020: 122_000_000_000, total: 147_000_000_000, max: null },
    model: { startPriceUsd: 0.002, anchorPriceUsd: 0.32, annualDrift: 0.05, annualVolatility: 1.1, marketFactorLoading: 0.75, volumeToMarketCap: 0.05 },
    developer: { githubStars: 14_500, githubForks: 2_800, commitCount4Weeks: 10, contributors: 350 },
    community: { twitterFollowers: 4_000_000, redditSubscribers: 2_500_000 },
  },
  {
    id: 8, coingeckoId: 'usd-coin', symbol: 'USDC', name: 'USDC',
    supply: { circulating: 44_000_000_000, circulatingAt2020: 500_000_000, total: 44_000_000_000, max: null },
    model: { ...STABLE, volumeToMarketCap: 0.15 },
    developer: { githubStars: 1_000, githubForks: 500, commitCount4Weeks: 5, contributors: 30 },
    community: { twitterFollowers: 400_000, redditSubscribers: 10_000 },
  },
  {
    id: 9, coingeckoId: 'cardano', symbol: 'ADA', name: 'Cardano',
    supply: { circulating: 35_100_000_000, circulatingAt2020: 25_900_000_000, total: 44_990_000_000, max: 45_000_000_000 },
    model: { startPriceUsd: 0.033, anchorPriceUsd: 0.85, annualDrift: 0.08, annualVolatility: 0.9, marketFactorLoading: 0.85, volumeToMarketCap: 0.03 },
    developer: { githubStars: 3_900, githubForks: 1_100, commitCount4Weeks: 150, contributors: 300 },
    community: { twitterFollowers: 1_500_000, redditSubscribers: 750_000 },
  },
  {
    id: 10, coingeckoId: 'tron', symbol: 'TRX', name: 'TRON',
    supply: { circulating: 86_200_000_000, circulatingAt2020: 66_700_000_000, total: 86_200_000_000, max: null },
    model: { startPriceUsd: 0.0133, anchorPriceUsd: 0.255, annualDrift: 0.08, annualVolatility: 0.6, marketFactorLoading: 0.55, volumeToMarketCap: 0.03 },
    developer: { githubStars: 3_700, githubForks: 1_400, commitCount4Weeks: 50, contributors: 150 },
    community: { twitterFollowers: 2_000_000, redditSubscribers: 20_000 },
  },
  {
    id: 11, coingeckoId: 'avalanche-2', symbol: 'AVAX', name: 'Avalanche',
    supply: { circulating: 411_000_000, circulatingAt2020: 80_000_000, total: 447_000_000, max: 720_000_000 },
    model: { startPriceUsd: 4.5, anchorPriceUsd: 36, annualDrift: 0.1, annualVolatility: 1.0, marketFactorLoading: 0.85, volumeToMarketCap: 0.04 },
    developer: { githubStars: 2_100, githubForks: 700, commitCount4Weeks: 120, contributors: 170 },
    community: { twitterFollowers: 1_200_000, redditSubscribers: 60_000 },
  },
  {
    id: 12, coingeckoId: 'chainlink', symbol: 'LINK', name: 'Chainlink',
    supply: { circulating: 638_000_000, circulatingAt2020: 350_000_000, total: 1_000_000_000, max: 1_000_000_000 },
    model: { startPriceUsd: 1.78, anchorPriceUsd: 20.3, annualDrift: 0.1, annualVolatility: 0.95, marketFactorLoading: 0.85, volumeToMarketCap: 0.05 },
    developer: { githubStars: 7_000, githubForks: 1_700, commitCount4Weeks: 60, contributors: 200 },
    community: { twitterFollowers: 1_300_000, redditSubscribers: 60_000 },
  },
  {
    id: 13, coingeckoId: 'hedera-hashgraph', symbol: 'HBAR', name: 'Hedera',
    supply: { circulating: 38_000_000_000, circulatingAt2020: 4_500_000_000, total: 50_000_000_000, max: 50_000_000_000 },
    model: { startPriceUsd: 0.0135, anchorPriceUsd: 0.28, annualDrift: 0.08, annualVolatility: 0.95, marketFactorLoading: 0.75, volumeToMarketCap: 0.03 },
    developer: { githubStars: 1_300, githubForks: 500, commitCount4Weeks: 150, contributors: 200 },
    community: { twitterFollowers: 500_000, redditSubscribers: 80_000 },
  },
  {
    id: 14, coingeckoId: 'stellar', symbol: 'XLM', name: 'Stellar',
    supply: { circulating: 30_500_000_000, circulatingAt2020: 20_000_000_000, total: 50_000_000_000, max: 50_000_000_000 },
    model: { startPriceUsd: 0.045, anchorPriceUsd: 0.34, annualDrift: 0.06, annualVolatility: 0.85, marketFactorLoading: 0.75, volumeToMarketCap: 0.03 },
    developer: { githubStars: 3_100, githubForks: 1_000, commitCount4Weeks: 60, contributors: 170 },
    community: { twitterFollowers: 800_000, redditSubscribers: 300_000 },
  },
  {
    id: 15, coingeckoId: 'polkadot', symbol: 'DOT', name: 'Polkadot',
    supply: { circulating: 1_540_000_000, circulatingAt2020: 900_000_000, total: 1_540_000_000, max: null },
    model: { startPriceUsd: 3.0, anchorPriceUsd: 6.7, annualDrift: 0.06, annualVolatility: 0.9, marketFactorLoading: 0.85, volumeToMarketCap: 0.04 },
    developer: { githubStars: 1_900, githubForks: 700, commitCount4Weeks: 250, contributors: 480 },
    community: { twitterFollowers: 1_500_000, redditSubscribers: 70_000 },
  },
  {
    id: 16, coingeckoId: 'bitcoin-cash', symbol: 'BCH', name: 'Bitcoin Cash',
    supply: { circulating: 19_800_000, circulatingAt2020: 18_160_000, total: 19_800_000, max: 21_000_000 },
    model: { startPriceUsd: 205, anchorPriceUsd: 430, annualDrift: 0.05, annualVolatility: 0.85, marketFactorLoading: 0.8, volumeToMarketCap: 0.04 },
    developer: { githubStars: 500, githubForks: 200, commitCount4Weeks: 20, contributors: 80 },
    community: { twitterFollowers: 300_000, redditSubscribers: 1_000_000 },
  },
  {
    id: 17, coingeckoId: 'uniswap', symbol: 'UNI', name: 'Uniswap',
    supply: { circulating: 600_000_000, circulatingAt2020: 150_000_000, total: 1_000_000_000, max: 1_000_000_000 },
    model: { startPriceUsd: 3.0, anchorPriceUsd: 13.3, annualDrift: 0.08, annualVolatility: 1.0, marketFactorLoading: 0.8, volumeToMarketCap: 0.04 },
    developer: { githubStars: 4_500, githubForks: 2_800, commitCount4Weeks: 5, contributors: 60 },
    community: { twitterFollowers: 1_200_000, redditSubscribers: 12_000 },
  },
  {
    id: 18, coingeckoId: 'litecoin', symbol: 'LTC', name: 'Litecoin',
    supply: { circulating: 75_400_000, circulatingAt2020: 63_900_000, total: 84_000_000, max: 84_000_000 },
    model: { startPriceUsd: 41.3, anchorPriceUsd: 103, annualDrift: 0.05, annualVolatility: 0.8, marketFactorLoading: 0.8, volumeToMarketCap: 0.06 },
    developer: { githubStars: 4_200, githubForks: 3_100, commitCount4Weeks: 10, contributors: 800 },
    community: { twitterFollowers: 1_000_000, redditSubscribers: 300_000 },
  },
  {
    id: 19, coingeckoId: 'near', symbol: 'NEAR', name: 'NEAR Protocol',
    supply: { circulating: 1_200_000_000, circulatingAt2020: 300_000_000, total: 1_230_000_000, max: null },
    model: { startPriceUsd: 1.2, anchorPriceUsd: 5.0, annualDrift: 0.08, annualVolatility: 1.05, marketFactorLoading: 0.8, volumeToMarketCap: 0.06 },
    developer: { githubStars: 2_300, githubForks: 600, commitCount4Weeks: 100, contributors: 250 },
    community: { twitterFollowers: 2_100_000, redditSubscribers: 40_000 },
  },
  {
    id: 20, coingeckoId: 'aptos', symbol: 'APT', name: 'Aptos',
    supply: { circulating: 560_000_000, circulatingAt2020: 130_000_000, total: 1_140_000_000, max: null },
    model: { startPriceUsd: 8.0, anchorPriceUsd: 8.7, annualDrift: 0.05, annualVolatility: 1.0, marketFactorLoading: 0.8, volumeToMarketCap: 0.05 },
    developer: { githubStars: 6_200, githubForks: 3_600, commitCount4Weeks: 280, contributors: 400 },
    community: { twitterFollowers: 1_200_000, redditSubscribers: 15_000 },
  },
  {
    id: 21, coingeckoId: 'aave', symbol: 'AAVE', name: 'Aave',
    supply: { circulating: 15_000_000, circulatingAt2020: 12_500_000, total: 16_000_000, max: 16_000_000 },
    model: { startPriceUsd: 1.6, anchorPriceUsd: 315, annualDrift: 0.08, annualVolatility: 1.0, marketFactorLoading: 0.8, volumeToMarketCap: 0.08 },
    developer: { githubStars: 700, githubForks: 400, commitCount4Weeks: 20, contributors: 50 },
    community: { twitterFollowers: 700_000, redditSubscribers: 30_000 },
  },
  {
    id: 22, coingeckoId: 'internet-computer', symbol: 'ICP', name: 'Internet Computer',
    supply: { circulating: 474_000_000, circulatingAt2020: 123_000_000, total: 522_000_000, max: null },
    model: { startPriceUsd: 400, anchorPriceUsd: 10, annualDrift: 0.0, annualVolatility: 1.05, marketFactorLoading: 0.75, volumeToMarketCap: 0.03 },
    developer: { githubStars: 1_600, githubForks: 320, commitCount4Weeks: 400, contributors: 300 },
    community: { twitterFollowers: 800_000, redditSubscribers: 150_000 },
  },
  {
    id: 23, coingeckoId: 'ethereum-classic', symbol: 'ETC', name: 'Ethereum Classic',
    supply: { circulating: 149_000_000, circulatingAt2020: 116_000_000, total: 210_700_000, max: 210_700_000 },
    model: { startPriceUsd: 4.5, anchorPriceUsd: 26, annualDrift: 0.04, annualVolatility: 0.9, marketFactorLoading: 0.8, volumeToMarketCap: 0.04 },
    developer: { githubStars: 1_400, githubForks: 350, commitCount4Weeks: 20, contributors: 1_000 },
    community: { twitterFollowers: 500_000, redditSubscribers: 200_000 },
  },
  {
    id: 24, coingeckoId: 'monero', symbol: 'XMR', name: 'Monero',
    supply: { circulating: 18_400_000, circulatingAt2020: 17_400_000, total: 18_400_000, max: null },
    model: { startPriceUsd: 45, anchorPriceUsd: 195, annualDrift: 0.06, annualVolatility: 0.7, marketFactorLoading: 0.65, volumeToMarketCap: 0.02 },
    developer: { githubStars: 8_900, githubForks: 3_800, commitCount4Weeks: 40, contributors: 400 },
    community: { twitterFollowers: 550_000, redditSubscribers: 300_000 },
  },
  {
    id: 25, coingeckoId: 'polygon-ecosystem-token', symbol: 'POL', name: 'POL (ex-MATIC)',
    supply: { circulating: 7_900_000_000, circulatingAt2020: 2_600_000_000, total: 10_300_000_000, max: null },
    model: { startPriceUsd: 0.0146, anchorPriceUsd: 0.45, annualDrift: 0.05, annualVolatility: 1.0, marketFactorLoading: 0.8, volumeToMarketCap: 0.05 },
    developer: { githubStars: 1_000, githubForks: 500, commitCount4Weeks: 40, contributors: 800 },
    community: { twitterFollowers: 2_000_000, redditSubscribers: 400_000 },
  },
  {
    id: 26, coingeckoId: 'arbitrum', symbol: 'ARB', name: 'Arbitrum',
    supply: { circulating: 4_200_000_000, circulatingAt2020: 1_275_000_000, total: 10_000_000_000, max: 10_000_000_000 },
    model: { startPriceUsd: 1.2, anchorPriceUsd: 0.75, annualDrift: 0.05, annualVolatility: 0.95, marketFactorLoading: 0.8, volumeToMarketCap: 0.08 },
    developer: { githubStars: 2_300, githubForks: 570, commitCount4Weeks: 80, contributors: 100 },
    community: { twitterFollowers: 1_000_000, redditSubscribers: 20_000 },
  },
  {
    id: 27, coingeckoId: 'algorand', symbol: 'ALGO', name: 'Algorand',
    supply: { circulating: 8_300_000_000, circulatingAt2020: 750_000_000, total: 8_300_000_000, max: 10_000_000_000 },
    model: { startPriceUsd: 0.22, anchorPriceUsd: 0.36, annualDrift: 0.04, annualVolatility: 0.9, marketFactorLoading: 0.75, volumeToMarketCap: 0.04 },
    developer: { githubStars: 1_300, githubForks: 460, commitCount4Weeks: 30, contributors: 100 },
    community: { twitterFollowers: 400_000, redditSubscribers: 60_000 },
  },
  {
    id: 28, coingeckoId: 'filecoin', symbol: 'FIL', name: 'Filecoin',
    supply: { circulating: 600_000_000, circulatingAt2020: 30_000_000, total: 1_960_000_000, max: 1_960_000_000 },
    model: { startPriceUsd: 4.2, anchorPriceUsd: 4.8, annualDrift: 0.04, annualVolatility: 1.0, marketFactorLoading: 0.8, volumeToMarketCap: 0.07 },
    developer: { githubStars: 2_800, githubForks: 1_300, commitCount4Weeks: 90, contributors: 250 },
    community: { twitterFollowers: 700_000, redditSubscribers: 50_000 },
  },
  {
    id: 29, coingeckoId: 'cosmos', symbol: 'ATOM', name: 'Cosmos Hub',
    supply: { circulating: 390_000_000, circulatingAt2020: 190_000_000, total: 390_000_000, max: null },
    model: { startPriceUsd: 4.0, anchorPriceUsd: 6.6, annualDrift: 0.04, annualVolatility: 0.9, marketFactorLoading: 0.8, volumeToMarketCap: 0.05 },
    developer: { githubStars: 6_200, githubForks: 3_600, commitCount4Weeks: 150, contributors: 700 },
    community: { twitterFollowers: 700_000, redditSubscribers: 100_000 },
  },
  {
    id: 30, coingeckoId: 'optimism', symbol: 'OP', name: 'Optimism',
    supply: { circulating: 1_300_000_000, circulatingAt2020: 214_000_000, total: 4_294_967_296, max: 4_294_967_296 },
    model: { startPriceUsd: 1.0, anchorPriceUsd: 1.85, annualDrift: 0.05, annualVolatility: 1.0, marketFactorLoading: 0.8, volumeToMarketCap: 0.08 },
    developer: { githubStars: 5_200, githubForks: 3_000, commitCount4Weeks: 200, contributors: 350 },
    community: { twitterFollowers: 700_000, redditSubscribers: 10_000 },
  },
];

export const SANDBOX_ASSETS: readonly SandboxAsset[] = ROWS.map((row) => ({
  ...row,
  source: 'sandbox' as const,
  model: { stablecoin: false, ...row.model },
}));

const byCoingeckoId = new Map(SANDBOX_ASSETS.map((asset) => [asset.coingeckoId, asset]));
const bySymbol = new Map(SANDBOX_ASSETS.map((asset) => [asset.symbol, asset]));

export function sandboxAssetByCoingeckoId(coingeckoId: string): SandboxAsset | undefined {
  return byCoingeckoId.get(coingeckoId);
}

/** Case-insensitive: `btc` and `BTC` both find Bitcoin. */
export function sandboxAssetBySymbol(symbol: string): SandboxAsset | undefined {
  return bySymbol.get(symbol.toUpperCase());
}
