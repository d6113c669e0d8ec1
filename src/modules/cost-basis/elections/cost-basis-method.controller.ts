import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Audited } from '../../../common/decorators/audited.decorator.js';
import { CurrentClient, Scopes } from '../../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../../common/http/request-context.js';
import type { StoredElection } from '../../ledger/index.js';
import {
  CostBasisElectionDto,
  CostBasisMethodDto,
  CostBasisMethodQueryDto,
  ElectCostBasisMethodDto,
} from '../dto/cost-basis-method.dto.js';
import { CostBasisMethodService, type MethodView } from './cost-basis-method.service.js';

const toElectionDto = (e: StoredElection): CostBasisElectionDto => ({
  id: e.id,
  account_id: e.accountId,
  method: e.method,
  effective_from: e.effectiveFrom,
  recorded_at: e.recordedAt.toISOString(),
  recorded_by: e.recordedBy,
});

const toMethodDto = (view: MethodView): CostBasisMethodDto => ({
  as_of: view.asOf,
  account_id: view.accountId,
  method_in_force: view.methodInForce,
  method_source: view.methodSource,
  tenant_elections: view.tenantElections.map(toElectionDto),
  account_elections: view.accountElections.map(toElectionDto),
});

/** Additions to the published API (issue 19 item 1): the cost-basis method elections of the tenant and its accounts. */
@ApiTags('Tax reporting')
@Scopes('partner')
@Controller('taip')
export class CostBasisMethodController {
  constructor(private readonly methods: CostBasisMethodService) {}

  @Get('cost-basis-method')
  @ApiOperation({
    summary: 'The cost-basis method in force and the history of elections',
    description:
      'The tenant’s elections and, with `account_id`, the account’s; the method a disposal today uses (the account’s election, else the tenant’s, else FIFO). Balances, the gains report, Form 8949 and lots use each disposal’s method in force on its date. An addition to the published API; rules: docs/cost-basis.md, "Method elections".',
  })
  @ApiOkResponse({ type: CostBasisMethodDto })
  @ApiBadRequestResponse({ description: 'A malformed parameter (named in errors).' })
  @ApiNotFoundResponse({ description: 'The account does not exist for this tenant.' })
  async current(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: CostBasisMethodQueryDto,
  ): Promise<CostBasisMethodDto> {
    return toMethodDto(await this.methods.view(client.tenantId, query.account_id ?? null));
  }

  @Post('cost-basis-method')
  @HttpCode(201)
  @Audited('tenant.cost_basis_method_elected', { target: { body: 'account_id' } })
  @ApiOperation({
    summary: 'Elect a cost-basis method for the tenant or one account, from a date on',
    description:
      'Appends an election (nothing is ever changed: a later election for the same scope supersedes from its own date). `effective_from` may not be before today (UTC). The balances of the accounts concerned are recomputed under it before the answer. An addition to the published API; rules: docs/cost-basis.md, "Method elections".',
  })
  @ApiCreatedResponse({ type: CostBasisElectionDto })
  @ApiBadRequestResponse({
    description: 'A malformed field, or `effective_from` before today (named in errors).',
  })
  @ApiNotFoundResponse({ description: 'The account does not exist for this tenant.' })
  async elect(
    @CurrentClient() client: AuthenticatedClient,
    @Body() body: ElectCostBasisMethodDto,
  ): Promise<CostBasisElectionDto> {
    return toElectionDto(
      await this.methods.elect(client.tenantId, {
        method: body.method,
        effectiveFrom: body.effective_from,
        accountId: body.account_id ?? null,
        recordedBy: client.clientId,
      }),
    );
  }
}
