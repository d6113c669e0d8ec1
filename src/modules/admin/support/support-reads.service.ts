import { Inject, Injectable, Logger } from '@nestjs/common';
import { READ_AUDIT, type ReadAuditPort } from '../../../common/ports/read-audit.port.js';
import {
  AccountDataService,
  AccountsService,
  toAdminAccount,
  toBalancesResult,
  toTransactionRange,
  toTransactionsResult,
  type AdminAccountDto,
  type BalancesResultDto,
  type TransactionsResultDto,
} from './account-reads.js';

/** Who reads what: the admin client, the tenant it names, the account and the kind of read. */
export interface SupportRead {
  adminClientId: string;
  tenant: string;
  accountId: string;
  requestId: string | null;
  what: 'account' | 'balances' | 'transactions';
}

export interface SupportTransactionsQuery {
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/**
 * An admin reading one tenant's account data for support (design §1; issue 17 item 4). Reads
 * exactly what the tenant's partner would get (the same services and mappers), without the
 * envelope, and never refreshes from a source: a support read must not change what it looks at.
 * The tenant is named by the admin (`?tenant=`); an account of another tenant answers 404.
 */
@Injectable()
export class SupportReadsService {
  private readonly logger = new Logger(SupportReadsService.name);

  constructor(
    private readonly accounts: AccountsService,
    private readonly data: AccountDataService,
    @Inject(READ_AUDIT) private readonly audit: ReadAuditPort,
  ) {}

  async account(read: Omit<SupportRead, 'what'>): Promise<AdminAccountDto> {
    const account = await this.accounts.adminFind(read.accountId, read.tenant);
    this.record({ ...read, what: 'account' }, account.tenantId);
    return toAdminAccount(account, read.tenant);
  }

  async balances(read: Omit<SupportRead, 'what'>): Promise<BalancesResultDto> {
    const tenantId = await this.accounts.tenantIdOf(read.tenant);
    const view = await this.data.balancesOf(tenantId, read.accountId, false);
    this.record({ ...read, what: 'balances' }, tenantId);
    return toBalancesResult(view);
  }

  async transactions(
    read: Omit<SupportRead, 'what'>,
    query: SupportTransactionsQuery,
  ): Promise<TransactionsResultDto> {
    const range = toTransactionRange(query.from, query.to);
    const tenantId = await this.accounts.tenantIdOf(read.tenant);
    const view = await this.data.transactionsOf(tenantId, read.accountId, {
      range,
      forceRefresh: false,
      limit: query.limit,
      cursor: query.cursor,
    });
    this.record({ ...read, what: 'transactions' }, tenantId);
    return toTransactionsResult(view);
  }

  /**
   * Every support read of a tenant's data passes here, once it has succeeded (a 404 reads
   * nothing): recorded in the audit trail (docs/audit.md) under the tenant read, with the admin
   * client as actor, and logged at info level.
   */
  private record(read: SupportRead, tenantId: string): void {
    this.audit.recordRead({
      tenantId,
      actorKind: 'admin',
      actorId: read.adminClientId,
      action: `account.read.${read.what === 'account' ? 'account' : read.what}`,
      accountId: read.accountId,
      requestId: read.requestId,
      status: 200,
      details: { support: true, tenant: read.tenant },
    });
    this.logger.log(
      `Support read: admin client ${read.adminClientId} read the ${read.what} of account ${read.accountId} in tenant ${read.tenant}`,
    );
  }
}
