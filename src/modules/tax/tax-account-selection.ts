import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import type { LedgerEntry } from '../../domain/cost-basis/index.js';
import { AccountsService, type AccountRecord } from '../accounts/index.js';
import { LedgerService } from '../ledger/index.js';

export interface AccountSelector {
  readonly accountId?: string;
  readonly identity?: string;
}

export interface SelectedLedger {
  /** The accounts the report is about (one, or every account of the tenant). */
  readonly accounts: readonly AccountRecord[];
  /** One account asked for by account_id or identity; null: the whole tenant. */
  readonly account: AccountRecord | null;
  /**
   * The engine's input: for one account, its entries and those of every account linked to it by
   * own-account transfers (so its lots are exactly those of a tenant-wide computation); for the
   * tenant, all entries.
   */
  readonly entries: readonly LedgerEntry[];
}

/**
 * Design §7 account selection: `account_id` or `identity`, default every account of the tenant.
 * Another tenant's account answers 404 exactly like one that does not exist.
 */
@Injectable()
export class TaxAccountSelection {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
  ) {}

  async select(tenantId: string, selector: AccountSelector): Promise<SelectedLedger> {
    if (selector.accountId !== undefined && selector.identity !== undefined) {
      throw DomainError.validation('identity', 'Give account_id or identity, not both.');
    }
    const account =
      selector.accountId !== undefined
        ? await this.accounts.findById(tenantId, selector.accountId)
        : selector.identity !== undefined
          ? await this.accounts.byIdentity(tenantId, selector.identity)
          : null;
    if (selector.accountId !== undefined && !account) throw DomainError.notFound('Account');
    if (account) {
      const { entries } = await this.ledger.ledgerForAccount(tenantId, account);
      return { accounts: [account], account, entries };
    }
    return {
      accounts: await this.accounts.listAllForTenant(tenantId),
      account: null,
      entries: await this.ledger.ledgerForTenant(tenantId),
    };
  }
}
