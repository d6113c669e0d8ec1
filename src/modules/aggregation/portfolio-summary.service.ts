/**
 * /portfolio/summary (design §9): holdings across the tenant's accounts (or one), from the
 * balance snapshots the balances endpoint serves (the cost-basis engine at the stored prices),
 * with a live sync status rolled up from the accounts. Read-only.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { summarizePortfolio, type PortfolioSummary } from '../../domain/portfolio/index.js';
import { AccountsService, type AccountRecord } from '../accounts/index.js';
import { LedgerService } from '../ledger/index.js';

export type { PortfolioSummary };

/** Reads the accounts and their snapshots; the sums are made in src/domain/portfolio. */
@Injectable()
export class PortfolioSummaryService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
  ) {}

  async summary(tenantId: string, accountId?: string): Promise<PortfolioSummary> {
    let accounts: AccountRecord[];
    if (accountId !== undefined) {
      const account = await this.accounts.findById(tenantId, accountId);
      if (!account) throw DomainError.notFound('Account');
      accounts = [account];
    } else {
      accounts = await this.accounts.listAllForTenant(tenantId);
    }
    const snapshots = await this.ledger.snapshotsOf(
      tenantId,
      accounts.map((account) => account.id),
    );
    return summarizePortfolio(accounts, snapshots, this.clock.now());
  }
}
