import { AuditedRead } from '../../common/decorators/audited.decorator.js';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { formatAmountWithUnit, formatSignedUsd, formatUsd } from '../../domain/money/format.js';
import { WalletPageDto, WalletsQueryDto, type WalletDto } from './dto/wallets.dto.js';
import { WalletsService, type WalletView } from './wallets.service.js';

function toWalletDto(view: WalletView): WalletDto {
  return {
    // Listed accounts always have both (listOnChainPage's condition).
    address: view.account.address ?? '',
    chain: view.account.chain ?? '',
    btc_holdings: view.btcHoldings === null ? null : formatAmountWithUnit(view.btcHoldings, 'BTC'),
    cost_basis: view.costBasisUsd === null ? null : formatUsd(view.costBasisUsd),
    unrealized_pnl: view.unrealizedGainUsd === null ? null : formatSignedUsd(view.unrealizedGainUsd),
    account_id: view.account.id,
    platform: view.account.platform,
    sync_status: view.account.syncStatus,
    needs_review: view.needsReview,
    balances_unavailable: view.unavailableReason,
    last_updated_on: view.lastUpdatedOn?.toISOString() ?? null,
  };
}

@ApiTags('Wallet tracking')
@Scopes('partner')
@Controller('qeychain')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Get('wallets')
  @AuditedRead('account.read.wallets')
  @ApiOperation({
    summary: 'The tenant’s on-chain wallets with holdings, cost basis and unrealized gain',
    description:
      'Accounts with an address and chain, in the order they were linked. Keyset pages: pass `next_cursor` as `cursor`; it is opaque and signed (a changed cursor is a 400), and a deep page costs the same as the first.',
  })
  @ApiOkResponse({ type: WalletPageDto })
  @ApiBadRequestResponse({
    description: 'limit below 1 or above 200, or a cursor this service did not issue (named in errors).',
  })
  async list(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: WalletsQueryDto,
  ): Promise<WalletPageDto> {
    const page = await this.wallets.page(client.tenantId, query.limit, query.cursor);
    return { data: page.wallets.map(toWalletDto), next_cursor: page.nextCursor };
  }
}
