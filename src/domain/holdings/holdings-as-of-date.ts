/**
 * An account's holdings at the end of a UTC day (design §8 /qscore/evaluate): its own entries and
 * those of transfer-linked accounts through the cost-basis engine up to that evening (the
 * quantities the balances would have shown then), valued at that day's prices and weighed by
 * value. Pure: the qscore module reads the ledger, prices and score data and says what is wrong.
 */
import type { Decimal } from 'decimal.js';
import { computeCostBasis, DEFAULT_COST_BASIS_METHOD, type LedgerEntry } from '../cost-basis/index.js';
import { ExactDecimal, share, sumExact, ZERO } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';

const DAY_MS = 86_400_000;

export interface Holding {
  readonly symbol: string;
  /** Canonical decimal text. */
  readonly quantity: string;
}

/** Why a holding is left out of a valuation. The values are the API's `excluded[].reason`. */
export enum HoldingExclusionReason {
  NoPrice = 'no_price',
  NoScoreData = 'no_score_data',
}

export interface ExcludedHolding extends Holding {
  readonly reason: HoldingExclusionReason;
}

export interface ValuedHolding extends Holding {
  readonly valueUsd: Decimal;
}

export interface WeighedHolding extends ValuedHolding {
  /** Share of the valued total, a fraction. */
  readonly weight: Decimal;
}

export interface HoldingsValuation {
  /** In symbol order. */
  readonly valued: readonly ValuedHolding[];
  readonly excluded: readonly ExcludedHolding[];
  readonly totalUsd: Decimal;
}

/** The UTC date of the account's first own entry; null when it has none. */
export function historyStartDate(entries: readonly LedgerEntry[], accountId: string): string | null {
  let first = Infinity;
  for (const entry of entries) {
    if (entry.accountId === accountId) first = Math.min(first, entry.timestamp.getTime());
  }
  return first === Infinity ? null : new Date(first).toISOString().slice(0, 10);
}

/**
 * The account's open quantities "as of" `asOfDate` (YYYY-MM-DD), i.e. after everything
 * timestamped on that UTC day, in symbol order.
 *
 * The default method is used on purpose, not the tenant's elections, lot selections or
 * safe-harbor allocation: a method decides which lots a disposal takes, never how much, so open
 * quantities are the same under every method, election and valid selection (property-tested in
 * cost-basis.properties.spec.ts, "leaves the open quantity of every position the same…"), and the
 * safe-harbor transition only applies to a position holding exactly the allocated quantity.
 * Only quantities leave this function; no basis does.
 */
export function holdingsAsOfDate(
  entries: readonly LedgerEntry[],
  accountId: string,
  asOfDate: string,
): Holding[] {
  const endOfDay = Date.parse(`${asOfDate}T00:00:00Z`) + DAY_MS;
  const result = computeCostBasis(
    entries.filter((entry) => entry.timestamp.getTime() < endOfDay),
    { method: DEFAULT_COST_BASIS_METHOD },
  );
  const quantities = new Map<string, Decimal>();
  for (const lot of result.openLots) {
    if (lot.accountId !== accountId) continue;
    quantities.set(lot.symbol, (quantities.get(lot.symbol) ?? ZERO).plus(lot.quantity));
  }
  return [...quantities.keys()].sort().map((symbol) => ({
    symbol,
    quantity: canonicalDecimal(quantities.get(symbol)!),
  }));
}

/** quantity × price of every holding with a price and score data; the others are excluded, saying why. */
export function valueHoldings(
  holdings: readonly Holding[],
  pricesUsd: ReadonlyMap<string, string>,
  scorable: ReadonlySet<string>,
): HoldingsValuation {
  const excluded: ExcludedHolding[] = [];
  const valued: ValuedHolding[] = [];
  for (const { symbol, quantity } of holdings) {
    const price = pricesUsd.get(symbol);
    if (price === undefined) excluded.push({ symbol, quantity, reason: HoldingExclusionReason.NoPrice });
    else if (!scorable.has(symbol))
      excluded.push({ symbol, quantity, reason: HoldingExclusionReason.NoScoreData });
    else valued.push({ symbol, quantity, valueUsd: new ExactDecimal(quantity).times(price) });
  }
  return { valued, excluded, totalUsd: sumExact(valued.map((holding) => holding.valueUsd)) };
}

/** Each holding's share of the total (60 significant digits), largest value first, then by symbol. */
export function weighHoldings(valuation: HoldingsValuation): WeighedHolding[] {
  return valuation.valued
    .map((holding) => ({ ...holding, weight: share(holding.valueUsd, valuation.totalUsd) }))
    .sort((a, b) => b.valueUsd.comparedTo(a.valueUsd) || a.symbol.localeCompare(b.symbol));
}

/** BTC's share of the weighed holdings, a fraction (0 without BTC). */
export function btcWeight(holdings: readonly WeighedHolding[]): Decimal {
  return holdings.find((holding) => holding.symbol === 'BTC')?.weight ?? ZERO;
}
