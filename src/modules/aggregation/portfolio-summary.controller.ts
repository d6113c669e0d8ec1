import { AuditedRead } from '../../common/decorators/audited.decorator.js';
import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { formatAmountWithUnit, formatUsd } from '../../domain/money/format.js';
import { PortfolioSummaryDto, PortfolioSummaryQueryDto } from './dto/portfolio-summary.dto.js';
import { PortfolioSummaryService, type PortfolioSummary } from './portfolio-summary.service.js';

function toSummaryDto(summary: PortfolioSummary): PortfolioSummaryDto {
  return {
    btc_balance: formatAmountWithUnit(summary.btcQuantity, 'BTC'),
    usd_value: formatUsd(summary.marketValueUsd),
    exchanges: [...summary.platforms],
    sync_status: summary.syncStatus,
    accounts: summary.accountCount,
    excluded_accounts: summary.excluded.map(({ accountId, reason }) => ({ account_id: accountId, reason })),
    unpriced_assets: [...summary.unpricedSymbols],
    last_updated_on: summary.lastUpdatedOn?.toISOString() ?? null,
    cache_age_seconds: summary.cacheAgeSeconds,
  };
}

@ApiTags('Aggregation')
@Scopes('partner')
@Controller('portfolio')
export class PortfolioSummaryController {
  constructor(private readonly summaries: PortfolioSummaryService) {}

  @Get('summary')
  @AuditedRead('account.read.summary', { target: { query: 'account_id' } })
  @ApiOperation({
    summary: 'Aggregated holdings across linked accounts',
    description:
      'BTC held and USD value from the accounts’ balances (what /v1/api/account/{id}/balances serves), the platforms, and a live sync status rolled up worst first. Accounts whose balances answer 422 are listed in `excluded_accounts`.',
  })
  @ApiOkResponse({ type: PortfolioSummaryDto })
  @ApiBadRequestResponse({ description: 'account_id is not a UUID.' })
  @ApiNotFoundResponse({ description: 'The account does not exist for this tenant.' })
  async summary(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: PortfolioSummaryQueryDto,
  ): Promise<PortfolioSummaryDto> {
    return toSummaryDto(await this.summaries.summary(client.tenantId, query.account_id));
  }
}
