/**
 * SYNTHETIC SANDBOX MARKET: NOT REAL MARKET DATA.
 *
 * Deterministic daily history (price, market cap, volume) for the sandbox assets from
 * 2020-01-01 on. Owns the price model only; storing the rows, serving them and marking
 * them as sandbox data in responses is the market module's job. Never reads a clock or
 * Math.random: the same asset and day always give the same numbers.
 *
 * Model (docs/sandbox-market.md): daily log return = drift + σ/√365 × (ρ·M + √(1−ρ²)·E),
 * with M a common crypto-market factor (one stream, seeded from MARKET_FACTOR_SEED) and
 * E the asset's own noise (seeded from 'sandbox-market:' + coingeckoId). Each draw is
 * tied to its day, so day k's price never depends on how far a caller generates. Up to
 * SANDBOX_ANCHOR_DATE the path is a Brownian bridge pinned to the asset's anchor price;
 * afterwards it wanders around a trend growing at annualDrift, pulled back towards it
 * with a 90-day half-life, so sandbox prices stay recognisable however long it runs.
 */
import { SeededRandom } from '../random/seeded-random.js';
import {
  SANDBOX_ANCHOR_DATE,
  SANDBOX_ASSETS,
  SANDBOX_HISTORY_START,
  type SandboxAsset,
} from './sandbox-assets.js';

export interface DailyMarketRow {
  /** YYYY-MM-DD (UTC day). */
  readonly date: string;
  /** Decimal text, 8 significant digits. */
  readonly priceUsd: string;
  /** Whole dollars, decimal text: priceUsd × circulating supply of the day. */
  readonly marketCapUsd: string;
  /** Whole dollars, decimal text: 24h volume. */
  readonly volumeUsd: string;
}

/** Inputs for one market-data record on one day (rank, volatility and scores come from elsewhere). */
export interface SandboxSnapshot {
  readonly source: 'sandbox';
  readonly date: string;
  readonly priceUsd: number;
  readonly marketCapUsd: number;
  readonly volume24hUsd: number;
  readonly circulatingSupply: number;
  readonly totalSupply: number;
  readonly maxSupply: number | null;
}

export const MARKET_FACTOR_SEED = 'sandbox-market:crypto-market-factor';
export const PRICE_SIGNIFICANT_DIGITS = 8;
/** Standard deviation of a stablecoin's daily price around 1.00. */
const STABLECOIN_PRICE_NOISE = 0.0005;
/** Day-to-day lognormal noise of volume around its typical level. */
const VOLUME_NOISE_SIGMA = 0.35;
/** Volume rises with the size of the day's move: × (1 + 0.5·|shock|), normalised to mean 1. */
const VOLUME_SHOCK_SENSITIVITY = 0.5;
/** Half-life of a deviation from the post-anchor trend: keeps prices near recognisable levels. */
const POST_ANCHOR_HALF_LIFE_DAYS = 90;
const POST_ANCHOR_REVERSION = 1 - Math.pow(0.5, 1 / POST_ANCHOR_HALF_LIFE_DAYS);
const MEAN_ABS_NORMAL = Math.sqrt(2 / Math.PI);
const DAYS_PER_YEAR = 365;
const DAY_MS = 86_400_000;
// Hot loops use these module-level aliases, `+text` and template strings instead of
// Math.x / Number() / String(): under jest's VM sandbox every global lookup is slow (about
// 50× a local one), and generating every history makes several million of them.
const { abs, exp, floor, log10, max, min, round } = Math;
const INFINITY = Number.POSITIVE_INFINITY;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HISTORY_START_MS = Date.parse(`${SANDBOX_HISTORY_START}T00:00:00Z`);
const ANCHOR_DAY = dayIndex(SANDBOX_ANCHOR_DATE);

/**
 * Daily rows for `fromDate`..`toDate` inclusive (YYYY-MM-DD, UTC days). History starts on
 * 2020-01-01: an earlier `fromDate` is clamped to it; a `toDate` before it gives [].
 */
export function generateDailyHistory(
  asset: SandboxAsset,
  fromDate: string,
  toDate: string,
): DailyMarketRow[] {
  const from = Math.max(0, dayIndex(fromDate));
  const to = dayIndex(toDate);
  if (to < from) return [];
  const path = simulatePath(asset, to);
  const rows: DailyMarketRow[] = [];
  for (let day = from; day <= to; day++) {
    const priceUsd = toSignificantDecimal(path.priceUsd[day], PRICE_SIGNIFICANT_DIGITS);
    const marketCapUsd = +priceUsd * circulatingSupplyOn(asset, day);
    rows.push({
      date: dateOfDay(day),
      priceUsd,
      marketCapUsd: `${round(marketCapUsd)}`,
      volumeUsd: `${round(marketCapUsd * path.volumeToMarketCap[day])}`,
    });
  }
  return rows;
}

/** The asset's market inputs on `date`, consistent with generateDailyHistory; null before 2020-01-01. */
export function snapshotAt(asset: SandboxAsset, date: string): SandboxSnapshot | null {
  const day = dayIndex(date);
  if (day < 0) return null;
  const [row] = generateDailyHistory(asset, date, date);
  const circulatingSupply = circulatingSupplyOn(asset, day);
  return {
    source: 'sandbox',
    date: row.date,
    priceUsd: Number(row.priceUsd),
    marketCapUsd: Number(row.marketCapUsd),
    volume24hUsd: Number(row.volumeUsd),
    circulatingSupply,
    totalSupply: totalSupplyOn(asset, circulatingSupply),
    maxSupply: asset.supply.max,
  };
}

/** Market-cap rank (1 = largest) of every sandbox asset on `date`, keyed by CoinGecko id. */
export function sandboxMarketCapRanks(
  date: string,
  assets: readonly SandboxAsset[] = SANDBOX_ASSETS,
): Map<string, number> {
  const caps = assets
    .map((asset) => ({ id: asset.coingeckoId, marketCapUsd: snapshotAt(asset, date)?.marketCapUsd ?? 0 }))
    .sort((a, b) => b.marketCapUsd - a.marketCapUsd || a.id.localeCompare(b.id));
  return new Map(caps.map((entry, index) => [entry.id, index + 1]));
}

/**
 * Day-by-day draws of the common market factor: the MARKET_FACTOR_SEED stream, identical for
 * every asset, so it is drawn once and kept (it only grows; value n is the stream's n-th
 * normal whoever asks first). Saves a third of the random draws.
 */
const marketFactor = { stream: new SeededRandom(MARKET_FACTOR_SEED), shocks: [] as number[] };

function marketFactorShocks(days: number): readonly number[] {
  while (marketFactor.shocks.length < days) marketFactor.shocks.push(marketFactor.stream.normal());
  return marketFactor.shocks;
}

interface SimulatedPath {
  readonly priceUsd: Float64Array;
  readonly volumeToMarketCap: Float64Array;
}

function simulatePath(asset: SandboxAsset, lastDay: number): SimulatedPath {
  const model = asset.model;
  // Always simulate through the anchor day: the bridge before it needs the whole segment.
  const days = Math.max(lastDay, ANCHOR_DAY) + 1;
  const own = new SeededRandom(`sandbox-market:${asset.coingeckoId}`);
  const marketShocks = marketFactorShocks(days);
  const dailySigma = model.annualVolatility / Math.sqrt(DAYS_PER_YEAR);
  const loading = model.marketFactorLoading;
  const idiosyncraticLoading = Math.sqrt(1 - loading * loading);

  // Free (driftless) log path and the day's volume factor; exactly two own draws per day,
  // so every day consumes the same slice of the asset's stream.
  const freeLogPath = new Float64Array(days);
  const shocks = new Float64Array(days);
  const volumeToMarketCap = new Float64Array(days);
  for (let day = 0; day < days; day++) {
    const marketShock = marketShocks[day];
    const ownShock = own.normal();
    const volumeShock = own.normal();
    const shock = model.stablecoin ? ownShock : loading * marketShock + idiosyncraticLoading * ownShock;
    if (day > 0) freeLogPath[day] = freeLogPath[day - 1] + dailySigma * shock;
    shocks[day] = shock;
    volumeToMarketCap[day] =
      model.volumeToMarketCap *
      exp(VOLUME_NOISE_SIGMA * volumeShock - (VOLUME_NOISE_SIGMA * VOLUME_NOISE_SIGMA) / 2) *
      ((1 + VOLUME_SHOCK_SENSITIVITY * abs(shock)) / (1 + VOLUME_SHOCK_SENSITIVITY * MEAN_ABS_NORMAL));
  }

  const priceUsd = new Float64Array(days);
  const logStart = Math.log(model.startPriceUsd);
  const logAnchor = Math.log(model.anchorPriceUsd);
  const bridgeGap = logAnchor - logStart - freeLogPath[ANCHOR_DAY];
  const dailyTrend = model.annualDrift / DAYS_PER_YEAR;
  let deviationFromTrend = 0;
  for (let day = 0; day < days; day++) {
    if (model.stablecoin) {
      priceUsd[day] = day === 0 ? 1 : 1 + STABLECOIN_PRICE_NOISE * shocks[day];
    } else if (day <= ANCHOR_DAY) {
      priceUsd[day] = exp(logStart + freeLogPath[day] + (day / ANCHOR_DAY) * bridgeGap);
    } else {
      deviationFromTrend = deviationFromTrend * (1 - POST_ANCHOR_REVERSION) + dailySigma * shocks[day];
      priceUsd[day] = exp(logAnchor + (day - ANCHOR_DAY) * dailyTrend + deviationFromTrend);
    }
  }
  return { priceUsd, volumeToMarketCap };
}

/** Linear from the 2020 figure to the anchor figure and on at the same pace, never above the cap. */
function circulatingSupplyOn(asset: SandboxAsset, day: number): number {
  const { circulating, circulatingAt2020, max: cap } = asset.supply;
  const linear = circulatingAt2020 + ((circulating - circulatingAt2020) * day) / ANCHOR_DAY;
  return round(max(0, cap === null ? linear : min(linear, cap)));
}

/**
 * Uncapped assets keep their anchor-day total/circulating ratio (total grows with issuance);
 * capped assets keep their anchor-day total, never below circulating.
 */
function totalSupplyOn(asset: SandboxAsset, circulatingSupply: number): number {
  const { circulating, total, max } = asset.supply;
  if (max === null) return Math.round((circulatingSupply * total) / circulating);
  return Math.max(total, circulatingSupply);
}

/** Days since 2020-01-01 of a YYYY-MM-DD date; RangeError when malformed or not a calendar day. */
function dayIndex(date: string): number {
  const match = ISO_DATE.exec(date);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new RangeError(`Expected a calendar date as YYYY-MM-DD, got "${date}"`);
  }
  return Math.round((ms - HISTORY_START_MS) / DAY_MS);
}

/** Formatting dates dominated generation time; the strings are immutable, so keep them. */
const dateTextByDay: string[] = [];

function dateOfDay(day: number): string {
  return (dateTextByDay[day] ??= new Date(HISTORY_START_MS + day * DAY_MS).toISOString().slice(0, 10));
}

/** Decimal text with at most `digits` significant digits and never exponent notation. */
export function toSignificantDecimal(value: number, digits: number): string {
  const magnitude = abs(value);
  if (!(magnitude > 0 && magnitude < INFINITY)) return `${value}`; // 0, NaN, ±Infinity
  // Scaling by an exact power of ten and rounding is several times faster than toPrecision,
  // and printing n / 10^k gives exactly the decimal n·10^-k (shortest round-trip form).
  const decimals = digits - 1 - floor(log10(magnitude));
  const rounded =
    decimals >= 0
      ? round(value * 10 ** decimals) / 10 ** decimals
      : round(value / 10 ** -decimals) * 10 ** -decimals;
  const text = `${rounded}`;
  if (!text.includes('e')) return text;
  return rounded.toFixed(20).replace(/\.?0+$/, '');
}
