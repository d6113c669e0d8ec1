/**
 * What account balances, reports and simulations need from the market store, and nothing more.
 * Implemented by the market module (MarketPricesService) from stored data: never calls a provider
 * in the request path. Symbols are upper-case tickers ("BTC"); prices are decimal text in USD.
 */
export const MARKET_PRICES = Symbol('MARKET_PRICES');

export interface StoredPrice {
  priceUsd: string;
  /** When the provider observed this price. */
  asOf: Date;
}

export interface DailyPrice {
  /** UTC calendar date, YYYY-MM-DD. */
  date: string;
  priceUsd: string;
}

/**
 * One asset's daily prices over a range in a compact form for long series (a simulation reads ten
 * years of ten assets): element k is the price on the day `dayOffsets[k]` whole days after the
 * range's first day, ascending.
 */
export interface DailyPriceSeries {
  readonly dayOffsets: readonly number[];
  /** Decimal text in USD, as in DailyPrice. */
  readonly pricesUsd: readonly string[];
}

/**
 * A token a chain account holds or moved (issue 30 item 4): where it lives and the ledger symbol its
 * connector gave it. `platform` is CoinGecko's asset platform id (ethereum, base, arbitrum-one,
 * optimistic-ethereum, polygon-pos, solana); `contract` the EVM contract or the Solana mint.
 */
export interface ChainTokenRef {
  readonly symbol: string;
  readonly platform: string;
  readonly contract: string;
}

/**
 * What ensureTokenPrices found per symbol: `catalog` (a catalog asset: its own prices), `priced`
 * (daily prices stored for the range), `unpriceable` (the provider does not know the token, or
 * the market provider serves no tokens), `deferred` (not asked now: the provider's call budget was
 * spent or it failed; the next refresh asks again).
 */
export type TokenPriceState = 'catalog' | 'priced' | 'unpriceable' | 'deferred';

export interface MarketPricesPort {
  /** Latest stored price per symbol; unknown symbols are absent from the map. */
  latestPricesUsd(symbols: readonly string[]): Promise<Map<string, StoredPrice>>;
  /** Daily price on a UTC date: the last stored on or before it; absent when none. */
  pricesOnDate(symbols: readonly string[], date: string): Promise<Map<string, string>>;
  /** Daily prices between two UTC dates inclusive, ascending by date. */
  dailyHistory(
    symbols: readonly string[],
    fromDate: string,
    toDate: string,
  ): Promise<Map<string, DailyPrice[]>>;
  /**
   * dailyHistory of one symbol as a DailyPriceSeries (offsets from fromDate); empty for a symbol
   * the store does not know.
   */
  dailyPriceSeries(symbol: string, fromDate: string, toDate: string): Promise<DailyPriceSeries>;
  /** Symbols the store knows (upper-case). */
  knownSymbols(): Promise<string[]>;
  /**
   * Makes the store hold daily prices of chain tokens between two UTC dates, asking the market
   * provider for those it lacks within its call budget (never in the request path: refreshes call
   * it). Never throws for a token it cannot price. Optional: fixed test prices need no fetching.
   */
  ensureTokenPrices?(
    tokens: readonly ChainTokenRef[],
    fromDate: string,
    toDate: string,
  ): Promise<Map<string, TokenPriceState>>;
}
