/**
 * Stored daily prices shaped for the simulation and the ROI projection: aligned daily log
 * returns of several assets, and one asset's daily closes, over the same window (the last
 * HISTORY_LOOKBACK_YEARS up to today, UTC), so the ROI base case and the simulation's drift come
 * from the same days. From the store only (MARKET_PRICES), never a provider.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import {
  MARKET_PRICES,
  type DailyPrice,
  type MarketPricesPort,
} from '../../common/ports/market-prices.port.js';
import { addDays, daysBetween, utcDate } from '../market/market-dates.js';

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
    const history = await this.window(symbols);
    const byDate = symbols.map((symbol) => positivePrices(history.get(symbol) ?? []));
    const common = [...byDate[0].keys()].filter((date) => byDate.every((prices) => prices.has(date))).sort();
    const commonSet = new Set(common);
    const days = common.filter((date) => commonSet.has(addDays(date, -1)));
    if (days.length < MIN_HISTORY_DAYS) throw insufficientHistory(symbols, days.length);
    return {
      dailyLogReturns: byDate.map((prices) =>
        days.map((date) => Math.log(prices.get(date)! / prices.get(addDays(date, -1))!)),
      ),
      from: days[0],
      to: days[days.length - 1],
    };
  }

  async dailyCloses(symbol: string): Promise<DailyCloses> {
    const prices = positivePrices((await this.window([symbol])).get(symbol) ?? []);
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

  private window(symbols: readonly string[]): Promise<Map<string, DailyPrice[]>> {
    const today = utcDate(this.clock.now());
    return this.prices.dailyHistory(
      symbols,
      addDays(today, -Math.round(HISTORY_LOOKBACK_YEARS * 365.25)),
      today,
    );
  }
}

function positivePrices(rows: readonly DailyPrice[]): Map<string, number> {
  const prices = new Map<string, number>();
  for (const row of rows) {
    const price = Number(row.priceUsd);
    if (Number.isFinite(price) && price > 0) prices.set(row.date, price);
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
