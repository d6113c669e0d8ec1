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
  /** Symbols the store knows (upper-case). */
  knownSymbols(): Promise<string[]>;
}
