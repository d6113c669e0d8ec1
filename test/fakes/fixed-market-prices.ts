import type {
  DailyPrice,
  DailyPriceSeries,
  MarketPricesPort,
  StoredPrice,
} from '../../src/common/ports/market-prices.port.js';

/** The market store at the edge of a service test: fixed latest prices, no history. */
export class FixedMarketPrices implements MarketPricesPort {
  constructor(
    private readonly prices: Readonly<Record<string, string>>,
    private readonly asOf = new Date('2024-06-01T00:00:00Z'),
  ) {}

  async latestPricesUsd(symbols: readonly string[]): Promise<Map<string, StoredPrice>> {
    return new Map(
      symbols.flatMap((s) =>
        this.prices[s] ? [[s, { priceUsd: this.prices[s], asOf: this.asOf }] as const] : [],
      ),
    );
  }

  async pricesOnDate(symbols: readonly string[]): Promise<Map<string, string>> {
    return new Map(symbols.flatMap((s) => (this.prices[s] ? [[s, this.prices[s]] as const] : [])));
  }

  async dailyHistory(): Promise<Map<string, DailyPrice[]>> {
    return new Map();
  }

  async dailyPriceSeries(): Promise<DailyPriceSeries> {
    return { dayOffsets: [], pricesUsd: [] };
  }

  async knownSymbols(): Promise<string[]> {
    return Object.keys(this.prices).sort();
  }
}
