import type { CostBasisMethod } from './cost-basis.types.js';
import { ALLOCATION_DECIMAL_PLACES } from '../money/exact-decimal.js';
import { holdingTerm } from './holding-period.js';
import { compareByteOrder } from './processing-order.js';
import { allocateScaledProRata, SCALED_ZERO, type ScaledDecimal } from '../money/scaled-decimal.js';

/** A quantity of one asset with its basis and acquisition date, detached from any account. */
export interface LotPiece {
  readonly quantity: ScaledDecimal;
  /** ZERO when basisKnown is false. */
  readonly costBasisUsd: ScaledDecimal;
  readonly acquiredAt: Date;
  readonly basisKnown: boolean;
  readonly originTransactionId: string;
  /**
   * Bought or received as income in the account that holds it, and never moved since (a covered
   * digital asset when that account is an exchange's, from 2026: docs/tax-report.md, "Parts and
   * boxes"). False (or unset) for a deposit, a lot that arrived by a transfer, an allocated lot.
   */
  readonly acquiredInAccount?: boolean;
}

/** A piece held by one account; sequence is its arrival order in the book, the last tie-breaker. */
export interface Lot extends LotPiece {
  readonly accountId: string;
  readonly symbol: string;
  readonly sequence: number;
  /**
   * The book's estimate of costBasisUsd ÷ quantity (estimateUnitBasis), made when the lot is
   * opened or split, for HIFO and LOFO's comparisons; never reported. Unset on a lot built outside
   * the book: compareUnitBasis then estimates it on each call.
   */
  readonly unitEstimate?: number;
}

export interface TakeResult<T extends LotPiece> {
  /** The consumed pieces, in method order. */
  readonly taken: readonly LotPiece[];
  /** What is left, still in method order. */
  readonly remaining: readonly T[];
  /** The part of the requested quantity no piece covered; ZERO when fully covered. */
  readonly missingQuantity: ScaledDecimal;
}

/**
 * Splits `quantity` off a piece. Basis is allocated pro rata by quantity and the rest keeps
 * the remainder, so the two halves always add up to the original basis exactly.
 */
export function splitLotPiece<T extends LotPiece>(
  piece: T,
  quantity: ScaledDecimal,
): { taken: LotPiece; rest: T } {
  const takenBasis = allocateScaledProRata(
    piece.costBasisUsd,
    quantity,
    piece.quantity,
    ALLOCATION_DECIMAL_PLACES,
  );
  const rest: T = {
    ...piece,
    quantity: piece.quantity.minus(quantity),
    costBasisUsd: piece.costBasisUsd.minus(takenBasis),
  };
  // A book's lot carries its unit estimate: the rest's basis per unit can differ from the whole's
  // (in the last allocated place), so the copied estimate is replaced (the same field: same shape).
  const estimated = rest as { unitEstimate?: number };
  if (estimated.unitEstimate !== undefined) estimated.unitEstimate = estimateUnitBasis(rest);
  return { taken: { ...pieceFields(piece), quantity, costBasisUsd: takenBasis }, rest };
}

/** Consumes `quantity` from pieces already in method order, splitting the last one touched. */
export function takeInOrder<T extends LotPiece>(
  pieces: readonly T[],
  quantity: ScaledDecimal,
): TakeResult<T> {
  const remaining = [...pieces];
  const { taken, missingQuantity } = takeInPlace(remaining, quantity);
  return { taken, remaining, missingQuantity };
}

/**
 * takeInOrder without copying: removes the consumed pieces from `pieces` itself (one native
 * splice), leaving a split piece's rest in front. A position can hold tens of thousands of open
 * lots; copying them on every disposal made large histories quadratic.
 */
function takeInPlace<T extends LotPiece>(
  pieces: T[],
  quantity: ScaledDecimal,
): { taken: LotPiece[]; missingQuantity: ScaledDecimal; splitRest: boolean } {
  const taken: LotPiece[] = [];
  let needed = quantity;
  let index = 0;
  while (needed.isPositive() && index < pieces.length) {
    const piece = pieces[index];
    if (piece.quantity.compare(needed) <= 0) {
      taken.push(pieceFields(piece));
      needed = needed.minus(piece.quantity);
      index++;
    } else {
      const { taken: part, rest } = splitLotPiece(piece, needed);
      taken.push(part);
      pieces.splice(0, index + 1, rest);
      return { taken, missingQuantity: SCALED_ZERO, splitRest: true };
    }
  }
  pieces.splice(0, index);
  return { taken, missingQuantity: needed, splitRest: false };
}

/**
 * FIFO: oldest acquiredAt first. LIFO: newest acquiredAt first. HIFO: known basis before
 * unknown (an unknown basis is treated as the lowest), then highest basis per unit, then
 * oldest. LOFO: known basis before unknown (an unknown basis is taken last, as in HIFO), then
 * lowest basis per unit, then oldest. LTFO sorts as HIFO; the book takes its long-term lots
 * (at the disposal's date) first (LotBook.take). Remaining ties, the same for every method: the
 * origin transactionId in byte order, then arrival in the book.
 */
export function compareLotsForMethod(method: CostBasisMethod): (a: Lot, b: Lot) => number {
  const byAge = (a: Lot, b: Lot): number =>
    a.acquiredAt.getTime() - b.acquiredAt.getTime() ||
    compareByteOrder(a.originTransactionId, b.originTransactionId) ||
    a.sequence - b.sequence;
  if (method === 'fifo') return byAge;
  if (method === 'lifo') {
    return (a, b) =>
      b.acquiredAt.getTime() - a.acquiredAt.getTime() ||
      compareByteOrder(a.originTransactionId, b.originTransactionId) ||
      a.sequence - b.sequence;
  }
  if (method === 'lofo') {
    return (a, b) =>
      Number(b.basisKnown) - Number(a.basisKnown) ||
      // a.unit − b.unit
      compareUnitBasis(a, b) ||
      byAge(a, b);
  }
  return (a, b) =>
    Number(b.basisKnown) - Number(a.basisKnown) ||
    // b.unit − a.unit
    compareUnitBasis(b, a) ||
    byAge(a, b);
}

/** Estimates this far apart (relative) order their exact values the same way: they err by < 1e-15. */
const CLEARLY_APART = 1 + 1e-9;

/**
 * −1, 0 or 1 as a's basis per unit is less than, equal to or greater than b's, exactly (a.basis ×
 * b.qty vs b.basis × a.qty, no division). HIFO and LOFO compare lots on every insertion (tens of
 * thousands of times a history); most pairs differ clearly, so each lot's unit basis is first
 * estimated once as a double (unitEstimate), and only pairs whose estimates are not clearly apart
 * (ties, near-ties, estimates that could mislead) take the exact BigInt products.
 */
export function compareUnitBasis(a: LotPiece | Lot, b: LotPiece | Lot): number {
  // A field read, not a WeakMap lookup: HIFO compares lots ~20 times per insertion.
  const estimateA = (a as Lot).unitEstimate ?? estimateUnitBasis(a);
  const estimateB = (b as Lot).unitEstimate ?? estimateUnitBasis(b);
  // NaN (no trustworthy estimate) fails both tests.
  if (estimateA > estimateB * CLEARLY_APART) return 1;
  if (estimateB > estimateA * CLEARLY_APART) return -1;
  return a.costBasisUsd.times(b.quantity).compare(b.costBasisUsd.times(a.quantity));
}

/**
 * basis ÷ quantity as a double, within 1e-15 of the exact ratio: each step (BigInt to double,
 * division, an exact power of ten up to 10^22, product) rounds once to the nearest double. NaN
 * where that bound may not hold or the value is unusual (other powers of ten, infinities,
 * subnormal magnitudes, a zero or negative quantity, a negative basis): the exact comparison decides.
 */
function estimateUnitBasis(piece: LotPiece): number {
  const { costBasisUsd: basis, quantity } = piece;
  if (quantity.units <= 0n || basis.units < 0n) return Number.NaN;
  if (basis.units === 0n) return 0;
  const shift = quantity.scale - basis.scale;
  if (shift < -22 || shift > 22) return Number.NaN;
  const ratio = Number(basis.units) / Number(quantity.units);
  const estimate = shift >= 0 ? ratio * POWERS_OF_TEN[shift]! : ratio / POWERS_OF_TEN[-shift]!;
  return estimate > 1e-250 && estimate < 1e250 ? estimate : Number.NaN;
}

/** 10^0 … 10^22: exactly representable as doubles. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** The order a position is kept sorted in for a method (LTFO keeps HIFO's and partitions at take time). */
type SortOrder = Exclude<CostBasisMethod, 'ltfo'>;
const sortOrderOf = (method: CostBasisMethod): SortOrder => (method === 'ltfo' ? 'hifo' : method);

/** The lots (in HIFO order) as LTFO takes them at `at`: long-term lots first, each part keeping its order. */
function longTermFirst<T extends Lot>(lots: readonly T[], at: Date): T[] {
  const long: T[] = [];
  const short: T[] = [];
  for (const lot of lots) (holdingTerm(lot.acquiredAt, at) === 'long' ? long : short).push(lot);
  return long.length === 0 || short.length === 0 ? [...lots] : [...long, ...short];
}

type Position = { accountId: string; symbol: string; lots: Lot[]; method: SortOrder };

/**
 * The open lots of every (account, symbol), each position kept in the consumption order of the
 * method it was last taken from (the book's default until then). Taking with another method
 * re-sorts that position once; a history whose method never changes never re-sorts.
 */
export class LotBook {
  private readonly positions: Position[] = [];
  private readonly positionsByAccount = new Map<string, Map<string, Position>>();
  private readonly comparators = new Map<SortOrder, (a: Lot, b: Lot) => number>();
  private nextSequence = 0;

  constructor(private readonly defaultMethod: CostBasisMethod) {}

  /** The open quantity of one position. */
  quantityOf(accountId: string, symbol: string): ScaledDecimal {
    let total = SCALED_ZERO;
    for (const lot of this.position(accountId, symbol).lots) total = total.plus(lot.quantity);
    return total;
  }

  /** Replaces every lot of one position with `pieces` (opened in the order given). */
  replacePosition(accountId: string, symbol: string, pieces: readonly LotPiece[]): void {
    this.position(accountId, symbol).lots.length = 0;
    for (const piece of pieces) this.open(accountId, symbol, piece);
  }

  open(accountId: string, symbol: string, piece: LotPiece): void {
    const position = this.position(accountId, symbol);
    const byUnitBasis = position.method === 'hifo' || position.method === 'lofo';
    // One literal with every field (no spread): a spread's copy keeps the piece's fields in the
    // object and puts the lot's in a separate property array, an allocation more per lot.
    const lot: Lot = {
      quantity: piece.quantity,
      costBasisUsd: piece.costBasisUsd,
      acquiredAt: piece.acquiredAt,
      basisKnown: piece.basisKnown,
      originTransactionId: piece.originTransactionId,
      acquiredInAccount: piece.acquiredInAccount === true,
      accountId,
      symbol,
      sequence: this.nextSequence++,
      // Only where the position is ordered by it (a position re-sorted to HIFO later estimates per comparison).
      unitEstimate: byUnitBasis ? estimateUnitBasis(piece) : undefined,
    };
    position.lots.splice(this.insertionIndex(position, lot), 0, lot);
  }

  /**
   * Removes `quantity` from the position in `method` order (LTFO: long-term at `at` first);
   * reports what no lot covered.
   */
  take(
    accountId: string,
    symbol: string,
    quantity: ScaledDecimal,
    method: CostBasisMethod = this.defaultMethod,
    at?: Date,
  ): Omit<TakeResult<Lot>, 'remaining'> {
    const position = this.position(accountId, symbol);
    this.reorder(position, method);
    if (method === 'ltfo' && at !== undefined) {
      const ordered = longTermFirst(position.lots, at);
      const { taken, missingQuantity } = takeInPlace(ordered, quantity);
      // Back to the position's (HIFO) order: two sorted runs, so the sort is linear.
      position.lots = ordered.sort(this.comparator(position.method));
      return { taken, missingQuantity };
    }
    const lots = position.lots;
    const { taken, missingQuantity, splitRest } = takeInPlace(lots, quantity);
    if (splitRest) {
      // A split lot's basis per unit can move in the last allocated decimal place; re-place it
      // so HIFO order always reflects the basis the lot now carries.
      const first = lots.shift()!;
      lots.splice(this.insertionIndex(position, first), 0, first);
    }
    return { taken, missingQuantity };
  }

  /**
   * Specific identification: consumes exactly `picks` (lot id, quantity), in the order given, or
   * nothing at all when one does not fit (the lot is not open, or holds less than asked for in
   * total). Lot ids: lotIdsOf.
   */
  takeSelected(
    accountId: string,
    symbol: string,
    picks: readonly { lotId: string; quantity: ScaledDecimal }[],
  ): { taken: LotPiece[] } | { invalid: { lotId: string; reason: 'lot_not_open' | 'exceeds_lot' } } {
    const position = this.position(accountId, symbol);
    const byId = lotIdsOf(position.lots);
    const asked = new Map<string, ScaledDecimal>();
    for (const pick of picks) {
      const lot = byId.get(pick.lotId);
      if (!lot) return { invalid: { lotId: pick.lotId, reason: 'lot_not_open' } };
      const total = (asked.get(pick.lotId) ?? SCALED_ZERO).plus(pick.quantity);
      if (total.compare(lot.quantity) > 0) return { invalid: { lotId: pick.lotId, reason: 'exceeds_lot' } };
      asked.set(pick.lotId, total);
    }
    const taken: LotPiece[] = [];
    const current = new Map(byId);
    for (const pick of picks) {
      const lot = current.get(pick.lotId)!;
      const index = position.lots.indexOf(lot);
      if (pick.quantity.compare(lot.quantity) === 0) {
        taken.push(pieceFields(lot));
        position.lots.splice(index, 1);
        current.delete(pick.lotId);
      } else {
        const { taken: part, rest } = splitLotPiece(lot, pick.quantity);
        taken.push(part);
        position.lots.splice(index, 1);
        position.lots.splice(this.insertionIndex(position, rest), 0, rest);
        current.set(pick.lotId, rest);
      }
    }
    return { taken };
  }

  /**
   * Positions in (accountId, symbol) byte order, lots in the consumption order of
   * `methodOf(accountId)` (default: the book's method; LTFO: long-term at `at` first).
   */
  openLots(
    methodOf: (accountId: string) => CostBasisMethod = () => this.defaultMethod,
    at: Date = new Date(0),
  ): Lot[] {
    return [...this.positions]
      .sort((a, b) => compareByteOrder(a.accountId, b.accountId) || compareByteOrder(a.symbol, b.symbol))
      .flatMap((position) => {
        const method = methodOf(position.accountId);
        this.reorder(position, method);
        return method === 'ltfo' ? longTermFirst(position.lots, at) : position.lots;
      });
  }

  private reorder(position: Position, method: CostBasisMethod): void {
    const order = sortOrderOf(method);
    if (position.method === order) return;
    position.method = order;
    position.lots.sort(this.comparator(order));
  }

  private comparator(method: SortOrder): (a: Lot, b: Lot) => number {
    let compare = this.comparators.get(method);
    if (!compare) {
      compare = compareLotsForMethod(method);
      this.comparators.set(method, compare);
    }
    return compare;
  }

  private position(accountId: string, symbol: string): Position {
    // Two levels of maps: no key string built per call (this runs once per ledger entry).
    let bySymbol = this.positionsByAccount.get(accountId);
    if (!bySymbol) {
      bySymbol = new Map();
      this.positionsByAccount.set(accountId, bySymbol);
    }
    let position = bySymbol.get(symbol);
    if (!position) {
      position = { accountId, symbol, lots: [], method: sortOrderOf(this.defaultMethod) };
      bySymbol.set(symbol, position);
      this.positions.push(position);
    }
    return position;
  }

  /** First index whose lot sorts after the new one (lots is sorted; new lots lose ties by sequence). */
  private insertionIndex(position: Position, lot: Lot): number {
    const compare = this.comparator(position.method);
    const lots = position.lots;
    let low = 0;
    let high = lots.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(lots[middle], lot) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The lot ids of one position's lots: the origin transaction id, `<id>#2`, `#3`… for later lots of
 * one origin (a transfer round trip), numbered in arrival order (so the same under every method).
 */
export function lotIdsOf<T extends Lot>(lots: readonly T[]): Map<string, T> {
  const seen = new Map<string, number>();
  const byId = new Map<string, T>();
  for (const lot of [...lots].sort((a, b) => a.sequence - b.sequence)) {
    const nth = (seen.get(lot.originTransactionId) ?? 0) + 1;
    seen.set(lot.originTransactionId, nth);
    byId.set(nth === 1 ? lot.originTransactionId : `${lot.originTransactionId}#${nth}`, lot);
  }
  return byId;
}

/** A LotPiece's fields alone. LotBook.open writes the same fields out in its lot literal: a new one goes in both. */
function pieceFields(piece: LotPiece): LotPiece {
  return {
    quantity: piece.quantity,
    costBasisUsd: piece.costBasisUsd,
    acquiredAt: piece.acquiredAt,
    basisKnown: piece.basisKnown,
    originTransactionId: piece.originTransactionId,
    acquiredInAccount: piece.acquiredInAccount === true,
  };
}
