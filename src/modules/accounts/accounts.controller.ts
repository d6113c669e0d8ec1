import { Controller, Get, Param, Query, Res, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { ApiEnvelopedResponse } from '../../common/openapi/api-responses.js';
import { UuidParam } from '../../common/validation/validation.js';
import { AccountDataService } from './account-data.service.js';
import {
  cacheStatus,
  toBalancesResult,
  toCollectionResult,
  toIdentityResult,
  toListItem,
  toTransactionsResult,
} from './accounts.mapper.js';
import { AccountsService } from './accounts.service.js';
import { ForceRefreshQueryDto, PageQueryDto, TransactionsQueryDto } from './dto/account-queries.dto.js';
import {
  AccountCollectionDto,
  AccountIdentityDto,
  AccountListDto,
  BalancesResultDto,
  TransactionsResultDto,
} from './dto/account-responses.dto.js';
import { toTransactionRange } from './dto/query-transforms.js';

@ApiTags('Accounts')
@Controller('v1/api')
@Scopes('partner')
@UseInterceptors(EnvelopeInterceptor)
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly data: AccountDataService,
  ) {}

  @Get('account/collection/:collectionId')
  @ApiOperation({ summary: 'The account of a collection (one connection to one platform)' })
  @ApiEnvelopedResponse(AccountCollectionDto, { description: 'Envelope with the account in `result`.' })
  @ApiBadRequestResponse({ description: 'collectionId is not a UUID.' })
  @ApiNotFoundResponse({ description: 'Collection not found.' })
  async byCollection(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('collectionId') collectionId: string,
  ): Promise<AccountCollectionDto> {
    return toCollectionResult(await this.accounts.byCollection(client.tenantId, collectionId));
  }

  @Get('account/identity/:identity')
  @ApiOperation({ summary: "The account behind the partner's identifier" })
  @ApiEnvelopedResponse(AccountIdentityDto, { description: 'Envelope with the account in `result`.' })
  @ApiNotFoundResponse({ description: 'Identity not found.' })
  async byIdentity(
    @CurrentClient() client: AuthenticatedClient,
    @Param('identity') identity: string,
  ): Promise<AccountIdentityDto> {
    return toIdentityResult(await this.accounts.byIdentity(client.tenantId, identity));
  }

  @Get('account/:accountId/transactions')
  @ApiOperation({
    summary: 'Transactions of an account',
    description:
      '`from`/`to` are inclusive (a date-only `to` covers that whole UTC day). Ordered by timestamp, then transactionId. Optional paging with `limit` (≤ 1000) and `cursor`.',
  })
  @ApiEnvelopedResponse(TransactionsResultDto, { description: 'Envelope with `result.transactions`.' })
  @ApiBadRequestResponse({ description: 'A parameter is malformed (named in errors).' })
  @ApiNotFoundResponse({ description: 'Account not found.' })
  async transactions(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('accountId') accountId: string,
    @Query() query: TransactionsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TransactionsResultDto> {
    const view = await this.data.transactionsOf(client.tenantId, accountId, {
      range: toTransactionRange(query.from, query.to),
      forceRefresh: query.forceRefresh ?? false,
      limit: query.limit,
      cursor: query.cursor,
    });
    response.setHeader('Cache-Status', cacheStatus(view.freshness.refreshed));
    return toTransactionsResult(view);
  }

  @Get('account/:accountId/balances')
  @ApiOperation({
    summary:
      'Balances of an account: quantity, cost basis, market value, realized and unrealized gain per asset',
    description:
      '422 (with `reason`) when no honest figures exist: `initial_sync_pending`, `reconnect_required` or `initial_sync_failed` with nothing cached, or `inconsistent_history`.',
  })
  @ApiEnvelopedResponse(BalancesResultDto, { description: 'Envelope with the balances in `result`.' })
  @ApiNotFoundResponse({ description: 'Account not found.' })
  @ApiUnprocessableEntityResponse({
    description: 'No usable data yet, or an inconsistent history; `reason` says which.',
  })
  async balances(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('accountId') accountId: string,
    @Query() query: ForceRefreshQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<BalancesResultDto> {
    const view = await this.data.balancesOf(client.tenantId, accountId, query.forceRefresh ?? false);
    response.setHeader('Cache-Status', cacheStatus(view.freshness.refreshed));
    return toBalancesResult(view);
  }

  @Get('accounts')
  @ApiOperation({ summary: "The caller's accounts with their state (cursor-paginated)" })
  @ApiEnvelopedResponse(AccountListDto, {
    description: 'Envelope with `result.accounts` and `result.nextCursor`.',
  })
  @ApiBadRequestResponse({ description: 'limit out of range or cursor invalid.' })
  async list(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: PageQueryDto,
  ): Promise<AccountListDto> {
    const page = await this.accounts.list(client.tenantId, query.limit, query.cursor);
    return { accounts: page.accounts.map(toListItem), nextCursor: page.nextCursor };
  }
}
