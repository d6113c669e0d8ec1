import { Injectable } from '@nestjs/common';
import type {
  ChainTokenRef,
  DailyPrice,
  DailyPriceSeries,
  MarketPricesPort,
  StoredPrice,
  TokenPriceState,
} from '../../common/ports/market-prices.port.js';
import { MarketRepository } from './market.repository.js';
import { TokenPricesService } from './token-prices.service.js';

/**
 * MARKET_PRICES for accounts, reports and simulations: prices from the store only, never from a
 * provider. Symbols are matched case-insensitively and returned upper-case; unknown ones are absent.
 */
@Injectable()
export class MarketPricesService implements MarketPricesPort {
  constructor(
    private readonly repository: MarketRepository,
    private readonly tokens: TokenPricesService,
  ) {}

  async latestPricesUsd(symbols: readonly string[]): Promise<Map<string, StoredPrice>> {
    const wanted = normalise(symbols);
    const rows = await this.repository.findBySymbols(wanted);
    const result = new Map(
      [...rows].map(([symbol, row]) => [symbol, { priceUsd: row.priceUsd, asOf: new Date(row.asOf) }]),
    );
    // A chain token's latest is its last daily price, observed at the end of that UTC day.
    const tokens = await this.tokens.latest(wanted.filter((symbol) => !result.has(symbol)));
    for (const [symbol, { priceUsd, date }] of tokens)
      result.set(symbol, { priceUsd, asOf: new Date(`${date}T23:59:59.999Z`) });
    return result;
  }

  async pricesOnDate(symbols: readonly string[], date: string): Promise<Map<string, string>> {
    const wanted = normalise(symbols);
    const assets = await this.repository.findBySymbols(wanted);
    const rows = await this.repository.lastRowOnOrBefore(
      [...assets.values()].map((asset) => asset.assetId),
      date,
    );
    const result = new Map<string, string>();
    for (const [symbol, asset] of assets) {
      const row = rows.get(asset.assetId);
      if (row) result.set(symbol, row.priceUsd);
    }
    const tokens = await this.tokens.onDate(
      wanted.filter((symbol) => !assets.has(symbol)),
      date,
    );
    for (const [symbol, price] of tokens) result.set(symbol, price);
    return result;
  }

  ensureTokenPrices(
    tokens: readonly ChainTokenRef[],
    fromDate: string,
    toDate: string,
  ): Promise<Map<string, TokenPriceState>> {
    return this.tokens.ensure(tokens, fromDate, toDate);
  }

  async dailyHistory(
    symbols: readonly string[],
    fromDate: string,
    toDate: string,
  ): Promise<Map<string, DailyPrice[]>> {
    const assets = await this.repository.findBySymbols(normalise(symbols));
    const rows = await this.repository.history(
      [...assets.values()].map((asset) => asset.assetId),
      fromDate,
      toDate,
    );
    const symbolOf = new Map([...assets].map(([symbol, asset]) => [asset.assetId, symbol]));
    const result = new Map<string, DailyPrice[]>([...assets.keys()].map((symbol) => [symbol, []]));
    for (const row of rows)
      result.get(symbolOf.get(row.assetId)!)!.push({ date: row.date, priceUsd: row.priceUsd });
    return result;
  }

  async dailyPriceSeries(symbol: string, fromDate: string, toDate: string): Promise<DailyPriceSeries> {
    const { days, prices } = await this.repository.dailyPriceSeriesText(
      symbol.trim().toUpperCase(),
      fromDate,
      toDate,
    );
    if (days === null || prices === null) return { dayOffsets: [], pricesUsd: [] };
    return { dayOffsets: days.split(',').map(Number), pricesUsd: prices.split(',') };
  }

  async knownSymbols(): Promise<string[]> {
    return (await this.repository.snapshotSymbols()).sort();
  }
}

function normalise(symbols: readonly string[]): string[] {
  return [...new Set(symbols.map((symbol) => symbol.trim().toUpperCase()))];
}
