/**
 * Specific identification (issue 19 item 2; docs/cost-basis.md, "Specific identification"): the
 * lots an advisor chose for a disposal. Recording one checks it against the lots open in the
 * account just before the disposal (under the elections and the other selections) and recomputes
 * the balances under it in the same transaction, through the ledger's one writer (LedgerWriter).
 * The check (the disposal found in processing order, the engine over what precedes it) runs in the
 * compute pool's worker threads, inside a heavy-work slot of the tenant (issue 28): its cost grows
 * with the account's history.
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
  lotSelectionKey,
  type LedgerEntry,
  type LotPick,
  type OpenLot,
} from '../../../domain/cost-basis/index.js';
import { parseScaled, SCALED_ZERO, sumScaled } from '../../../domain/money/scaled-decimal.js';
import { LedgerService, LedgerWriter, type StoredLotSelection } from '../../ledger/index.js';
import { AccountsService } from '../../accounts/index.js';
import {
  ComputePool,
  HeavyWorkAdmission,
  reviveLotSelectionCheck,
  selectionsData,
} from '../../compute/index.js';
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
    private readonly admission: HeavyWorkAdmission,
    private readonly pool: ComputePool,
  ) {}

  async list(tenantId: string, accountId: string): Promise<LotSelectionView[]> {
    await this.requireAccount(tenantId, accountId);
    return (await this.ledger.lotSelections(tenantId, accountId)).map(view);
  }

  async create(tenantId: string, request: LotSelectionRequest): Promise<LotSelectionView> {
    const account = await this.requireAccount(tenantId, request.accountId);
    return this.admission.run(tenantId, async () => {
      const { ledger } = await this.ledger.encodedLedgerForAccount(tenantId, account);
      const selections = await this.ledger.lotSelectionsByDisposal(tenantId);
      // The disposal's own selection is the one being replaced: the others apply.
      selections.delete(lotSelectionKey(request.accountId, request.transactionId));
      const checked = reviveLotSelectionCheck(
        await this.pool.run({
          kind: 'lotSelectionCheck',
          input: {
            ledger,
            accountId: request.accountId,
            transactionId: request.transactionId,
            elections: await this.ledger.costBasisElections(tenantId),
            selections: selectionsData(selections),
            transition: await this.ledger.safeHarborTransition(tenantId),
            lotIds: request.lots.map((pick) => pick.lotId),
          },
        }),
      );
      if (!checked.found) {
        throw DomainError.validation(
          'transaction_id',
          `transaction_id ${request.transactionId} is not a transaction of account ${request.accountId}.`,
        );
      }
      const { disposal } = checked;
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
      this.checkAgainstOpenLots(disposal, checked.openLots, new Set(checked.acquiredAfter), request.lots);
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
    });
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
   * the disposal (`openLots`, its account's lots of its asset then, from the compute pool), no lot is asked for more than it holds then, and the quantities add up to the
   * disposal's amount exactly.
   */
  private checkAgainstOpenLots(
    disposal: LedgerEntry,
    openLots: readonly OpenLot[],
    acquiredAfter: ReadonlySet<string>,
    picks: readonly LotPick[],
  ): void {
    const quantities = picks.map((pick, i) => {
      const quantity = parseScaled(pick.quantity);
      if (quantity === null || !quantity.isPositive()) {
        throw DomainError.validation(`lots[${i}].quantity`, `lots[${i}].quantity must be decimal text > 0.`);
      }
      return quantity;
    });
    const open = new Map(openLots.map((lot) => [lot.lotId ?? lot.originTransactionId, lot]));
    const asked = new Map<string, ReturnType<typeof sumScaled>>();
    picks.forEach((pick, i) => {
      const field = `lots[${i}].lot_id`;
      const lot = open.get(pick.lotId);
      if (!lot) {
        throw DomainError.validation(
          field,
          acquiredAfter.has(pick.lotId)
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
