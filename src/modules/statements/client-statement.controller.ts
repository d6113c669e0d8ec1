import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
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
import { ApiHeavyWorkResponses } from '../tax/index.js';
import { ClientStatementService } from './client-statement.service.js';
import { ClientStatementQueryDto } from './dto/client-statement-query.dto.js';

@ApiTags('Tax reporting')
@Scopes('partner')
@Controller('taip')
export class ClientStatementController {
  constructor(private readonly statements: ClientStatementService) {}

  @Get('client-statement')
  @AuditedRead('account.read.client_statement', {
    query: ['account_id', 'tax_year', 'portfolio_id', 'horizon_years', 'seed'],
  })
  @ApiOperation({
    summary: 'A client statement as PDF: holdings, realized gains, allocation, projection',
    description:
      'For one account or a household (several `account_id`s, comma-separated): holdings with quantity, price, market value, cost basis and unrealized gain (the balances’ figures, summed per asset); the realized gains of `tax_year` per asset and term (the gains reports’ cents, summed over the accounts); an allocation chart by market value; and the projection fan chart (10th–90th and 25th–75th percentile bands, the median, bull/base/bear) of `portfolio_id`, or of the holdings’ own weights, starting from their market value, with the assumptions used and the disclosure. Letter size, two pages. The same request, data and `seed` give the same figures. An addition to the published API; docs/reports.md, "Client statement".',
  })
  @ApiOkResponse({
    description: 'The statement, an application/pdf attachment.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiBadRequestResponse({ description: 'A malformed parameter (named in errors).' })
  @ApiNotFoundResponse({ description: 'An account or the portfolio does not exist for this tenant.' })
  @ApiHeavyWorkResponses({
    alsoUnavailable:
      'Also: every simulation worker is busy (`reason` simulations_busy), or this client runs as many simulations as it may (429 `too_many_simulations`).',
  })
  async statement(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: ClientStatementQueryDto,
  ): Promise<StreamableFile> {
    const { pdf, fileName } = await this.statements.statement(client.tenantId, client.clientId, {
      accountIds: query.account_id,
      taxYear: Number(query.tax_year),
      portfolioId: query.portfolio_id,
      horizonYears: query.horizon_years ?? 10,
      seed: query.seed ?? 1,
    });
    return new StreamableFile(pdf, {
      type: 'application/pdf',
      disposition: `attachment; filename="${fileName}"`,
      length: pdf.byteLength,
    });
  }
}
