import { AuditedRead } from '../../common/decorators/audited.decorator.js';
import { Controller, Get, Query, Res, UseInterceptors } from '@nestjs/common';
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
import { ForceRefreshQueryDto, TransactionsQueryDto } from './dto/ledger-queries.dto.js';
import { BalancesResultDto, TransactionsResultDto } from './dto/ledger-responses.dto.js';
import { toTransactionRange } from './dto/transaction-range.js';
import { cacheStatus, toBalancesResult, toTransactionsResult } from './ledger.mapper.js';

/**
 * The partner reads of an account's data: transactions and balances (the cached-balances fast
 * path answers the latter's cache hits before this route runs). Same tag and operation ids as
 * when these routes lived in the accounts controller: the published document does not change.
 */
@ApiTags('Accounts')
@Controller('v1/api')
@Scopes('partner')
@UseInterceptors(EnvelopeInterceptor)
export class LedgerController {
  constructor(private readonly data: AccountDataService) {}

  @Get('account/:accountId/transactions')
  @AuditedRead('account.read.transactions', { query: ['from', 'to', 'limit', 'cursor', 'forceRefresh'] })
  @ApiOperation({
    operationId: 'AccountsController_transactions',
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
  @AuditedRead('account.read.balances', { query: ['forceRefresh'] })
  @ApiOperation({
    operationId: 'AccountsController_balances',
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
}
