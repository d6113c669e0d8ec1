/**
 * Stored daily prices shaped for the simulation and the ROI projection: aligned daily log
 * returns of several assets, and one asset's daily closes, over the same window (the last
 * HISTORY_LOOKBACK_YEARS up to today, UTC), so the ROI base case and the simulation's drift come
 * from the same days. From the store only (MARKET_PRICES), never a provider.
 */
import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import {
  MARKET_PRICES,
  type DailyPrice,
  type MarketPricesPort,
} from '../../common/ports/market-prices.port.js';
import { addDays, daysBetween, utcDate } from '../market/index.js';

/** Estimation window: at most the last ten years of stored history. */
export const HISTORY_LOOKBACK_YEARS = 10;
/** Fewer aligned daily returns than this is no basis for a projection. */
export const MIN_HISTORY_DAYS = 30;
/** History is read a year of one asset at a time (see window()). */
const HISTORY_CHUNK_DAYS = 366;

export interface AlignedReturns {
  /** One series per symbol, in the order asked; element t is the same calendar day in each. */
  readonly dailyLogReturns: number[][];
  /** First and last day of the returns (each return ends on a day from..to). */
  readonly from: string;
  readonly to: string;
}

export interface DailyCloses {
  /** One price per calendar day, ascending; a day without a stored price repeats the previous one. */
  readonly pricesUsd: number[];
  readonly from: string;
  readonly to: string;
}

@Injectable()
export class MarketHistoryService {
  constructor(
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
    private readonly clock: Clock,
  ) {}

  async knownSymbols(): Promise<Set<string>> {
    return new Set(await this.prices.knownSymbols());
  }

  /**
   * Daily log returns ln(Pₜ / Pₜ₋₁) on the days where every asset has a price on that day and the
   * day before, so element t of each series is the same calendar day (docs/simulation.md).
   */
  async alignedDailyLogReturns(symbols: readonly string[]): Promise<AlignedReturns> {
    const byDate = await this.window(symbols);
    const common = [...byDate[0].keys()].filter((date) => byDate.every((prices) => prices.has(date))).sort();
    const commonSet = new Set(common);
    const days: string[] = [];
    const previousDays: string[] = [];
    for (const date of common) {
      const previous = addDays(date, -1);
      if (!commonSet.has(previous)) continue;
      days.push(date);
      previousDays.push(previous);
    }
    if (days.length < MIN_HISTORY_DAYS) throw insufficientHistory(symbols, days.length);
    return {
      dailyLogReturns: byDate.map((prices) =>
        days.map((date, t) => Math.log(prices.get(date)! / prices.get(previousDays[t])!)),
      ),
      from: days[0],
      to: days[days.length - 1],
    };
  }

  async dailyCloses(symbol: string): Promise<DailyCloses> {
    const [prices] = await this.window([symbol]);
    const dates = [...prices.keys()].sort();
    if (dates.length < 2 || daysBetween(dates[0], dates[dates.length - 1]) < MIN_HISTORY_DAYS) {
      throw insufficientHistory([symbol], dates.length);
    }
    const from = dates[0];
    const to = dates[dates.length - 1];
    const pricesUsd: number[] = [];
    let last = prices.get(from)!;
    for (let date = from; date <= to; date = addDays(date, 1)) {
      last = prices.get(date) ?? last;
      pricesUsd.push(last);
    }
    return { pricesUsd, from, to };
  }

  /**
   * Positive daily prices by date, per symbol in the order asked, over the window: a year of one
   * asset per query, yielding to the event loop after each. Rows are decoded on the request
   * thread, and embedded PGlite runs the query there too, answering without leaving the microtask
   * queue: thirty assets' ten years in one query held the thread for 1-2 s (a liveness probe
   * waited as long), a year of one asset holds it for a few milliseconds.
   */
  private async window(symbols: readonly string[]): Promise<Map<string, number>[]> {
    const today = utcDate(this.clock.now());
    const from = addDays(today, -Math.round(HISTORY_LOOKBACK_YEARS * 365.25));
    const byDate: Map<string, number>[] = [];
    for (const symbol of symbols) {
      const prices = new Map<string, number>();
      for (let chunkFrom = from; chunkFrom <= today; chunkFrom = addDays(chunkFrom, HISTORY_CHUNK_DAYS)) {
        const last = addDays(chunkFrom, HISTORY_CHUNK_DAYS - 1);
        const history = await this.prices.dailyHistory([symbol], chunkFrom, last < today ? last : today);
        addPositivePrices(prices, history.get(symbol) ?? []);
        await yieldToEventLoop();
      }
      byDate.push(prices);
    }
    return byDate;
  }
}

function addPositivePrices(prices: Map<string, number>, rows: readonly DailyPrice[]): void {
  for (const row of rows) {
    const price = Number(row.priceUsd);
    if (Number.isFinite(price) && price > 0) prices.set(row.date, price);
  }
}

function insufficientHistory(symbols: readonly string[], days: number): DomainError {
  return new DomainError(
    ErrorCode.Unprocessable,
    `Not enough stored daily history for ${symbols.join(', ')}: ${days} usable day(s), at least ${MIN_HISTORY_DAYS} needed.`,
    undefined,
    'insufficient_history',
  );
}
