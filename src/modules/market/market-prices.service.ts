import { Injectable } from '@nestjs/common';
import type { DailyPrice, MarketPricesPort, StoredPrice } from '../../common/ports/market-prices.port.js';
import { MarketRepository } from './market.repository.js';

/**
 * MARKET_PRICES for accounts, reports and simulations: prices from the store only, never from a
 * provider. Symbols are matched case-insensitively and returned upper-case; unknown ones are absent.
 */
@Injectable()
export class MarketPricesService implements MarketPricesPort {
  constructor(private readonly repository: MarketRepository) {}

  async latestPricesUsd(symbols: readonly string[]): Promise<Map<string, StoredPrice>> {
    const rows = await this.repository.findBySymbols(normalise(symbols));
    return new Map(
      [...rows].map(([symbol, row]) => [symbol, { priceUsd: row.priceUsd, asOf: new Date(row.asOf) }]),
    );
  }

  async pricesOnDate(symbols: readonly string[], date: string): Promise<Map<string, string>> {
    const assets = await this.repository.findBySymbols(normalise(symbols));
    const rows = await this.repository.lastRowOnOrBefore(
      [...assets.values()].map((asset) => asset.assetId),
      date,
    );
    const result = new Map<string, string>();
    for (const [symbol, asset] of assets) {
      const row = rows.get(asset.assetId);
      if (row) result.set(symbol, row.priceUsd);
    }
    return result;
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

  async knownSymbols(): Promise<string[]> {
    return [...(await this.repository.findBySymbols()).keys()].sort();
  }
}

function normalise(symbols: readonly string[]): string[] {
  return [...new Set(symbols.map((symbol) => symbol.trim().toUpperCase()))];
}
