/**
 * Cost-basis method elections (issue 19 item 1; docs/cost-basis.md, "Method elections"): the
 * tenant's and its accounts' append-only history of elected methods, and recording a new one,
 * which recomputes the balances under it in the same transaction (through the ledger's one writer,
 * LedgerWriter). Elections are read one way: LedgerService.costBasisElections.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { DomainError } from '../../../common/errors/domain-error.js';
import {
  DEFAULT_COST_BASIS_METHOD,
  electionInForce,
  type CostBasisMethod,
} from '../../../domain/cost-basis/index.js';
import { LedgerService, LedgerWriter, type StoredElection } from '../../ledger/index.js';
import { AccountsService } from '../../accounts/index.js';

export interface MethodView {
  readonly asOf: string;
  readonly accountId: string | null;
  readonly methodInForce: CostBasisMethod;
  readonly methodSource: 'account' | 'tenant' | 'default';
  readonly tenantElections: readonly StoredElection[];
  readonly accountElections: readonly StoredElection[];
}

export interface ElectionRequest {
  readonly method: CostBasisMethod;
  readonly effectiveFrom: string;
  readonly accountId: string | null;
  readonly recordedBy: string;
}

const utcDate = (at: Date): string => at.toISOString().slice(0, 10);

/** A real calendar date in YYYY-MM-DD (the DTO checked the shape). */
function isCalendarDate(text: string): boolean {
  const parsed = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && utcDate(parsed) === text;
}

@Injectable()
export class CostBasisMethodService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly writer: LedgerWriter,
    private readonly clock: Clock,
  ) {}

  async view(tenantId: string, accountId: string | null): Promise<MethodView> {
    if (accountId !== null) await this.requireAccount(tenantId, accountId);
    const elections = await this.ledger.costBasisElections(tenantId);
    const asOf = utcDate(this.clock.now());
    const own = accountId === null ? null : electionInForce(elections, accountId, asOf);
    const tenant = electionInForce(elections, null, asOf);
    return {
      asOf,
      accountId,
      methodInForce: own?.method ?? tenant?.method ?? DEFAULT_COST_BASIS_METHOD,
      methodSource: own ? 'account' : tenant ? 'tenant' : 'default',
      tenantElections: elections.filter((e) => e.accountId === null),
      accountElections: accountId === null ? [] : elections.filter((e) => e.accountId === accountId),
    };
  }

  async elect(tenantId: string, request: ElectionRequest): Promise<StoredElection> {
    const now = this.clock.now();
    if (!isCalendarDate(request.effectiveFrom)) {
      throw DomainError.validation('effective_from', 'effective_from must be a date, YYYY-MM-DD.');
    }
    const today = utcDate(now);
    if (request.effectiveFrom < today) {
      throw DomainError.validation(
        'effective_from',
        `effective_from may not be before today (${today}, UTC): a method is fixed before the sales it applies to (Rev. Proc. 2024-28).`,
      );
    }
    if (request.accountId !== null) await this.requireAccount(tenantId, request.accountId);
    // The balances of every account the election can reach are recomputed under it.
    const affected =
      request.accountId !== null
        ? [request.accountId]
        : (await this.accounts.listAllForTenant(tenantId)).map((account) => account.id);
    return this.writer.recordCostBasisElection(
      tenantId,
      {
        accountId: request.accountId,
        method: request.method,
        effectiveFrom: request.effectiveFrom,
        recordedAt: now,
        recordedBy: request.recordedBy,
      },
      affected,
    );
  }

  private async requireAccount(tenantId: string, accountId: string): Promise<void> {
    if (!(await this.accounts.findById(tenantId, accountId))) throw DomainError.notFound('Account');
  }
}
