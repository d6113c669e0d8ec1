/**
 * Specific identification (issue 19 item 2; docs/cost-basis.md, "Specific identification"): the
 * lots an advisor chose for a disposal. Recording one checks it against the lots open in the
 * account just before the disposal (under the elections and the other selections) and recomputes
 * the balances under it in the same transaction, through the refresh engine (the ledger's one writer).
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { DomainError } from '../../../common/errors/domain-error.js';
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
import { LedgerService, type StoredLotSelection } from '../../ledger/index.js';
import { RefreshService } from '../../sources/index.js';
import { AccountsService } from '../../accounts/index.js';

export interface LotSelectionRequest {
  readonly accountId: string;
  readonly transactionId: string;
  readonly lots: readonly LotPick[];
  readonly recordedBy: string;
}

/** The directions a selection can apply to: everything that takes lots out of an account. */
const DISPOSING = new Set(['sell', 'fee', 'withdrawal', 'transfer_out']);

@Injectable()
export class LotSelectionsService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly refresher: RefreshService,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string, accountId: string): Promise<StoredLotSelection[]> {
    await this.requireAccount(tenantId, accountId);
    return this.ledger.lotSelections(tenantId, accountId);
  }

  async create(tenantId: string, request: LotSelectionRequest): Promise<StoredLotSelection> {
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
    this.checkAgainstOpenLots(disposal, sorted.slice(0, index), sorted.slice(index + 1), request.lots, {
      elections: await this.ledger.costBasisElections(tenantId),
      selections: await this.ledger.lotSelectionsByDisposal(tenantId),
      transition: await this.ledger.safeHarborTransition(tenantId),
    });
    return this.refresher.recordLotSelection(tenantId, {
      accountId: request.accountId,
      transactionId: request.transactionId,
      lots: request.lots.map((pick) => ({
        lotId: pick.lotId,
        quantity: parseScaled(pick.quantity)!.toCanonical(),
      })),
      recordedAt: this.clock.now(),
      recordedBy: request.recordedBy,
    });
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const selection = await this.ledger.findLotSelection(tenantId, id);
    if (!selection) throw DomainError.notFound('Lot selection');
    await this.refresher.deleteLotSelection(tenantId, selection);
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
