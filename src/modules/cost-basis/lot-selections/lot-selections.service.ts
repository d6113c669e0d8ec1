/**
 * Specific identification (issue 19 item 2; docs/cost-basis.md, "Specific identification"): the
 * lots an advisor chose for a disposal. Recording one checks it against the lots open in the
 * account just before the disposal (under the elections and the other selections) and recomputes
 * the balances under it in the same transaction, through the ledger's one writer (LedgerWriter).
 *
 * Late identification (issue 27 item 6): a selection recorded after its disposal is not an
 * identification made by the time of the sale (Treas. Reg. §1.1012-1(j)(3)). It is refused for a
 * tax year whose report was snapshotted (409 naming transaction_id), otherwise recorded as
 * `identified_late`: the engine does not apply it (the standing method keeps choosing the lots) and
 * the Form 8949 lines and readiness flag it.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';
import {
  compareForProcessing,
  computeCostBasis,
  DEFAULT_COST_BASIS_METHOD,
  lotSelectionKey,
  methodForElections,
  type BasisTransition,
  type LedgerEntry,
  type LotPick,
} from '../../../domain/cost-basis/index.js';
import { parseScaled, SCALED_ZERO, sumScaled } from '../../../domain/money/scaled-decimal.js';
import { LedgerService, LedgerWriter, type StoredLotSelection } from '../../ledger/index.js';
import { AccountsService } from '../../accounts/index.js';
import { SnapshottedYears } from '../../report-snapshots/index.js';

export interface LotSelectionRequest {
  readonly accountId: string;
  readonly transactionId: string;
  readonly lots: readonly LotPick[];
  readonly recordedBy: string;
}

/** The directions a selection can apply to: everything that takes lots out of an account. */
const DISPOSING = new Set(['sell', 'fee', 'withdrawal', 'transfer_out']);

/** A stored selection as the API shows it: whether it was recorded after its disposal. */
export interface LotSelectionView extends StoredLotSelection {
  /** Recorded after the disposal's time (a late identification: not applied). */
  readonly identifiedLate: boolean;
}

const view = (stored: StoredLotSelection): LotSelectionView => ({
  ...stored,
  identifiedLate: stored.disposedAt !== null && stored.recordedAt.getTime() > stored.disposedAt.getTime(),
});

@Injectable()
export class LotSelectionsService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly writer: LedgerWriter,
    private readonly snapshots: SnapshottedYears,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string, accountId: string): Promise<LotSelectionView[]> {
    await this.requireAccount(tenantId, accountId);
    return (await this.ledger.lotSelections(tenantId, accountId)).map(view);
  }

  async create(tenantId: string, request: LotSelectionRequest): Promise<LotSelectionView> {
    const account = await this.requireAccount(tenantId, request.accountId);
    const { entries } = await this.ledger.ledgerForAccount(tenantId, account);
    const sorted = [...entries].sort(compareForProcessing);
    const index = sorted.findIndex(
      (e) => e.accountId === request.accountId && e.transactionId === request.transactionId,
    );
    if (index < 0) {
      throw DomainError.validation(
        'transaction_id',
        `transaction_id ${request.transactionId} is not a transaction of account ${request.accountId}.`,
      );
    }
    const disposal = sorted[index];
    if (!DISPOSING.has(disposal.direction)) {
      throw DomainError.validation(
        'transaction_id',
        `transaction_id ${request.transactionId} is a ${disposal.direction}, not a disposal (sell, fee, withdrawal or transfer_out).`,
      );
    }
    const recordedAt = this.clock.now();
    if (recordedAt.getTime() > disposal.timestamp.getTime()) {
      await this.refuseInSnapshottedYear(tenantId, disposal);
    }
    this.checkAgainstOpenLots(disposal, sorted.slice(0, index), sorted.slice(index + 1), request.lots, {
      elections: await this.ledger.costBasisElections(tenantId),
      selections: await this.ledger.lotSelectionsByDisposal(tenantId),
      transition: await this.ledger.safeHarborTransition(tenantId),
    });
    return view(
      await this.writer.recordLotSelection(tenantId, {
        accountId: request.accountId,
        transactionId: request.transactionId,
        lots: request.lots.map((pick) => ({
          lotId: pick.lotId,
          quantity: parseScaled(pick.quantity)!.toCanonical(),
        })),
        recordedAt,
        recordedBy: request.recordedBy,
      }),
    );
  }

  /**
   * A late identification may flag a year but never reopen one whose report was frozen: 409 naming
   * transaction_id when a snapshot of the disposal's tax year covers its account and asset.
   */
  private async refuseInSnapshottedYear(tenantId: string, disposal: LedgerEntry): Promise<void> {
    const taxYear = disposal.timestamp.getUTCFullYear();
    const snapshot = await this.snapshots.covering(tenantId, {
      accountId: disposal.accountId,
      symbol: disposal.symbol,
      taxYear,
    });
    if (!snapshot) return;
    const report = snapshot.kind === 'form8949' ? 'Form 8949' : 'gains report';
    const of = snapshot.accountId === null ? 'the tenant' : 'this account';
    const message =
      `${disposal.transactionId} (a ${disposal.direction}) took place on ${disposal.timestamp.toISOString()}; ` +
      'a selection recorded now, after it, is a late identification (Treas. Reg. §1.1012-1(j)(3): the units ' +
      `are identified by the time of the sale), and the ${taxYear} ${report} of ${of} was snapshotted ` +
      `(report snapshot ${snapshot.id}, ${snapshot.createdAt.toISOString()}): that year is closed.`;
    throw new DomainError(
      ErrorCode.Conflict,
      message,
      { transaction_id: [message] },
      'identified_late_in_snapshotted_year',
    );
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const selection = await this.ledger.findLotSelection(tenantId, id);
    if (!selection) throw DomainError.notFound('Lot selection');
    await this.writer.deleteLotSelection(tenantId, selection);
  }

  /**
   * 400 naming the field or the lot unless every pick names a lot open in the account just before
   * the disposal, no lot is asked for more than it holds then, and the quantities add up to the
   * disposal's amount exactly.
   */
  private checkAgainstOpenLots(
    disposal: LedgerEntry,
    before: readonly LedgerEntry[],
    after: readonly LedgerEntry[],
    picks: readonly LotPick[],
    context: {
      elections: Parameters<typeof methodForElections>[0];
      selections: Map<string, readonly LotPick[]>;
      transition: BasisTransition | undefined;
    },
  ): void {
    const quantities = picks.map((pick, i) => {
      const quantity = parseScaled(pick.quantity);
      if (quantity === null || !quantity.isPositive()) {
        throw DomainError.validation(`lots[${i}].quantity`, `lots[${i}].quantity must be decimal text > 0.`);
      }
      return quantity;
    });
    const selections = new Map(context.selections);
    selections.delete(lotSelectionKey(disposal.accountId, disposal.transactionId));
    const result = computeCostBasis(before, {
      method: DEFAULT_COST_BASIS_METHOD,
      methodFor: methodForElections(context.elections),
      selections,
      // The lots open just before a 2025+ disposal are the allocated ones (the engine would apply
      // the transition after `before`'s last entry even for an earlier disposal: not then).
      transition:
        context.transition && disposal.timestamp.getTime() >= context.transition.at.getTime()
          ? context.transition
          : undefined,
    });
    const open = new Map(
      result.openLots
        .filter((lot) => lot.accountId === disposal.accountId && lot.symbol === disposal.symbol)
        .map((lot) => [lot.lotId ?? lot.originTransactionId, lot]),
    );
    const asked = new Map<string, ReturnType<typeof sumScaled>>();
    picks.forEach((pick, i) => {
      const field = `lots[${i}].lot_id`;
      const lot = open.get(pick.lotId);
      if (!lot) {
        const origin = pick.lotId.replace(/#\d+$/, '');
        const later = after.some((e) => e.transactionId === origin && e.symbol === disposal.symbol);
        throw DomainError.validation(
          field,
          later
            ? `Lot ${pick.lotId} was acquired after the disposal ${disposal.transactionId}.`
            : `Lot ${pick.lotId} is not an open ${disposal.symbol} lot of the account just before the disposal ${disposal.transactionId}.`,
        );
      }
      const total = (asked.get(pick.lotId) ?? SCALED_ZERO).plus(quantities[i]);
      const holds = parseScaled(lot.quantity)!;
      if (total.compare(holds) > 0) {
        throw DomainError.validation(
          `lots[${i}].quantity`,
          `Lot ${pick.lotId} holds ${lot.quantity} ${disposal.symbol} just before the disposal; ${total.toCanonical()} was asked of it.`,
        );
      }
      asked.set(pick.lotId, total);
    });
    const sum = sumScaled(quantities);
    const amount = parseScaled(disposal.amount)!;
    if (sum.compare(amount) !== 0) {
      throw DomainError.validation(
        'lots',
        `The quantities add up to ${sum.toCanonical()}; the disposal ${disposal.transactionId} is of ${amount.toCanonical()} ${disposal.symbol}.`,
      );
    }
  }

  private async requireAccount(tenantId: string, accountId: string): Promise<{ readonly id: string }> {
    const account = await this.accounts.findById(tenantId, accountId);
    if (!account) throw DomainError.notFound('Account');
    return account;
  }
}
