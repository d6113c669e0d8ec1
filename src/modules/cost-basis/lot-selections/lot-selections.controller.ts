import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Audited } from '../../../common/decorators/audited.decorator.js';
import { CurrentClient, Scopes } from '../../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../../common/http/request-context.js';
import { UuidParam } from '../../../common/validation/validation.js';
import {
  CreateLotSelectionDto,
  LotSelectionDto,
  LotSelectionListDto,
  LotSelectionsQueryDto,
} from '../dto/lot-selection.dto.js';
import { LotSelectionsService, type LotSelectionView } from './lot-selections.service.js';

const toDto = (s: LotSelectionView): LotSelectionDto => ({
  id: s.id,
  account_id: s.accountId,
  transaction_id: s.transactionId,
  lots: s.lots.map((pick) => ({ lot_id: pick.lotId, quantity: pick.quantity })),
  recorded_at: s.recordedAt.toISOString(),
  recorded_by: s.recordedBy,
  disposed_at: s.disposedAt?.toISOString() ?? null,
  identified_late: s.identifiedLate,
});

const RULES = 'An addition to the published API; rules: docs/cost-basis.md, "Specific identification".';

/** Additions to the published API (issue 19 item 2): specific identification of the lots a disposal consumes. */
@ApiTags('Tax reporting')
@Scopes('partner')
@Controller('taip/lot-selections')
export class LotSelectionsController {
  constructor(private readonly selections: LotSelectionsService) {}

  @Post()
  @HttpCode(201)
  @Audited('account.lot_selection_recorded', { target: { body: 'account_id' } })
  @ApiOperation({
    summary: 'Select the lots a disposal consumes (specific identification)',
    description: `Records which open lots (by \`lot_id\`, as \`GET /taip/lots\` names them) a sell, fee, withdrawal or transfer_out of the account consumes, in order; it replaces the disposal's earlier selection. Checked against the lots open just before the disposal. Recorded by the time of the disposal, it applies: balances are recomputed under it before the answer; the gains report, Form 8949 and lots honour it under every method. Recorded after the disposal (the usual case for a sale already in the history), it is a late identification (Treas. Reg. §1.1012-1(j)(3)): kept with \`identified_late: true\` but not applied, the standing method keeps choosing the lots and the year's Form 8949 needs review; refused (409) for a tax year whose gains report or Form 8949 was snapshotted. ${RULES}`,
  })
  @ApiCreatedResponse({ type: LotSelectionDto })
  @ApiBadRequestResponse({
    description:
      'A malformed field; a transaction that is not a disposal of the account; a lot not open in the account just before the disposal or acquired after it; a lot asked for more than it holds; quantities not adding up to the disposal (the field or lot is named in errors).',
  })
  @ApiNotFoundResponse({ description: 'The account does not exist for this tenant.' })
  @ApiConflictResponse({
    description:
      'A late identification (recorded after the disposal) for a tax year whose gains report or Form 8949 of the account (or the tenant) was snapshotted: `errors.transaction_id` says which snapshot, `reason` is `identified_late_in_snapshotted_year`. Nothing is recorded.',
  })
  async create(
    @CurrentClient() client: AuthenticatedClient,
    @Body() body: CreateLotSelectionDto,
  ): Promise<LotSelectionDto> {
    return toDto(
      await this.selections.create(client.tenantId, {
        accountId: body.account_id,
        transactionId: body.transaction_id,
        lots: body.lots.map((pick) => ({ lotId: pick.lot_id, quantity: pick.quantity })),
        recordedBy: client.clientId,
      }),
    );
  }

  @Get()
  @ApiOperation({ summary: 'The lot selections of an account', description: RULES })
  @ApiOkResponse({ type: LotSelectionListDto })
  @ApiBadRequestResponse({ description: 'A malformed parameter (named in errors).' })
  @ApiNotFoundResponse({ description: 'The account does not exist for this tenant.' })
  async list(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: LotSelectionsQueryDto,
  ): Promise<LotSelectionListDto> {
    const list = await this.selections.list(client.tenantId, query.account_id);
    return { account_id: query.account_id, selections: list.map(toDto) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Audited('account.lot_selection_deleted')
  @ApiOperation({
    summary: 'Delete a lot selection',
    description: `The disposal goes back to the method in force; balances are recomputed before the answer. ${RULES}`,
  })
  @ApiParam({ name: 'id', description: 'The selection (UUID).', format: 'uuid' })
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiBadRequestResponse({ description: 'id is not a UUID.' })
  @ApiNotFoundResponse({ description: 'No such selection for this tenant.' })
  async remove(@CurrentClient() client: AuthenticatedClient, @UuidParam('id') id: string): Promise<void> {
    await this.selections.delete(client.tenantId, id);
  }
}
