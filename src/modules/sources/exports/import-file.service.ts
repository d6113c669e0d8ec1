import { Inject, Injectable } from '@nestjs/common';
import { MARKET_PRICES, type MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import type { PriceBook } from './export-format.js';
import { parseImportFile, type ImportParseResult } from './export-files.js';

/** Records which (symbol, date) prices a parse asked for; answers none. */
class RecordingPriceBook implements PriceBook {
  readonly wanted = new Map<string, Set<string>>();

  usdOn(symbol: string, date: string): string | null {
    if (!this.wanted.has(symbol)) this.wanted.set(symbol, new Set());
    this.wanted.get(symbol)!.add(date);
    return null;
  }
}

class StoredPriceBook implements PriceBook {
  constructor(private readonly prices: ReadonlyMap<string, ReadonlyMap<string, string>>) {}

  usdOn(symbol: string, date: string): string | null {
    return this.prices.get(symbol)?.get(date) ?? null;
  }
}

/**
 * Parses an import file with the market store's daily USD prices (income, crypto-to-crypto trades,
 * fees paid in an asset). Parsing is pure; it runs once to learn which prices it needs and, when it
 * needs any, once more with them (one read of the store for the file's symbols and date range).
 */
@Injectable()
export class ImportFileService {
  constructor(@Inject(MARKET_PRICES) private readonly market: MarketPricesPort) {}

  async parse(
    text: string,
    options: { now: Date; format?: string; onProgress?: (parsed: number) => void },
  ): Promise<ImportParseResult> {
    const recording = new RecordingPriceBook();
    const first = parseImportFile(text, { ...options, prices: recording });
    if (recording.wanted.size === 0) return first;
    const dates = [...recording.wanted.values()].flatMap((set) => [...set]).sort();
    const history = await this.market.dailyHistory(
      [...recording.wanted.keys()],
      dates[0],
      dates[dates.length - 1],
    );
    const prices = new Map<string, Map<string, string>>();
    for (const [symbol, days] of history) prices.set(symbol, new Map(days.map((d) => [d.date, d.priceUsd])));
    return parseImportFile(text, { ...options, prices: new StoredPriceBook(prices) });
  }
}
