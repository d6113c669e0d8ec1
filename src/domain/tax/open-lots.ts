/**
 * Open lots and tax-loss harvesting candidates (issue 19 items 3 and 4; docs/tax-report.md,
 * "Open lots" and "Harvesting candidates"). Pure: from the cost-basis engine's open lots, the
 * latest stored prices and the ledger, as of one instant.
 *
 * - A lot's figures are exact decimal text; the service rounds for display. Summed per
 *   (account, symbol), quantity and basis equal the balances' (the same engine and ledger).
 * - Unrealized gain is known-basis only: a lot of unknown basis has a market value and no gain,
 *   as in the balances.
 * - Term as of the instant: `long` when a sale on that UTC date would be long-term
 *   (holding-period.ts); `longTermFrom` is the first date a sale is long-term.
 * - A harvesting candidate is a known-basis lot with a price whose unrealized loss is at least
 *   `minLossUsd`. Wash-sale rules (IRC §1091) do not apply to crypto today; with
 *   `washSale: 'assume'` each candidate carries what they would disallow if they did: the loss ×
 *   min(1, replacement ÷ lot quantity), where the replacement is the quantity of the asset bought
 *   (buy entries, any selected account) in the 30 days before the instant, other than the lot's
 *   own purchase. Each lot is taken alone, so over several lots of one asset the figure is an
 *   upper bound; a repurchase in the 30 days after a sale would disallow too and cannot be known.
 */
import type { Decimal } from 'decimal.js';
import { allocateProRata } from '../money/exact-decimal.js';
import {
  holdingTerm,
  longTermFrom,
  type HoldingTerm,
  type LedgerEntry,
  type OpenLot,
} from '../cost-basis/index.js';
import { sumExact, toExact, ZERO } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';

export const WASH_SALE_WINDOW_DAYS = 30;

export interface LotPrice {
  readonly priceUsd: string;
  readonly asOf: Date;
}

export interface ValuedLot {
  /**
   * `<origin transaction id>`; when one account holds two lots from one origin (a transfer
   * round trip), the later ones get `#2`, `#3`… in arrival order (the engine's lot ids).
   */
  readonly lotId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly originTransactionId: string;
  readonly acquiredAt: Date;
  readonly quantity: string;
  /** '0' when basisKnown is false. */
  readonly costBasisUsd: string;
  readonly basisKnown: boolean;
  readonly priceUsd: string | null;
  readonly priceAsOf: Date | null;
  readonly marketValueUsd: string | null;
  /** null without a price or without a known basis. */
  readonly unrealizedGainUsd: string | null;
  readonly term: HoldingTerm;
  /** YYYY-MM-DD: the first UTC date a sale of the lot is long-term. */
  readonly longTermFrom: string;
}

/** The open lots of the selected accounts (and asset), valued as of `asOf`, in the engine's order. */
export function valueOpenLots(
  openLots: readonly OpenLot[],
  select: { readonly accountIds: ReadonlySet<string>; readonly asset?: string },
  prices: ReadonlyMap<string, LotPrice>,
  asOf: Date,
): ValuedLot[] {
  const seen = new Map<string, number>();
  const lots: ValuedLot[] = [];
  for (const lot of openLots) {
    if (!select.accountIds.has(lot.accountId)) continue;
    if (select.asset !== undefined && lot.symbol !== select.asset) continue;
    const key = `${lot.accountId}\u0000${lot.originTransactionId}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    const price = prices.get(lot.symbol) ?? null;
    const quantity = toExact(lot.quantity);
    const marketValue = price ? quantity.times(price.priceUsd) : null;
    lots.push({
      lotId: lot.lotId ?? (nth === 1 ? lot.originTransactionId : `${lot.originTransactionId}#${nth}`),
      accountId: lot.accountId,
      symbol: lot.symbol,
      originTransactionId: lot.originTransactionId,
      acquiredAt: lot.acquiredAt,
      quantity: lot.quantity,
      costBasisUsd: lot.costBasisUsd,
      basisKnown: lot.basisKnown,
      priceUsd: price ? canonicalDecimal(price.priceUsd) : null,
      priceAsOf: price ? price.asOf : null,
      marketValueUsd: marketValue ? canonicalDecimal(marketValue) : null,
      unrealizedGainUsd:
        marketValue && lot.basisKnown ? canonicalDecimal(marketValue.minus(lot.costBasisUsd)) : null,
      term: holdingTerm(lot.acquiredAt, asOf),
      longTermFrom: longTermFrom(lot.acquiredAt),
    });
  }
  return lots;
}

export interface LotTotals {
  readonly symbol: string;
  readonly lots: number;
  readonly quantity: string;
  /** Known-basis lots only. */
  readonly costBasisUsd: string;
  /** null when the asset has no price. */
  readonly marketValueUsd: string | null;
  /** Known-basis lots only; null without a price. */
  readonly unrealizedGainUsd: string | null;
  readonly unknownBasisQuantity: string;
}

/** Per symbol, in byte order: the sums of the lots' exact figures. */
export function totalLotsBySymbol(lots: readonly ValuedLot[]): LotTotals[] {
  // Grouped in place: copying a group per lot made 150,000 lots of one asset quadratic (issue 27 item 10).
  const bySymbol = new Map<string, ValuedLot[]>();
  for (const lot of lots) {
    const group = bySymbol.get(lot.symbol);
    if (group) group.push(lot);
    else bySymbol.set(lot.symbol, [lot]);
  }
  return [...bySymbol.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((symbol) => {
      const group = bySymbol.get(symbol) ?? [];
      const known = group.filter((lot) => lot.basisKnown);
      const priced = group[0]?.priceUsd !== null;
      return {
        symbol,
        lots: group.length,
        quantity: canonicalDecimal(sumExact(group.map((lot) => lot.quantity))),
        costBasisUsd: canonicalDecimal(sumExact(known.map((lot) => lot.costBasisUsd))),
        marketValueUsd: priced ? canonicalDecimal(sumExact(group.map((lot) => lot.marketValueUsd))) : null,
        unrealizedGainUsd: priced
          ? canonicalDecimal(sumExact(known.map((lot) => lot.unrealizedGainUsd)))
          : null,
        unknownBasisQuantity: canonicalDecimal(
          sumExact(group.filter((lot) => !lot.basisKnown).map((lot) => lot.quantity)),
        ),
      };
    });
}

export type WashSaleTreatment = 'ignore' | 'assume';

export interface HarvestingOptions {
  /** Candidates lose at least this much (USD, ≥ 0). */
  readonly minLossUsd: string;
  readonly washSale: WashSaleTreatment;
  readonly asOf: Date;
  /** The selected accounts' ledger entries (for the wash-sale window). */
  readonly entries: readonly LedgerEntry[];
}

export interface WashSaleExposure {
  /** The window's first instant: asOf − 30 days. */
  readonly windowFrom: Date;
  /** Quantity of the asset bought in the window, other than this lot's own purchase. */
  readonly replacementQuantity: string;
  /** What §1091 would disallow of this lot's loss, were it applied (≥ 0). */
  readonly disallowedLossUsd: string;
}

export interface HarvestingCandidate extends ValuedLot {
  /** The loss a sale at the price would realize now: −unrealizedGainUsd (> 0). */
  readonly lossUsd: string;
  /** null with washSale `ignore`. */
  readonly washSale: WashSaleExposure | null;
  /** lossUsd − washSale.disallowedLossUsd (lossUsd with `ignore`). */
  readonly allowableLossUsd: string;
}

export interface HarvestingSummary {
  readonly candidates: HarvestingCandidate[];
  readonly shortTermLossUsd: string;
  readonly longTermLossUsd: string;
  readonly allowableLossUsd: string;
  /** Lots left out because their basis is unknown (their loss cannot be known). */
  readonly unknownBasisLots: number;
  /** Lots left out because their asset has no stored price. */
  readonly unpricedLots: number;
}

/** Candidates in order of the largest loss first (ties: the engine's lot order). */
export function harvestingCandidates(
  lots: readonly ValuedLot[],
  options: HarvestingOptions,
): HarvestingSummary {
  const minLoss = toExact(options.minLossUsd);
  const windowFrom = new Date(options.asOf.getTime() - WASH_SALE_WINDOW_DAYS * 86_400_000);
  const recentBuys = recentPurchases(
    options.entries.filter(
      (entry) =>
        entry.direction === 'buy' && entry.timestamp >= windowFrom && entry.timestamp <= options.asOf,
    ),
  );
  const candidates: HarvestingCandidate[] = [];
  for (const lot of lots) {
    if (!lot.basisKnown || lot.unrealizedGainUsd === null) continue;
    const loss = toExact(lot.unrealizedGainUsd).negated();
    if (!loss.isPositive() || loss.isZero() || loss.lessThan(minLoss)) continue;
    const washSale = options.washSale === 'assume' ? exposure(lot, loss, recentBuys, windowFrom) : null;
    candidates.push({
      ...lot,
      lossUsd: canonicalDecimal(loss),
      washSale,
      allowableLossUsd: canonicalDecimal(washSale ? loss.minus(washSale.disallowedLossUsd) : loss),
    });
  }
  // Each loss parsed once, not per comparison (150,000 candidates: issue 27 item 10); the sort is stable.
  const lossOf = new Map(candidates.map((candidate) => [candidate, toExact(candidate.lossUsd)]));
  candidates.sort((a, b) => lossOf.get(b)!.comparedTo(lossOf.get(a)!));
  const termLoss = (term: HoldingTerm) =>
    canonicalDecimal(sumExact(candidates.filter((c) => c.term === term).map((c) => c.lossUsd)));
  return {
    candidates,
    shortTermLossUsd: termLoss('short'),
    longTermLossUsd: termLoss('long'),
    allowableLossUsd: canonicalDecimal(sumExact(candidates.map((c) => c.allowableLossUsd))),
    unknownBasisLots: lots.filter((lot) => !lot.basisKnown).length,
    unpricedLots: lots.filter((lot) => lot.basisKnown && lot.priceUsd === null).length,
  };
}

/** The window's purchases summed per asset, and per asset and transaction (a lot's own purchase). */
interface RecentPurchases {
  readonly bySymbol: ReadonlyMap<string, Decimal>;
  readonly byTransaction: ReadonlyMap<string, Decimal>;
}

const purchaseKey = (symbol: string, transactionId: string) => `${symbol}\u0000${transactionId}`;

/** Summed once: a scan of the window per candidate made many lots and many purchases quadratic. */
function recentPurchases(buys: readonly LedgerEntry[]): RecentPurchases {
  const bySymbol = new Map<string, Decimal>();
  const byTransaction = new Map<string, Decimal>();
  for (const buy of buys) {
    bySymbol.set(buy.symbol, (bySymbol.get(buy.symbol) ?? ZERO).plus(buy.amount));
    const key = purchaseKey(buy.symbol, buy.transactionId);
    byTransaction.set(key, (byTransaction.get(key) ?? ZERO).plus(buy.amount));
  }
  return { bySymbol, byTransaction };
}

function exposure(
  lot: ValuedLot,
  loss: Decimal,
  recentBuys: RecentPurchases,
  windowFrom: Date,
): WashSaleExposure {
  // Every purchase of the asset in the window other than the lot's own.
  const replacement = (recentBuys.bySymbol.get(lot.symbol) ?? ZERO).minus(
    recentBuys.byTransaction.get(purchaseKey(lot.symbol, lot.originTransactionId)) ?? ZERO,
  );
  const quantity = toExact(lot.quantity);
  // loss × replacement ÷ quantity, the engine's pro-rata rule (30 decimal places).
  const disallowed = replacement.greaterThanOrEqualTo(quantity)
    ? loss
    : replacement.isZero()
      ? ZERO
      : allocateProRata(loss, replacement, quantity);
  return {
    windowFrom,
    replacementQuantity: canonicalDecimal(replacement),
    disallowedLossUsd: canonicalDecimal(disallowed),
  };
}
