import { ApiHeavyWorkResponses } from './heavy-work-responses.js';
import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AuditedRead } from '../../common/decorators/audited.decorator.js';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { HarvestingQueryDto, HarvestingReportDto, LotsQueryDto, LotsReportDto } from './dto/lots.dto.js';
import { toHarvestingReportDto, toLotsReportDto } from './tax-lots.mapper.js';
import { TaxLotsService, type LotsQuery } from './tax-lots.service.js';

const toQuery = (query: LotsQueryDto): LotsQuery => ({
  accountId: query.account_id,
  identity: query.identity,
  asset: query.asset,
  method: query.method,
  limit: query.limit,
  cursor: query.cursor,
});

/** Additions to the published API (issue 19): open lots and harvesting candidates. */
@ApiTags('Tax reporting')
@Scopes('partner')
@Controller('taip')
export class TaxLotsController {
  constructor(private readonly lots: TaxLotsService) {}

  @Get('lots')
  @AuditedRead('account.read.lots', {
    target: { query: 'account_id' },
    query: ['method', 'asset', 'identity'],
  })
  @ApiOperation({
    summary: 'Open lots with basis, unrealized gain, holding term and the date each turns long-term',
    description:
      'Every account of the tenant, or one (`account_id` or `identity`), valued at the latest stored prices. Summed per asset the lots equal the balances (same engine and ledger). Paged: `limit` lots (default 100, at most 1,000) after `cursor`, the `next_cursor` of the previous page (null on the last); `totals` are over every lot, whatever the page. An addition to the published API; rules: docs/tax-report.md, "Open lots".',
  })
  @ApiOkResponse({ type: LotsReportDto })
  @ApiBadRequestResponse({
    description:
      'A malformed parameter, a `limit` outside 1-1,000 or a cursor this service did not issue for this query (named in errors).',
  })
  @ApiNotFoundResponse({ description: 'The account (or identity) does not exist for this tenant.' })
  @ApiHeavyWorkResponses()
  async openLots(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: LotsQueryDto,
  ): Promise<LotsReportDto> {
    return toLotsReportDto(await this.lots.lots(client.tenantId, toQuery(query)));
  }

  @Get('harvesting-candidates')
  @AuditedRead('account.read.harvesting_candidates', {
    target: { query: 'account_id' },
    query: ['method', 'asset', 'identity', 'min_loss', 'wash_sale'],
  })
  @ApiOperation({
    summary: 'Tax-loss harvesting candidates: lots at an unrealized loss, short and long term',
    description:
      'Known-basis lots whose unrealized loss at the latest stored price is at least `min_loss`, largest first, with the loss realizable now; wash-sale rules do not apply to digital assets today (`wash_sale=assume` shows what they would disallow). Paged like GET /taip/lots (`limit`, `cursor`, `next_cursor`); the sums and counts are over every candidate. An addition to the published API; rules: docs/tax-report.md, "Harvesting candidates".',
  })
  @ApiOkResponse({ type: HarvestingReportDto })
  @ApiBadRequestResponse({
    description:
      'A malformed parameter, a `limit` outside 1-1,000 or a cursor this service did not issue for this query (named in errors).',
  })
  @ApiNotFoundResponse({ description: 'The account (or identity) does not exist for this tenant.' })
  @ApiHeavyWorkResponses()
  async harvestingCandidates(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: HarvestingQueryDto,
  ): Promise<HarvestingReportDto> {
    const report = await this.lots.harvesting(client.tenantId, {
      ...toQuery(query),
      minLossUsd: query.min_loss ?? '0',
      washSale: query.wash_sale ?? 'ignore',
    });
    return toHarvestingReportDto(report);
  }
}
