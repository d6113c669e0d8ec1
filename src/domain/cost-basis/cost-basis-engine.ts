/**
 * The cost-basis engine: the one place where lots, disposals, gains and income are made,
 * for account balances and for the tax gains report / Form 8949 alike, so the two can
 * never disagree. Pure: plain readonly entries in, plain result out; no framework, no I/O,
 * no clock. Exact decimals throughout (scaled integers, scaled-decimal.ts); nothing is rounded to cents here (that happens at
 * the API edge). The rules are specified in docs/cost-basis.md; change them there first.
 */
import { InvalidLedgerEntryError } from './cost-basis.errors.js';
import { DIRECTIONS, isDirection } from './directions.js';
import type {
  BasisTransition,
  CostBasisIssue,
  CostBasisMethod,
  CostBasisOptions,
  CostBasisResult,
  Disposal,
  LotSelection,
  LotSelectionInvalidReason,
  IncomeEvent,
  LedgerEntry,
  OpenLot,
  Removal,
  RemovalReason,
  UnknownBasisReason,
} from './cost-basis.types.js';
import { ALLOCATION_DECIMAL_PLACES } from '../money/exact-decimal.js';
import { keepDisposalAmounts } from './disposal-amounts.js';
import { holdingTerm } from './holding-period.js';
import { LotBook, lotIdsOf, takeInOrder, type Lot, type LotPiece } from './lot-book.js';
import { compareForProcessing } from './processing-order.js';
import {
  allocateScaledProRata,
  parseScaled,
  SCALED_ZERO,
  type ScaledDecimal,
  sumScaled,
} from '../money/scaled-decimal.js';
import { isConversionTransferId, matchTransfers, type TransferMatches } from './transfer-matching.js';

const toCanonical = (value: ScaledDecimal): string => value.toCanonical();

/** Applies `entries` (any order, any number of the tenant's accounts) and returns lots, disposals, income and issues. */
export function computeCostBasis(
  entries: readonly LedgerEntry[],
  options: CostBasisOptions,
): CostBasisResult {
  // Every entry is validated before any is applied: an invalid ledger gives an error, never a partial result.
  const parsed = entries.map(parseLedgerEntry).sort((a, b) => compareForProcessing(a.entry, b.entry));
  return new CostBasisEngine(
    options.method,
    parsed,
    options.disposalsInYear,
    options.methodFor,
    options.selections,
    options.transition,
    options.openLotsAsOf,
  ).run();
}

/** The key of a disposal in CostBasisOptions.selections. */
export function lotSelectionKey(accountId: string, transactionId: string): string {
  return `${accountId}\u0000${transactionId}`;
}

/** A validated entry with its decimals parsed once. */
interface ParsedEntry {
  readonly entry: LedgerEntry;
  readonly amount: ScaledDecimal;
  readonly priceUsd: ScaledDecimal;
  readonly feeUsd: ScaledDecimal;
}

function parseLedgerEntry(entry: LedgerEntry): ParsedEntry {
  const invalid = (field: string, reason: string) =>
    new InvalidLedgerEntryError(String(entry.accountId), String(entry.transactionId), field, reason);
  if (typeof entry.accountId !== 'string' || entry.accountId === '')
    throw invalid('accountId', 'must be non-empty');
  if (typeof entry.transactionId !== 'string' || entry.transactionId === '') {
    throw invalid('transactionId', 'must be non-empty');
  }
  if (
    typeof entry.symbol !== 'string' ||
    entry.symbol === '' ||
    entry.symbol !== entry.symbol.toUpperCase()
  ) {
    throw invalid('symbol', 'must be a non-empty upper-case ticker');
  }
  if (!isDirection(entry.direction)) throw invalid('direction', `is not one of ${DIRECTIONS.join(', ')}`);
  if (!(entry.timestamp instanceof Date) || Number.isNaN(entry.timestamp.getTime())) {
    throw invalid('timestamp', 'must be a valid Date');
  }
  const amount = parseScaled(entry.amount);
  if (amount === null || !amount.isPositive()) throw invalid('amount', 'must be decimal text > 0');
  const priceUsd = parseScaled(entry.priceUsd);
  if (priceUsd === null || priceUsd.isNegative()) throw invalid('priceUsd', 'must be decimal text >= 0');
  const feeUsd = entry.feeUsd === undefined ? SCALED_ZERO : parseScaled(entry.feeUsd);
  if (feeUsd === null || feeUsd.isNegative()) throw invalid('feeUsd', 'must be decimal text >= 0');
  return { entry, amount, priceUsd, feeUsd };
}

/** Applies processing-ordered entries one at a time; owns the lot book and everything recorded so far. */
class CostBasisEngine {
  private readonly lotBook: LotBook;
  private readonly disposals: Disposal[] = [];
  private readonly removals: Removal[] = [];
  private readonly incomeEvents: IncomeEvent[] = [];
  private readonly issues: CostBasisIssue[] = [];
  /** Lots moved by a transfer_out, waiting for their transfer_in (keyed by its index). */
  private readonly lotsInTransitByInIndex = new Map<number, readonly LotPiece[]>();

  private readonly transfers: TransferMatches;

  constructor(
    private readonly method: CostBasisMethod,
    private readonly entriesInProcessingOrder: readonly ParsedEntry[],
    private readonly disposalsInYear?: number,
    private readonly methodFor?: (accountId: string, at: Date) => CostBasisMethod,
    private readonly selections?: ReadonlyMap<string, LotSelection>,
    private readonly transition?: BasisTransition,
    private readonly openLotsAsOf?: Date,
  ) {
    this.lotBook = new LotBook(method);
    this.transfers = matchTransfers(entriesInProcessingOrder.map((parsed) => parsed.entry));
  }

  run(): CostBasisResult {
    const transitionAt = this.transition?.at.getTime();
    let transitioned = transitionAt === undefined;
    this.entriesInProcessingOrder.forEach((parsed, index) => {
      if (!transitioned && parsed.entry.timestamp.getTime() >= transitionAt!) {
        this.applyTransition();
        transitioned = true;
      }
      this.apply(parsed, index);
    });
    if (!transitioned) this.applyTransition();
    return this.result();
  }

  /**
   * The safe-harbor transition (docs/cost-basis.md, "Universal to per-wallet"): every position the
   * allocation names starts over from its allocated lots, if it holds exactly the allocated
   * quantity (else the history changed since the confirmation and the position keeps its lots).
   */
  private applyTransition(): void {
    const byPosition = new Map<string, { accountId: string; symbol: string; pieces: LotPiece[] }>();
    for (const lot of this.transition?.lots ?? []) {
      const key = lotSelectionKey(lot.accountId, lot.symbol);
      let group = byPosition.get(key);
      if (!group) {
        group = { accountId: lot.accountId, symbol: lot.symbol, pieces: [] };
        byPosition.set(key, group);
      }
      group.pieces.push({
        quantity: parseScaled(lot.quantity) ?? SCALED_ZERO,
        costBasisUsd: parseScaled(lot.costBasisUsd) ?? SCALED_ZERO,
        acquiredAt: new Date(lot.acquiredAt.getTime()),
        basisKnown: lot.basisKnown,
        originTransactionId: lot.originTransactionId,
      });
    }
    for (const { accountId, symbol, pieces } of byPosition.values()) {
      const allocated = sumScaled(pieces.map((piece) => piece.quantity));
      if (this.lotBook.quantityOf(accountId, symbol).compare(allocated) !== 0) continue;
      this.lotBook.replacePosition(accountId, symbol, pieces);
    }
  }

  private apply(parsed: ParsedEntry, index: number): void {
    const { entry, amount, priceUsd, feeUsd } = parsed;
    switch (entry.direction) {
      case 'buy':
        return this.openKnownBasisLot(entry, amount, amount.times(priceUsd).plus(feeUsd));
      case 'income':
        return this.receiveIncome(entry, amount, amount.times(priceUsd));
      case 'deposit':
        return this.openUnknownBasisLot(entry, amount, 'unmatched_deposit');
      case 'sell':
        return this.disposeTaxably(entry, amount, amount.times(priceUsd).minus(feeUsd), 'sell');
      case 'fee':
        // Spending the asset itself on a fee is a disposal at market value; there is no second fee.
        return this.disposeTaxably(entry, amount, amount.times(priceUsd), 'fee');
      case 'withdrawal':
        return this.removeNonTaxably(entry, amount, 'withdrawal');
      case 'transfer_out': {
        const inIndex = this.transfers.inIndexByOutIndex.get(index);
        if (inIndex === undefined) return this.removeNonTaxably(entry, amount, 'unmatched_transfer_out');
        return this.sendTransfer(entry, amount, inIndex);
      }
      case 'transfer_in':
        if (!this.transfers.outIndexByInIndex.has(index)) {
          return this.openUnknownBasisLot(entry, amount, 'unmatched_transfer_in');
        }
        return this.receiveTransfer(entry, amount, index);
      default:
        return assertNever(entry.direction);
    }
  }

  private result(): CostBasisResult {
    // The order a disposal at that instant would take the lots in (LTFO's terms as of that date).
    const listedAt = this.openLotsAsOf ?? this.lastEntryAt();
    const lots = this.lotBook.openLots((accountId) => this.methodAt(accountId, listedAt), listedAt);
    const idOf = new Map<Lot, string>();
    const byPosition = new Map<string, Lot[]>();
    for (const lot of lots) {
      const key = `${lot.accountId}\u0000${lot.symbol}`;
      const group = byPosition.get(key) ?? [];
      group.push(lot);
      byPosition.set(key, group);
    }
    for (const group of byPosition.values()) for (const [id, lot] of lotIdsOf(group)) idOf.set(lot, id);
    return {
      method: this.method,
      openLots: lots.map((lot): OpenLot => ({
        accountId: lot.accountId,
        symbol: lot.symbol,
        quantity: toCanonical(lot.quantity),
        costBasisUsd: toCanonical(lot.costBasisUsd),
        acquiredAt: new Date(lot.acquiredAt.getTime()),
        basisKnown: lot.basisKnown,
        originTransactionId: lot.originTransactionId,
        lotId: idOf.get(lot),
      })),
      disposals: [...this.disposals],
      removals: [...this.removals],
      incomeEvents: [...this.incomeEvents],
      issues: [...this.issues],
    };
  }

  /** The method that takes lots from `accountId` at `at`. */
  private methodAt(accountId: string, at: Date): CostBasisMethod {
    return this.methodFor ? this.methodFor(accountId, at) : this.method;
  }

  private lastEntryAt(): Date {
    const last = this.entriesInProcessingOrder.at(-1);
    return last ? last.entry.timestamp : new Date(0);
  }

  /**
   * Takes `quantity` of the entry's asset from its account: the lots its selection names when it
   * has one that fits, otherwise in the method in force at the entry (an unfitting selection is
   * reported as a `lot_selection_invalid` issue, never dropped silently). A selection recorded after
   * the entry is a late identification: never applied, reported as `identified_late`.
   */
  private takeLots(entry: LedgerEntry, quantity: ScaledDecimal) {
    const selection = this.selections?.get(lotSelectionKey(entry.accountId, entry.transactionId));
    const late =
      selection?.recordedAt !== undefined && selection.recordedAt.getTime() > entry.timestamp.getTime();
    if (late) {
      this.issues.push({
        kind: 'identified_late',
        accountId: entry.accountId,
        symbol: entry.symbol,
        transactionId: entry.transactionId,
        recordedAt: new Date(selection.recordedAt!.getTime()),
        disposedAt: new Date(entry.timestamp.getTime()),
      });
    } else if (selection !== undefined) {
      const picks = selection.map((pick) => ({ lotId: pick.lotId, quantity: parseScaled(pick.quantity) }));
      const total = sumScaled(picks.map((pick) => pick.quantity ?? SCALED_ZERO));
      const malformed = picks.find((pick) => pick.quantity === null || !pick.quantity.isPositive());
      if (malformed) {
        this.flagInvalidSelection(entry, malformed.lotId, 'exceeds_lot');
      } else if (total.compare(quantity) !== 0) {
        this.flagInvalidSelection(entry, null, 'quantity_mismatch');
      } else {
        const outcome = this.lotBook.takeSelected(
          entry.accountId,
          entry.symbol,
          picks as { lotId: string; quantity: ScaledDecimal }[],
        );
        if ('taken' in outcome) {
          return { taken: outcome.taken, missingQuantity: SCALED_ZERO, identifiedLate: false };
        }
        this.flagInvalidSelection(entry, outcome.invalid.lotId, outcome.invalid.reason);
      }
    }
    const method = this.methodAt(entry.accountId, entry.timestamp);
    return {
      ...this.lotBook.take(entry.accountId, entry.symbol, quantity, method, entry.timestamp),
      identifiedLate: late,
    };
  }

  private flagInvalidSelection(
    entry: LedgerEntry,
    lotId: string | null,
    reason: LotSelectionInvalidReason,
  ): void {
    this.issues.push({
      kind: 'lot_selection_invalid',
      accountId: entry.accountId,
      symbol: entry.symbol,
      transactionId: entry.transactionId,
      lotId,
      reason,
    });
  }

  /** A buy or income: acquired in this very account. */
  private openKnownBasisLot(entry: LedgerEntry, quantity: ScaledDecimal, costBasisUsd: ScaledDecimal): void {
    this.lotBook.open(entry.accountId, entry.symbol, {
      quantity,
      costBasisUsd,
      acquiredAt: entry.timestamp,
      basisKnown: true,
      originTransactionId: entry.transactionId,
      acquiredInAccount: true,
    });
  }

  private receiveIncome(entry: LedgerEntry, quantity: ScaledDecimal, valueUsd: ScaledDecimal): void {
    this.openKnownBasisLot(entry, quantity, valueUsd);
    this.incomeEvents.push({
      accountId: entry.accountId,
      symbol: entry.symbol,
      transactionId: entry.transactionId,
      quantity: toCanonical(quantity),
      valueUsd: toCanonical(valueUsd),
      receivedAt: new Date(entry.timestamp.getTime()),
    });
  }

  private openUnknownBasisLot(entry: LedgerEntry, quantity: ScaledDecimal, reason: UnknownBasisReason): void {
    this.lotBook.open(entry.accountId, entry.symbol, {
      quantity,
      costBasisUsd: SCALED_ZERO,
      acquiredAt: entry.timestamp,
      basisKnown: false,
      originTransactionId: entry.transactionId,
      acquiredInAccount: false,
    });
    this.flagUnknownBasis(entry, quantity, reason);
  }

  /**
   * A sale or an asset-paid fee. Consumes lots in method order; proceeds are spread over the
   * consumed pieces pro rata by quantity (the last piece takes the remainder, so the rows add
   * up to the sale exactly). Quantity no lot covers still becomes a row, flagged, never a
   * silent zero basis.
   */
  private disposeTaxably(
    entry: LedgerEntry,
    quantity: ScaledDecimal,
    proceedsUsd: ScaledDecimal,
    direction: Disposal['direction'],
  ): void {
    const { taken, missingQuantity, identifiedLate } = this.takeLots(entry, quantity);
    const pieces: (LotPiece | null)[] = [...taken];
    if (missingQuantity.isPositive()) {
      this.flagInsufficientHoldings(entry, missingQuantity);
      pieces.push(null);
    }

    if (this.disposalsInYear === undefined || entry.timestamp.getUTCFullYear() === this.disposalsInYear) {
      let proceedsLeftUsd = proceedsUsd;
      pieces.forEach((piece, index) => {
        const pieceQuantity = piece?.quantity ?? missingQuantity;
        const isLast = index === pieces.length - 1;
        const pieceProceedsUsd = isLast
          ? proceedsLeftUsd
          : allocateScaledProRata(proceedsUsd, pieceQuantity, quantity, ALLOCATION_DECIMAL_PLACES);
        proceedsLeftUsd = proceedsLeftUsd.minus(pieceProceedsUsd);
        const costBasisUsd = piece?.costBasisUsd ?? SCALED_ZERO;
        const gainUsd = pieceProceedsUsd.minus(costBasisUsd);
        const disposal: Disposal = {
          accountId: entry.accountId,
          transactionId: entry.transactionId,
          direction,
          symbol: entry.symbol,
          quantity: toCanonical(pieceQuantity),
          acquiredAt: piece ? new Date(piece.acquiredAt.getTime()) : null,
          disposedAt: new Date(entry.timestamp.getTime()),
          proceedsUsd: toCanonical(pieceProceedsUsd),
          costBasisUsd: toCanonical(costBasisUsd),
          gainUsd: toCanonical(gainUsd),
          term: piece ? holdingTerm(piece.acquiredAt, entry.timestamp) : 'short',
          basisKnown: piece?.basisKnown ?? false,
          lotOriginTransactionId: piece?.originTransactionId ?? null,
          acquiredInAccount: piece?.acquiredInAccount === true,
          identifiedLate,
        };
        keepDisposalAmounts(disposal, { proceedsUsd: pieceProceedsUsd, costBasisUsd, gainUsd });
        this.disposals.push(disposal);
      });
    }

    const unknownBasisQuantity = sumScaled(taken.filter((p) => !p.basisKnown).map((p) => p.quantity));
    if (unknownBasisQuantity.isPositive()) {
      this.flagUnknownBasis(entry, unknownBasisQuantity, 'disposed_unknown_basis_lot');
    }
  }

  /** Quantity leaves the tenant's books without a taxable event (e.g. sent to an unknown address). */
  private removeNonTaxably(entry: LedgerEntry, quantity: ScaledDecimal, reason: RemovalReason): void {
    const { taken, missingQuantity } = this.takeLots(entry, quantity);
    if (missingQuantity.isPositive()) this.flagInsufficientHoldings(entry, missingQuantity);
    this.recordRemovals(entry, taken, reason);
  }

  /**
   * The sending leg of a transfer between own accounts. Lots leave the source in method
   * order with their basis and dates. If the receiving leg is smaller (a network fee), the
   * difference is removed from the moving lots, again in method order, without a taxable event.
   */
  private sendTransfer(entry: LedgerEntry, quantity: ScaledDecimal, inIndex: number): void {
    const { taken, missingQuantity } = this.takeLots(entry, quantity);
    if (missingQuantity.isPositive()) this.flagInsufficientHoldings(entry, missingQuantity);
    const receivedQuantity = this.entriesInProcessingOrder[inIndex].amount;
    const shortfall = sumScaled(taken.map((p) => p.quantity)).minus(receivedQuantity);
    if (shortfall.isPositive()) {
      const lost = takeInOrder(taken, shortfall);
      this.recordRemovals(entry, lost.taken, 'transfer_shortfall');
      this.lotsInTransitByInIndex.set(inIndex, lost.remaining);
    } else {
      this.lotsInTransitByInIndex.set(inIndex, taken);
    }
  }

  /** The receiving leg: the moved lots open here unchanged; anything received beyond them has unknown basis. */
  private receiveTransfer(entry: LedgerEntry, quantity: ScaledDecimal, index: number): void {
    const moved = this.lotsInTransitByInIndex.get(index) ?? [];
    this.lotsInTransitByInIndex.delete(index);
    // A moved lot keeps its date and basis, but was not acquired in this account; a converted one
    // (a wrap: same account, another symbol) stays where it was acquired.
    const converted = isConversionTransferId(entry.transferId);
    for (const piece of moved) {
      this.lotBook.open(entry.accountId, entry.symbol, {
        ...piece,
        acquiredInAccount: converted ? piece.acquiredInAccount === true : false,
      });
    }
    const extra = quantity.minus(sumScaled(moved.map((p) => p.quantity)));
    if (extra.isPositive()) this.openUnknownBasisLot(entry, extra, 'transfer_in_exceeds_out');
  }

  private recordRemovals(entry: LedgerEntry, pieces: readonly LotPiece[], reason: RemovalReason): void {
    for (const piece of pieces) {
      this.removals.push({
        accountId: entry.accountId,
        transactionId: entry.transactionId,
        symbol: entry.symbol,
        quantity: toCanonical(piece.quantity),
        costBasisUsd: toCanonical(piece.costBasisUsd),
        acquiredAt: new Date(piece.acquiredAt.getTime()),
        removedAt: new Date(entry.timestamp.getTime()),
        basisKnown: piece.basisKnown,
        lotOriginTransactionId: piece.originTransactionId,
        reason,
      });
    }
  }

  private flagInsufficientHoldings(entry: LedgerEntry, missingQuantity: ScaledDecimal): void {
    this.issues.push({
      kind: 'insufficient_holdings',
      accountId: entry.accountId,
      symbol: entry.symbol,
      transactionId: entry.transactionId,
      missingQuantity: toCanonical(missingQuantity),
    });
  }

  private flagUnknownBasis(entry: LedgerEntry, quantity: ScaledDecimal, reason: UnknownBasisReason): void {
    this.issues.push({
      kind: 'unknown_basis',
      accountId: entry.accountId,
      symbol: entry.symbol,
      transactionId: entry.transactionId,
      quantity: toCanonical(quantity),
      reason,
    });
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled direction: ${String(value)}`);
}
