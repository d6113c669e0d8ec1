import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { RequestId } from '../../../common/decorators/audited.decorator.js';
import { CurrentClient, Scopes } from '../../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../../common/http/request-context.js';
import { UuidParam } from '../../../common/validation/validation.js';
import { AdminAccountDto, BalancesResultDto, TransactionsResultDto } from './account-reads.js';
import { SupportTenantQueryDto, SupportTransactionsQueryDto } from './support.dto.js';
import { SupportReadsService } from './support-reads.service.js';

/**
 * Support reads: an admin reads any tenant's account data, as its partner would get it (without
 * the envelope), by naming the tenant. Every read is recorded (SupportReadsService.record).
 */
@ApiTags('Admin: support reads')
@Controller('admin/support/accounts')
@Scopes('admin')
export class SupportController {
  constructor(private readonly reads: SupportReadsService) {}

  @Get(':accountId')
  @ApiOperation({
    summary: 'Support read: one account of a tenant, with its state',
    description:
      'One account of the tenant named by `tenant`, as the admin accounts list shows it (state, source, last sync and error; never its credentials), for the admin team answering a support request. Reads only; every support read is recorded in the audit trail with the admin as actor.',
  })
  @ApiOkResponse({ type: AdminAccountDto })
  @ApiNotFoundResponse({ description: 'Account not found (in that tenant).' })
  account(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: SupportTenantQueryDto,
    @CurrentClient() admin: AuthenticatedClient,
    @RequestId() requestId: string | null,
  ): Promise<AdminAccountDto> {
    return this.reads.account({ adminClientId: admin.clientId, tenant, accountId, requestId });
  }

  @Get(':accountId/balances')
  @ApiOperation({
    summary: 'Support read: the balances a tenant’s partner gets for an account',
    description: 'From the stored snapshot; never refreshes. 422 (with `reason`) as for the partner.',
  })
  @ApiOkResponse({ type: BalancesResultDto })
  @ApiNotFoundResponse({ description: 'Account not found (in that tenant).' })
  @ApiUnprocessableEntityResponse({ description: 'No usable data yet, or an inconsistent history.' })
  balances(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: SupportTenantQueryDto,
    @CurrentClient() admin: AuthenticatedClient,
    @RequestId() requestId: string | null,
  ): Promise<BalancesResultDto> {
    return this.reads.balances({ adminClientId: admin.clientId, tenant, accountId, requestId });
  }

  @Get(':accountId/transactions')
  @ApiOperation({
    summary: 'Support read: the transactions a tenant’s partner gets for an account',
    description:
      '`from`/`to` inclusive, optional paging with `limit` and `cursor`, as for the partner; never refreshes.',
  })
  @ApiOkResponse({ type: TransactionsResultDto })
  @ApiNotFoundResponse({ description: 'Account not found (in that tenant).' })
  transactions(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant, ...query }: SupportTransactionsQueryDto,
    @CurrentClient() admin: AuthenticatedClient,
    @RequestId() requestId: string | null,
  ): Promise<TransactionsResultDto> {
    return this.reads.transactions({ adminClientId: admin.clientId, tenant, accountId, requestId }, query);
  }
}
