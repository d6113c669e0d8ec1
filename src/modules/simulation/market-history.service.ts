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
  type DailyPriceSeries,
  type MarketPricesPort,
} from '../../common/ports/market-prices.port.js';
import { addDays, daysBetween, utcDate } from '../market/index.js';

/** Estimation window: at most the last ten years of stored history. */
export const HISTORY_LOOKBACK_YEARS = 10;
/** Fewer aligned daily returns than this is no basis for a projection. */
export const MIN_HISTORY_DAYS = 30;

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
    const { from, span, series } = await this.window(symbols);
    const byDay = series.map((prices) => positivePricesByDay(prices, span));
    const priced = (day: number) => byDay.every((prices) => !Number.isNaN(prices[day]));
    // Days where every asset has a price on that day and the day before, ascending.
    const days: number[] = [];
    for (let day = 1, before = priced(0); day < span; day++) {
      const now = priced(day);
      if (now && before) days.push(day);
      before = now;
    }
    if (days.length < MIN_HISTORY_DAYS) throw insufficientHistory(symbols, days.length);
    return {
      dailyLogReturns: byDay.map((prices) => days.map((day) => Math.log(prices[day] / prices[day - 1]))),
      from: addDays(from, days[0]),
      to: addDays(from, days[days.length - 1]),
    };
  }

  async dailyCloses(symbol: string): Promise<DailyCloses> {
    const { from, span, series } = await this.window([symbol]);
    const prices = positivePricesByDay(series[0], span);
    const pricedDays: number[] = [];
    for (let day = 0; day < span; day++) if (!Number.isNaN(prices[day])) pricedDays.push(day);
    const first = pricedDays[0];
    const last = pricedDays[pricedDays.length - 1];
    if (pricedDays.length < 2 || last - first < MIN_HISTORY_DAYS) {
      throw insufficientHistory([symbol], pricedDays.length);
    }
    const pricesUsd: number[] = [];
    let price = prices[first];
    for (let day = first; day <= last; day++) {
      if (!Number.isNaN(prices[day])) price = prices[day];
      pricesUsd.push(price);
    }
    return { pricesUsd, from: addDays(from, first), to: addDays(from, last) };
  }

  /**
   * The window's first day, its length in days and each symbol's stored daily prices in it (in
   * the order asked): one query per asset, yielding to the event loop after each. Embedded PGlite
   * runs the query on the request thread, answering without leaving the microtask queue, and the
   * answer is decoded there too: thirty assets' ten years in one query of rows held the thread
   * for 1-2 s (a liveness probe waited as long). An asset's ten years come as one text of offsets
   * and one of prices (MarketPricesPort.dailyPriceSeries), which holds it for a few milliseconds.
   */
  private async window(
    symbols: readonly string[],
  ): Promise<{ from: string; span: number; series: DailyPriceSeries[] }> {
    const today = utcDate(this.clock.now());
    const from = addDays(today, -Math.round(HISTORY_LOOKBACK_YEARS * 365.25));
    const series: DailyPriceSeries[] = [];
    for (const symbol of symbols) {
      series.push(await this.prices.dailyPriceSeries(symbol, from, today));
      await yieldToEventLoop();
    }
    return { from, span: daysBetween(from, today) + 1, series };
  }
}

/** The series' positive prices by day of the window (NaN: no usable price that day). */
function positivePricesByDay(series: DailyPriceSeries, span: number): Float64Array {
  const prices = new Float64Array(span).fill(NaN);
  const { dayOffsets, pricesUsd } = series;
  for (let k = 0; k < dayOffsets.length; k++) {
    const price = Number(pricesUsd[k]);
    if (Number.isFinite(price) && price > 0) prices[dayOffsets[k]] = price;
  }
  return prices;
}

function insufficientHistory(symbols: readonly string[], days: number): DomainError {
  return new DomainError(
    ErrorCode.Unprocessable,
    `Not enough stored daily history for ${symbols.join(', ')}: ${days} usable day(s), at least ${MIN_HISTORY_DAYS} needed.`,
    undefined,
    'insufficient_history',
  );
}
