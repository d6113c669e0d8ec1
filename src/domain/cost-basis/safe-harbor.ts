/**
 * The universal-to-per-wallet transition (Rev. Proc. 2024-28 safe harbor; docs/cost-basis.md,
 * "Universal to per-wallet"). Before 2025 a taxpayer could track basis universally: one pool of
 * lots over all its wallets and accounts. From 2025-01-01 basis is tracked per wallet; the safe
 * harbor allocates the unused basis (the universal pool's lots open at the end of 2024-12-31) to
 * the wallets that hold the units on 2025-01-01, by a reasonable rule applied consistently.
 *
 * The pool is the engine over the entries before the transition with every account taken as one.
 * A transfer between two of the taxpayer's own accounts moves nothing within it (only its network
 * fee leaves, as a removal; withinThePool): it is neither a withdrawal nor a deposit of unknown
 * basis, so the pool keeps the lot's basis and acquisition date.
 *
 * The rule here (a global allocation), per asset: the pool's lots, **oldest first** (acquiredAt,
 * then lot id in byte order), fill the accounts in a **fixed account order**, each account
 * (the service passes the accounts in the order they were linked: createdOn, then id; accounts not
 * listed come after, in id byte order) receiving exactly the quantity it holds on 2025-01-01 (the per-account engine's open quantity).
 * A lot larger than an account's remaining need is split: the account takes the needed quantity
 * with basis pro rata (the engine's allocation, ALLOCATION_DECIMAL_PLACES, half-up) and the rest
 * of the lot keeps the remainder, so basis adds up exactly.
 *
 * - **Shortfall**: when the accounts hold more than the pool (the per-account history disposed
 *   of units it did not hold, or received units the pool had not), the accounts last in the order
 *   get an unknown-basis lot (origin SAFE_HARBOR_SHORTFALL_ORIGIN, acquired at the transition) for
 *   what the pool could not cover; reported per account and asset, and every sale of it is flagged
 *   by the engine (`disposed_unknown_basis_lot`).
 * - **Excess**: pool lots left when every account is filled are reported (quantity and basis) and
 *   allocated to no one.
 *
 * Pure: entries in, allocation out. The ledger's stored rows and the confirmation are the
 * accounts module's.
 */
import { computeCostBasis } from './cost-basis-engine.js';
import type {
  AllocatedLot,
  BasisTransition,
  CostBasisMethod,
  LedgerEntry,
  LotPick,
  OpenLot,
} from './cost-basis.types.js';
import { splitLotPiece, type LotPiece } from './lot-book.js';
import { compareByteOrder, sortForProcessing } from './processing-order.js';
import { isConversionTransferId, matchTransfers } from './transfer-matching.js';
import { parseScaled, SCALED_ZERO, sumScaled, type ScaledDecimal } from '../money/scaled-decimal.js';

/** 2025-01-01T00:00:00Z: the first instant of per-wallet basis tracking. */
export const SAFE_HARBOR_TRANSITION_AT = new Date('2025-01-01T00:00:00.000Z');

/** The origin of a shortfall lot: quantity an account holds that the universal pool did not cover. */
export const SAFE_HARBOR_SHORTFALL_ORIGIN = 'safe-harbor-shortfall';

/** The one account of the universal computation (a NUL-led id no stored account can have). */
const UNIVERSAL_ACCOUNT = '\u0000universal';

export interface SafeHarborInput {
  /** Every entry of the taxpayer's accounts (any dates; those on or after the transition are ignored). */
  readonly entries: readonly LedgerEntry[];
  /** The method the taxpayer used over the universal pool before 2025 (default FIFO). */
  readonly universalMethod: CostBasisMethod;
  /** The per-account engine's options (elections, selections): what the wallets hold on 2025-01-01. */
  readonly methodFor?: (accountId: string, at: Date) => CostBasisMethod;
  readonly selections?: ReadonlyMap<string, readonly LotPick[]>;
  /** The order accounts are filled in; unlisted accounts after, in id byte order. */
  readonly accountOrder?: readonly string[];
  /** Default SAFE_HARBOR_TRANSITION_AT. */
  readonly transitionAt?: Date;
}

export interface SafeHarborPosition {
  readonly accountId: string;
  readonly symbol: string;
  /** What the account holds on 2025-01-01 (the per-account engine). */
  readonly quantity: string;
  /** Of it, covered by the pool's lots. */
  readonly allocatedQuantity: string;
  /** Basis of the allocated lots with known basis. */
  readonly allocatedCostBasisUsd: string;
  /** Not covered by the pool (an unknown-basis lot); '0' when fully covered. */
  readonly shortfallQuantity: string;
  /** The lots the account starts 2025 with (a shortfall lot last). */
  readonly lots: readonly AllocatedLot[];
  /** The account's own per-account lots at the end of 2024 (what it would start 2025 with otherwise). */
  readonly perAccountLots: readonly OpenLot[];
  readonly perAccountCostBasisUsd: string;
  /** allocatedCostBasisUsd − perAccountCostBasisUsd. */
  readonly basisChangeUsd: string;
}

export interface SafeHarborAsset {
  readonly symbol: string;
  /** The universal pool's open lots at the end of 2024-12-31. */
  readonly poolQuantity: string;
  readonly poolCostBasisUsd: string;
  /** Pool quantity of unknown basis (included in poolQuantity). */
  readonly poolUnknownBasisQuantity: string;
  /** Σ of the accounts' holdings on 2025-01-01. */
  readonly holdingsQuantity: string;
  readonly allocatedQuantity: string;
  readonly allocatedCostBasisUsd: string;
  readonly shortfallQuantity: string;
  /** Pool lots left over when every account is filled: allocated to no one. */
  readonly excessQuantity: string;
  readonly excessCostBasisUsd: string;
  readonly excessLots: readonly Omit<AllocatedLot, 'accountId'>[];
  /** Σ of the per-account lots' basis (what the accounts would start 2025 with otherwise). */
  readonly perAccountCostBasisUsd: string;
}

export interface SafeHarborAllocation {
  readonly transitionAt: Date;
  readonly universalMethod: CostBasisMethod;
  /** By account (the fill order), then symbol in byte order; positions holding a positive quantity only. */
  readonly positions: readonly SafeHarborPosition[];
  /** By symbol in byte order. */
  readonly assets: readonly SafeHarborAsset[];
  /** The engine's input (CostBasisOptions.transition). */
  readonly transition: BasisTransition;
  /** The first sale, fee, withdrawal or transfer_out on or after the transition; null: none yet. */
  readonly firstDisposalAt: Date | null;
}

const DISPOSING = new Set(['sell', 'fee', 'withdrawal', 'transfer_out']);

interface PoolLot extends LotPiece {
  readonly lotId: string;
}

export function computeSafeHarborAllocation(input: SafeHarborInput): SafeHarborAllocation {
  const at = input.transitionAt ?? SAFE_HARBOR_TRANSITION_AT;
  const before = input.entries.filter((entry) => entry.timestamp.getTime() < at.getTime());
  const firstDisposalAt =
    input.entries
      .filter((e) => e.timestamp.getTime() >= at.getTime() && DISPOSING.has(e.direction))
      .map((e) => e.timestamp)
      .sort((a, b) => a.getTime() - b.getTime())[0] ?? null;

  const universal = computeCostBasis(
    withinThePool(before).map((entry) => ({ ...entry, accountId: UNIVERSAL_ACCOUNT })),
    { method: input.universalMethod },
  );
  const perAccount = computeCostBasis(before, {
    method: input.universalMethod,
    methodFor: input.methodFor,
    selections: input.selections,
  });

  const poolBySymbol = groupBy(universal.openLots, (lot) => lot.symbol);
  const ownByPosition = groupBy(perAccount.openLots, (lot) => `${lot.accountId}\u0000${lot.symbol}`);
  const symbols = [...new Set([...universal.openLots, ...perAccount.openLots].map((l) => l.symbol))].sort(
    compareByteOrder,
  );

  const ranks = new Map((input.accountOrder ?? []).map((id, index) => [id, index]));
  const rank = (accountId: string): number => ranks.get(accountId) ?? ranks.size;
  const positions: SafeHarborPosition[] = [];
  const assets: SafeHarborAsset[] = [];
  for (const symbol of symbols) {
    const pool: PoolLot[] = (poolBySymbol.get(symbol) ?? [])
      .map((lot) => ({
        quantity: scaled(lot.quantity),
        costBasisUsd: scaled(lot.costBasisUsd),
        acquiredAt: lot.acquiredAt,
        basisKnown: lot.basisKnown,
        originTransactionId: lot.originTransactionId,
        lotId: lot.lotId ?? lot.originTransactionId,
      }))
      .sort((a, b) => a.acquiredAt.getTime() - b.acquiredAt.getTime() || compareByteOrder(a.lotId, b.lotId));
    const holders = [...ownByPosition.values()]
      .filter((lots) => lots[0].symbol === symbol)
      .map((lots) => ({ accountId: lots[0].accountId, lots, quantity: sumOf(lots.map((l) => l.quantity)) }))
      .filter((holder) => holder.quantity.isPositive())
      .sort((a, b) => rank(a.accountId) - rank(b.accountId) || compareByteOrder(a.accountId, b.accountId));

    let poolIndex = 0;
    let current: PoolLot | null = pool[0] ?? null;
    const assetPositions: SafeHarborPosition[] = [];
    for (const holder of holders) {
      const lots: AllocatedLot[] = [];
      let needed = holder.quantity;
      while (needed.isPositive() && current !== null) {
        let piece: LotPiece;
        if (current.quantity.compare(needed) <= 0) {
          piece = current;
          current = pool[++poolIndex] ?? null;
        } else {
          const split: { taken: LotPiece; rest: PoolLot } = splitLotPiece<PoolLot>(current, needed);
          piece = split.taken;
          current = split.rest;
        }
        needed = needed.minus(piece.quantity);
        lots.push(allocated(holder.accountId, symbol, piece));
      }
      const shortfall = needed;
      if (shortfall.isPositive()) {
        lots.push({
          accountId: holder.accountId,
          symbol,
          quantity: shortfall.toCanonical(),
          costBasisUsd: '0',
          acquiredAt: new Date(at.getTime()),
          basisKnown: false,
          originTransactionId: SAFE_HARBOR_SHORTFALL_ORIGIN,
        });
      }
      const allocatedBasis = sumOf(lots.filter((l) => l.basisKnown).map((l) => l.costBasisUsd));
      const ownBasis = sumOf(holder.lots.filter((l) => l.basisKnown).map((l) => l.costBasisUsd));
      assetPositions.push({
        accountId: holder.accountId,
        symbol,
        quantity: holder.quantity.toCanonical(),
        allocatedQuantity: holder.quantity.minus(shortfall).toCanonical(),
        allocatedCostBasisUsd: allocatedBasis.toCanonical(),
        shortfallQuantity: shortfall.toCanonical(),
        lots,
        perAccountLots: holder.lots,
        perAccountCostBasisUsd: ownBasis.toCanonical(),
        basisChangeUsd: allocatedBasis.minus(ownBasis).toCanonical(),
      });
    }
    const excess = current === null ? [] : [current, ...pool.slice(poolIndex + 1)];
    const excessLots = excess.map((piece) => {
      const { accountId: _none, ...lot } = allocated('', symbol, piece);
      return lot;
    });
    positions.push(...assetPositions);
    assets.push({
      symbol,
      poolQuantity: sumScaled(pool.map((l) => l.quantity)).toCanonical(),
      poolCostBasisUsd: sumScaled(pool.map((l) => l.costBasisUsd)).toCanonical(),
      poolUnknownBasisQuantity: sumScaled(
        pool.filter((l) => !l.basisKnown).map((l) => l.quantity),
      ).toCanonical(),
      holdingsQuantity: sumOf(assetPositions.map((p) => p.quantity)).toCanonical(),
      allocatedQuantity: sumOf(assetPositions.map((p) => p.allocatedQuantity)).toCanonical(),
      allocatedCostBasisUsd: sumOf(assetPositions.map((p) => p.allocatedCostBasisUsd)).toCanonical(),
      shortfallQuantity: sumOf(assetPositions.map((p) => p.shortfallQuantity)).toCanonical(),
      excessQuantity: sumScaled(excess.map((l) => l.quantity)).toCanonical(),
      excessCostBasisUsd: sumScaled(excess.map((l) => l.costBasisUsd)).toCanonical(),
      excessLots,
      perAccountCostBasisUsd: sumOf(assetPositions.map((p) => p.perAccountCostBasisUsd)).toCanonical(),
    });
  }
  positions.sort(
    (a, b) =>
      rank(a.accountId) - rank(b.accountId) ||
      compareByteOrder(a.accountId, b.accountId) ||
      compareByteOrder(a.symbol, b.symbol),
  );
  return {
    transitionAt: new Date(at.getTime()),
    universalMethod: input.universalMethod,
    positions,
    assets,
    transition: { at: new Date(at.getTime()), lots: positions.flatMap((p) => p.lots) },
    firstDisposalAt: firstDisposalAt ? new Date(firstDisposalAt.getTime()) : null,
  };
}

/**
 * The entries as the universal pool sees them: a transfer between two of the taxpayer's own
 * accounts (a matched transfer_out / transfer_in pair, the engine's own matching over the same
 * entries) moves nothing within the pool, so both legs go. What the per-account engine does
 * beyond moving lots stays: an in smaller than its out (a network fee) removes the difference
 * without a taxable event, in the pool's method order, at the out (a `withdrawal` on the out's
 * transaction); an in larger than its out opens the excess with unknown basis at the in (a
 * `deposit` on the in's transaction). Unmatched legs are left as they are (a lone out is a
 * withdrawal, a lone in a deposit of unknown basis), as in the per-account books.
 */
function withinThePool(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const ordered = sortForProcessing(entries);
  const { inIndexByOutIndex, outIndexByInIndex } = matchTransfers(ordered);
  const pooled: LedgerEntry[] = [];
  ordered.forEach((entry, index) => {
    const otherIndex = inIndexByOutIndex.get(index) ?? outIndexByInIndex.get(index);
    // A conversion (a wrap) changes the symbol: the pool's lots must change it too.
    if (otherIndex === undefined || isConversionTransferId(entry.transferId)) {
      pooled.push(entry);
      return;
    }
    const difference = scaled(entry.amount).minus(scaled(ordered[otherIndex].amount));
    if (!difference.isPositive()) return;
    const { transferId: _pair, ...leg } = entry;
    pooled.push({
      ...leg,
      direction: entry.direction === 'transfer_out' ? 'withdrawal' : 'deposit',
      amount: difference.toCanonical(),
    });
  });
  return pooled;
}

function allocated(accountId: string, symbol: string, piece: LotPiece): AllocatedLot {
  return {
    accountId,
    symbol,
    quantity: piece.quantity.toCanonical(),
    costBasisUsd: piece.costBasisUsd.toCanonical(),
    acquiredAt: new Date(piece.acquiredAt.getTime()),
    basisKnown: piece.basisKnown,
    originTransactionId: piece.originTransactionId,
  };
}

function scaled(text: string): ScaledDecimal {
  return parseScaled(text) ?? SCALED_ZERO;
}

function sumOf(values: readonly string[]): ScaledDecimal {
  return sumScaled(values.map(scaled));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
