/**
 * Per-position figures for account balances, derived only from a CostBasisResult so the
 * balances and the gains report add up to the same realized gain.
 */
import type { Decimal } from 'decimal.js';
import type { CostBasisResult } from './cost-basis.types.js';
import { parseDecimal, toCanonical, toExact, ZERO } from '../money/exact-decimal.js';
import { compareByteOrder } from './processing-order.js';

export interface PositionSummary {
  readonly accountId: string;
  readonly symbol: string;
  /** All open quantity, whatever its basis. */
  readonly quantity: string;
  readonly knownBasisQuantity: string;
  readonly unknownBasisQuantity: string;
  /** Basis of the known-basis open lots only. */
  readonly costBasisUsd: string;
  /** Sum of gainUsd over every disposal of this position, flagged ones included. */
  readonly realizedGainUsd: string;
  /** True when a disposal with unknown basis (or not covered by lots) is in realizedGainUsd. */
  readonly realizedGainNeedsReview: boolean;
}

export interface ValuedPosition extends PositionSummary {
  /** null when no price was given for the symbol (and the position is not empty). */
  readonly priceUsd: string | null;
  /** quantity × price: unknown-basis quantity counts at its full market value. */
  readonly marketValueUsd: string | null;
  /** Known-basis quantity × price − costBasisUsd; unknown-basis quantity contributes nothing. */
  readonly unrealizedGainUsd: string | null;
  /** True when unknown-basis quantity is left out of unrealizedGainUsd. */
  readonly unrealizedGainNeedsReview: boolean;
}

interface Totals {
  accountId: string;
  symbol: string;
  knownBasisQuantity: Decimal;
  unknownBasisQuantity: Decimal;
  costBasisUsd: Decimal;
  realizedGainUsd: Decimal;
  realizedGainNeedsReview: boolean;
}

/** One row per (accountId, symbol) that has open lots or disposals, in byte order of both. */
export function summarizeByAccountAndSymbol(result: CostBasisResult): readonly PositionSummary[] {
  const totalsByKey = new Map<string, Totals>();
  const totalsOf = (accountId: string, symbol: string): Totals => {
    const key = `${accountId}\u0000${symbol}`;
    let totals = totalsByKey.get(key);
    if (!totals) {
      totals = {
        accountId,
        symbol,
        knownBasisQuantity: ZERO,
        unknownBasisQuantity: ZERO,
        costBasisUsd: ZERO,
        realizedGainUsd: ZERO,
        realizedGainNeedsReview: false,
      };
      totalsByKey.set(key, totals);
    }
    return totals;
  };

  for (const lot of result.openLots) {
    const totals = totalsOf(lot.accountId, lot.symbol);
    if (lot.basisKnown) {
      totals.knownBasisQuantity = totals.knownBasisQuantity.plus(toExact(lot.quantity));
      totals.costBasisUsd = totals.costBasisUsd.plus(toExact(lot.costBasisUsd));
    } else {
      totals.unknownBasisQuantity = totals.unknownBasisQuantity.plus(toExact(lot.quantity));
    }
  }
  for (const disposal of result.disposals) {
    const totals = totalsOf(disposal.accountId, disposal.symbol);
    totals.realizedGainUsd = totals.realizedGainUsd.plus(toExact(disposal.gainUsd));
    if (!disposal.basisKnown) totals.realizedGainNeedsReview = true;
  }

  return [...totalsByKey.values()]
    .sort((a, b) => compareByteOrder(a.accountId, b.accountId) || compareByteOrder(a.symbol, b.symbol))
    .map((totals) => ({
      accountId: totals.accountId,
      symbol: totals.symbol,
      quantity: toCanonical(totals.knownBasisQuantity.plus(totals.unknownBasisQuantity)),
      knownBasisQuantity: toCanonical(totals.knownBasisQuantity),
      unknownBasisQuantity: toCanonical(totals.unknownBasisQuantity),
      costBasisUsd: toCanonical(totals.costBasisUsd),
      realizedGainUsd: toCanonical(totals.realizedGainUsd),
      realizedGainNeedsReview: totals.realizedGainNeedsReview,
    }));
}

/** Decimal text USD per unit, by symbol. */
export type PricesUsdBySymbol = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

/**
 * Values each position at the given prices. A position with no price keeps null market
 * value and unrealized gain (unless it is empty: an empty position is worth 0 at any price).
 */
export function valuePositions(
  summaries: readonly PositionSummary[],
  pricesUsdBySymbol: PricesUsdBySymbol,
): readonly ValuedPosition[] {
  return summaries.map((summary) => {
    const quantity = toExact(summary.quantity);
    const knownBasisQuantity = toExact(summary.knownBasisQuantity);
    const unrealizedGainNeedsReview = toExact(summary.unknownBasisQuantity).greaterThan(0);
    const priceText = priceOf(pricesUsdBySymbol, summary.symbol);
    const priceUsd = priceText === undefined ? null : parseDecimal(priceText);
    if (priceText !== undefined && (priceUsd === null || priceUsd.isNegative())) {
      throw new RangeError(`Price of ${summary.symbol} must be decimal text >= 0, got "${priceText}"`);
    }
    if (priceUsd === null) {
      const empty = quantity.isZero();
      return {
        ...summary,
        priceUsd: null,
        marketValueUsd: empty ? '0' : null,
        unrealizedGainUsd: empty ? '0' : null,
        unrealizedGainNeedsReview,
      };
    }
    return {
      ...summary,
      priceUsd: toCanonical(priceUsd),
      marketValueUsd: toCanonical(quantity.times(priceUsd)),
      unrealizedGainUsd: toCanonical(knownBasisQuantity.times(priceUsd).minus(toExact(summary.costBasisUsd))),
      unrealizedGainNeedsReview,
    };
  });
}

function priceOf(prices: PricesUsdBySymbol, symbol: string): string | undefined {
  if (prices instanceof Map) return prices.get(symbol);
  const record = prices as Readonly<Record<string, string>>;
  return Object.hasOwn(record, symbol) ? record[symbol] : undefined;
}
