import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Audited } from '../../../common/decorators/audited.decorator.js';
import { CurrentClient, Scopes } from '../../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../../common/http/request-context.js';
import { ListLimitQueryDto } from '../../../common/pagination/list-page.dto.js';
import {
  ConfirmSafeHarborDto,
  SafeHarborAllocationDto,
  SafeHarborLotDto,
  SafeHarborQueryDto,
} from '../dto/safe-harbor.dto.js';
import { SafeHarborService, type SafeHarborLotRow, type SafeHarborView } from './safe-harbor.service.js';

const RULE =
  'Global allocation (Rev. Proc. 2024-28 safe harbor): the universal pool (every account as one; a transfer between own accounts moves nothing in it, only its network fee leaves) has its lots open at the end of 2024-12-31, oldest first (acquisition date, then lot id), fill the accounts in the order they were linked (created_on, then id), each receiving exactly what it holds on 2025-01-01; a lot larger than an account’s need is split, basis pro rata (30 decimal places, half up; the rest keeps the remainder). Holdings the pool does not cover get an unknown-basis lot (shortfall); pool lots left over are reported as excess.';

const RULES = 'An addition to the published API; rules: docs/cost-basis.md, "Universal to per-wallet".';

const PAGING =
  'The positions and the per-asset totals are always whole; the lots are paged: `limit` rows (default 100, at most 1,000), each naming its account, asset and `kind`, after `cursor`, the `next_cursor` of the previous page (null on the last).';

const lotDto = ({ kind, lot }: SafeHarborLotRow): SafeHarborLotDto => ({
  account_id: lot.accountId,
  asset: lot.symbol,
  kind,
  origin_transaction_id: lot.originTransactionId,
  acquired_at: lot.acquiredAt.toISOString(),
  quantity: lot.quantity,
  cost_basis_usd: lot.costBasisUsd,
  basis_known: lot.basisKnown,
});

function toDto(view: SafeHarborView): SafeHarborAllocationDto {
  return {
    status: view.status,
    transition_at: view.transitionAt.toISOString(),
    universal_method: view.universalMethod,
    rule: RULE,
    first_disposal_at: view.firstDisposalAt?.toISOString() ?? null,
    confirmed_at: view.confirmedAt?.toISOString() ?? null,
    confirmed_by: view.confirmedBy,
    confirmed_after_first_disposal:
      view.confirmedAt === null
        ? null
        : view.firstDisposalAt !== null && view.firstDisposalAt.getTime() <= view.confirmedAt.getTime(),
    account_id: view.accountId,
    positions: view.positions.map((p) => ({
      account_id: p.accountId,
      asset: p.symbol,
      quantity: p.quantity,
      allocated_quantity: p.allocatedQuantity,
      shortfall_quantity: p.shortfallQuantity,
      allocated_cost_basis_usd: p.allocatedCostBasisUsd,
      per_account_cost_basis_usd: p.perAccountCostBasisUsd,
      basis_change_usd: p.basisChangeUsd,
      applied: p.applied,
      lot_count: p.lots.length,
      per_account_lot_count: p.perAccountLots.length,
    })),
    assets: view.assets.map((a) => ({
      asset: a.symbol,
      pool_quantity: a.poolQuantity,
      pool_cost_basis_usd: a.poolCostBasisUsd,
      pool_unknown_basis_quantity: a.poolUnknownBasisQuantity,
      holdings_quantity: a.holdingsQuantity,
      allocated_quantity: a.allocatedQuantity,
      allocated_cost_basis_usd: a.allocatedCostBasisUsd,
      shortfall_quantity: a.shortfallQuantity,
      excess_quantity: a.excessQuantity,
      excess_cost_basis_usd: a.excessCostBasisUsd,
      per_account_cost_basis_usd: a.perAccountCostBasisUsd,
    })),
    lots: view.lots.map(lotDto),
    next_cursor: view.nextCursor,
  };
}

/** Additions to the published API (issue 19 item 6): the universal-to-per-wallet safe-harbor allocation. */
@ApiTags('Tax reporting')
@Scopes('partner')
@Controller('taip/safe-harbor-allocation')
export class SafeHarborController {
  constructor(private readonly safeHarbor: SafeHarborService) {}

  @Get()
  @ApiOperation({
    summary: 'The safe-harbor allocation of unused basis to the accounts on 2025-01-01',
    description: `The confirmed allocation (\`status: confirmed\`) if there is one, else the one proposed now from the history (\`proposed\`, not stored) under \`universal_method\`: per account and asset, the lots it starts 2025 with against its own per-account lots, and per asset the pool, holdings, shortfall and excess. ${PAGING} ${RULE} ${RULES}`,
  })
  @ApiOkResponse({ type: SafeHarborAllocationDto })
  @ApiBadRequestResponse({
    description:
      'A malformed parameter, a `limit` outside 1-1,000 or a cursor this service did not issue for this allocation and account (named in errors).',
  })
  @ApiNotFoundResponse({ description: 'The account does not exist for this tenant.' })
  async view(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: SafeHarborQueryDto,
  ): Promise<SafeHarborAllocationDto> {
    return toDto(
      await this.safeHarbor.view(client.tenantId, query.universal_method, query.account_id ?? null, {
        limit: query.limit,
        cursor: query.cursor,
      }),
    );
  }

  @Post()
  @HttpCode(201)
  @Audited('tenant.safe_harbor_allocation_confirmed')
  @ApiOperation({
    summary: 'Confirm the safe-harbor allocation (once)',
    description: `Stores the allocation proposed now (the same as GET shows) with who and when; from then on every account starts 2025 from its allocated lots (balances, gains report, Form 8949, lots, harvesting candidates). The balances are recomputed before the answer. A confirmed allocation is fixed: a second confirmation is a 409. The answer holds the first \`limit\` lot rows (query, default 100, at most 1,000); its \`next_cursor\` continues with GET (without \`account_id\`). ${RULES}`,
  })
  @ApiCreatedResponse({ type: SafeHarborAllocationDto })
  @ApiBadRequestResponse({ description: 'A malformed field or a `limit` outside 1-1,000 (named in errors).' })
  @ApiConflictResponse({ description: 'The tenant’s allocation is already confirmed.' })
  async confirm(
    @CurrentClient() client: AuthenticatedClient,
    @Body() body: ConfirmSafeHarborDto,
    @Query() query: ListLimitQueryDto,
  ): Promise<SafeHarborAllocationDto> {
    return toDto(
      await this.safeHarbor.confirm(client.tenantId, body.universal_method, client.clientId, query.limit),
    );
  }
}
