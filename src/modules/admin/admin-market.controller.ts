import { Audited } from '../../common/decorators/audited.decorator.js';
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../../common/decorators/auth.decorators.js';
import { AdminMarketService } from './admin-market.service.js';
import { MarketRefreshResultDto } from './dto/admin-market.dto.js';

@ApiTags('Admin: market data')
@Controller('admin/market')
@Scopes('admin')
export class AdminMarketController {
  constructor(private readonly market: AdminMarketService) {}

  @Post('refresh')
  @Audited('market.refreshed')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Refresh market data now',
    description:
      'Runs the scheduled market-data refresh at once (ignoring its 5-minute interval) from the configured provider and answers when it has finished, with what it wrote. A failed provider keeps the stored data (`status: failed`, reasons in `errors`).',
  })
  @ApiOkResponse({ type: MarketRefreshResultDto, description: 'The run finished; what it wrote.' })
  @ApiConflictResponse({
    description:
      'A refresh is already running (the scheduler’s or another admin’s, on any instance); nothing was started. `detail` says since when.',
  })
  refresh(): Promise<MarketRefreshResultDto> {
    return this.market.refreshNow();
  }
}
