/**
 * Input and output shapes of the cost-basis engine. Every decimal crosses this boundary
 * as canonical decimal text (`Decimal#toFixed()`: no exponent, no trailing zeros) so a
 * value can never silently become a JS float; inside the engine everything is a Decimal.
 * The rules behind each field are in docs/cost-basis.md.
 */

export type Direction =
  'buy' | 'sell' | 'deposit' | 'withdrawal' | 'transfer_in' | 'transfer_out' | 'income' | 'fee';

/**
 * The lot-selection methods (docs/cost-basis.md, "Which lots a disposal consumes"): fifo, lifo,
 * hifo (highest basis), lofo (lowest basis) and ltfo (long-term lots at the disposal's date first,
 * highest basis first within each term). The advisor's standing orders map onto them.
 */
export type CostBasisMethod = 'fifo' | 'hifo' | 'lifo' | 'lofo' | 'ltfo';

export interface CostBasisOptions {
  /** The method of every lot taken, unless methodFor says otherwise. */
  readonly method: CostBasisMethod;
  /**
   * The method in force for the account at the moment of a disposal (a sale or fee), a removal
   * or a transfer_out; lots are taken in its order. Unset: `method` everywhere. Elections
   * (docs/cost-basis.md, "Method elections") are applied through this.
   */
  readonly methodFor?: (accountId: string, at: Date) => CostBasisMethod;
  /**
   * Write out only the disposals whose disposedAt falls in this UTC calendar year (a tax year's
   * report needs no other). The others still consume their lots and raise their issues exactly
   * as before: every lot, removal, income event, issue and the year's disposals are the same.
   * Unset: every disposal.
   */
  readonly disposalsInYear?: number;
  /**
   * Specific identification (docs/cost-basis.md, "Specific identification"): the lots a disposal
   * (a sale, fee, withdrawal or transfer_out) consumes, by lot id, in the order given, keyed by
   * lotSelectionKey(accountId, transactionId). A disposal without one uses the method in force; one
   * whose selection no longer fits the lots open at that moment also does, and raises a
   * `lot_selection_invalid` issue (never silently). A selection recorded after its disposal is a
   * late identification: not applied (the method in force takes the lots), raising `identified_late`.
   */
  readonly selections?: ReadonlyMap<string, LotSelection>;
  /**
   * A confirmed universal-to-per-wallet transition (docs/cost-basis.md, "Universal to per-wallet"):
   * just before the first entry at or after `at` (or after the last entry, when none is), each
   * (account, asset) position it names whose open quantity equals the allocated quantity starts
   * over from the allocated lots. A position whose quantity differs (the history changed after
   * the confirmation) keeps its own lots. Unset: no transition.
   */
  readonly transition?: BasisTransition;
  /**
   * The instant `openLots` is listed for: each position in the order a disposal at that instant
   * would take its lots (the method in force for the account then, LTFO's long-term lots as of
   * that date first). Unset: the last entry's time. GET /taip/lots passes the clock's now.
   */
  readonly openLotsAsOf?: Date;
}

/** One lot allocated to an account by the safe-harbor transition. */
export interface AllocatedLot {
  readonly accountId: string;
  readonly symbol: string;
  /** Decimal text > 0. */
  readonly quantity: string;
  /** Decimal text >= 0; '0' when basisKnown is false. */
  readonly costBasisUsd: string;
  readonly acquiredAt: Date;
  readonly basisKnown: boolean;
  /** The universal lot's origin transaction (SAFE_HARBOR_SHORTFALL_ORIGIN for a shortfall lot). */
  readonly originTransactionId: string;
}

export interface BasisTransition {
  /** The first instant of the per-wallet books: 2025-01-01T00:00:00Z. */
  readonly at: Date;
  /** Grouped by position, in the order each position opens them. */
  readonly lots: readonly AllocatedLot[];
}

/** One lot a selection consumes: its lot id (origin transaction id, `#n` for the n-th of one origin) and how much. */
export interface LotPick {
  readonly lotId: string;
  /** Decimal text > 0. */
  readonly quantity: string;
}

/**
 * A disposal's selection: its picks, in order, and when it was recorded. The time travels with the
 * picks (an array with one more property) so that every path that hands the tenant's selections to
 * the engine, whatever it declares, passes it on. Unset (hand-built fixtures): identified in time.
 */
export interface LotSelection extends ReadonlyArray<LotPick> {
  /** When the advisor recorded it; after the disposal's timestamp it is a late identification. */
  readonly recordedAt?: Date;
}

export interface LedgerEntry {
  readonly accountId: string;
  readonly transactionId: string;
  /** Upper-case ticker, e.g. 'BTC'. Lots are kept per (accountId, symbol). */
  readonly symbol: string;
  readonly direction: Direction;
  /** Decimal text, > 0: quantity of the asset. */
  readonly amount: string;
  /** Decimal text, >= 0: USD per unit at the time. */
  readonly priceUsd: string;
  /** Decimal text, >= 0: USD fee. Adds to basis on a buy, reduces proceeds on a sell; ignored otherwise. */
  readonly feeUsd?: string;
  readonly timestamp: Date;
  /** Links a transfer_out to the transfer_in on another of the tenant's own accounts. */
  readonly transferId?: string;
}

export type HoldingTerm = 'short' | 'long';

export interface OpenLot {
  readonly accountId: string;
  readonly symbol: string;
  readonly quantity: string;
  /** Basis of the remaining quantity; '0' when basisKnown is false (unknown, not zero). */
  readonly costBasisUsd: string;
  readonly acquiredAt: Date;
  readonly basisKnown: boolean;
  /** The buy/income/deposit/transfer_in that first opened this lot (kept across transfers). */
  readonly originTransactionId: string;
  /**
   * The lot id selections name: the origin transaction id, `<id>#2`, `#3`… for later lots of one
   * origin in one account (numbered in arrival order). Unset only in hand-built fixtures.
   */
  readonly lotId?: string;
}

/** One consumed lot piece of a taxable disposal: one Form 8949 line. */
export interface Disposal {
  readonly accountId: string;
  /** The sale (or `fee` entry) that disposed of the piece. */
  readonly transactionId: string;
  readonly direction: 'sell' | 'fee';
  readonly symbol: string;
  readonly quantity: string;
  /** null when the piece was not covered by any lot (insufficient holdings). */
  readonly acquiredAt: Date | null;
  readonly disposedAt: Date;
  readonly proceedsUsd: string;
  /** '0' when basisKnown is false: a placeholder that must be reviewed, never a real zero. */
  readonly costBasisUsd: string;
  readonly gainUsd: string;
  /** 'short' for uncovered pieces (holding period unknown; the row is flagged anyway). */
  readonly term: HoldingTerm;
  readonly basisKnown: boolean;
  /** The transaction that opened the consumed lot; null for an uncovered piece. */
  readonly lotOriginTransactionId: string | null;
  /**
   * The consumed lot was bought or received as income in the disposing account and never left it
   * (false for a lot that arrived by a transfer, a deposit, an uncovered piece): with an exchange
   * account and an acquisition from 2026, a covered digital asset (docs/tax-report.md, boxes G/J).
   */
  readonly acquiredInAccount: boolean;
  /**
   * The disposal has a lot selection recorded after it (a late identification, docs/cost-basis.md
   * "Specific identification"): the lots are the method's, not the selection's; flagged for review.
   */
  readonly identifiedLate: boolean;
}

export type RemovalReason = 'withdrawal' | 'unmatched_transfer_out' | 'transfer_shortfall';

/** Quantity that left the tenant's books without a taxable disposal. */
export interface Removal {
  readonly accountId: string;
  readonly transactionId: string;
  readonly symbol: string;
  readonly quantity: string;
  readonly costBasisUsd: string;
  readonly acquiredAt: Date;
  readonly removedAt: Date;
  readonly basisKnown: boolean;
  readonly lotOriginTransactionId: string;
  readonly reason: RemovalReason;
}

export interface IncomeEvent {
  readonly accountId: string;
  readonly symbol: string;
  readonly transactionId: string;
  readonly quantity: string;
  readonly valueUsd: string;
  readonly receivedAt: Date;
}

export type UnknownBasisReason =
  /** A `deposit`: a receipt from outside the tenant's known accounts. */
  | 'unmatched_deposit'
  /** A `transfer_in` without a transfer_out that it could be matched with. */
  | 'unmatched_transfer_in'
  /** A matched `transfer_in` received more than the lots moved by its transfer_out. */
  | 'transfer_in_exceeds_out'
  /** A sale or `fee` consumed a lot whose basis is unknown. */
  | 'disposed_unknown_basis_lot';

export interface InsufficientHoldingsIssue {
  readonly kind: 'insufficient_holdings';
  readonly accountId: string;
  readonly symbol: string;
  readonly transactionId: string;
  readonly missingQuantity: string;
}

export interface UnknownBasisIssue {
  readonly kind: 'unknown_basis';
  readonly accountId: string;
  readonly symbol: string;
  readonly transactionId: string;
  /** Quantity received with unknown basis, or disposed from unknown-basis lots. */
  readonly quantity: string;
  readonly reason: UnknownBasisReason;
}

export type LotSelectionInvalidReason =
  /** The lot is not open in the account at the moment of the disposal (never acquired, consumed, or acquired later). */
  | 'lot_not_open'
  /** The selection asks more of the lot than it holds at that moment. */
  | 'exceeds_lot'
  /** The picks do not add up to the disposal's amount. */
  | 'quantity_mismatch';

/** A stored selection that no longer fits the history: the disposal fell back to the method in force. */
export interface LotSelectionInvalidIssue {
  readonly kind: 'lot_selection_invalid';
  readonly accountId: string;
  readonly symbol: string;
  readonly transactionId: string;
  /** The lot at fault; null for a quantity mismatch. */
  readonly lotId: string | null;
  readonly reason: LotSelectionInvalidReason;
}

/**
 * A selection recorded after its disposal (Treas. Reg. §1.1012-1(j)(3): specific identification is
 * made no later than the date and time of the sale): not applied, the disposal took its lots by
 * the method in force. One per disposal.
 */
export interface IdentifiedLateIssue {
  readonly kind: 'identified_late';
  readonly accountId: string;
  readonly symbol: string;
  readonly transactionId: string;
  readonly recordedAt: Date;
  readonly disposedAt: Date;
}

export type CostBasisIssue =
  InsufficientHoldingsIssue | UnknownBasisIssue | LotSelectionInvalidIssue | IdentifiedLateIssue;

export interface CostBasisResult {
  readonly method: CostBasisMethod;
  /**
   * Grouped by (accountId, symbol) in byte order; within a group, in the order the method would
   * consume them at `openLotsAsOf` (default the last entry's time; with methodFor: the account's
   * method then; LTFO: long-term lots as of that date first).
   */
  readonly openLots: readonly OpenLot[];
  /** In processing order; within one transaction, in the order the lots were consumed. */
  readonly disposals: readonly Disposal[];
  readonly removals: readonly Removal[];
  readonly incomeEvents: readonly IncomeEvent[];
  readonly issues: readonly CostBasisIssue[];
}
