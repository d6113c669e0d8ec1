import { Inject, Injectable } from '@nestjs/common';
import { MARKET_PRICES, type MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import type { ImportParseResult } from './export-files.js';
import { ImportParsePool } from './import-parse-pool.js';
import { parseResultOf } from './import-parse.worker.js';

/**
 * Parses an import file with the market store's daily USD prices (income, crypto-to-crypto trades,
 * fees paid in an asset). Parsing is pure; it runs once to learn which prices it needs and, when it
 * needs any, once more with them (one read of the store for the file's symbols and date range).
 * Both passes run in a worker thread (ImportParsePool, issue 28), parseImportFile itself there.
 */
@Injectable()
export class ImportFileService {
  constructor(
    @Inject(MARKET_PRICES) private readonly market: MarketPricesPort,
    private readonly parser: ImportParsePool,
  ) {}

  async parse(
    text: string,
    options: { now: Date; format?: string; onProgress?: (parsed: number) => void },
  ): Promise<ImportParseResult> {
    const task = { text, now: options.now, format: options.format };
    const first = await this.parser.run({ ...task, prices: null }, options.onProgress);
    if (first.wanted.length === 0) return parseResultOf(first);
    const dates = first.wanted.flatMap(([, days]) => days).sort();
    const history = await this.market.dailyHistory(
      first.wanted.map(([symbol]) => symbol),
      dates[0],
      dates[dates.length - 1],
    );
    const prices = [...history].map(
      ([symbol, days]) => [symbol, days.map((d) => [d.date, d.priceUsd] as const)] as const,
    );
    return parseResultOf(await this.parser.run({ ...task, prices }, options.onProgress));
  }
}
