import { Controller, Get } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiInternalServerErrorResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Scopes } from '../../common/decorators/auth.decorators.js';
import { RateLimitBucket } from '../../common/guards/rate-limit.guard.js';
import { CoinGeckoIdsParam, MAX_IDS_PER_REQUEST } from './coingecko-ids.param.js';
import { MarketDataRecordDto } from './dto/market-data-record.dto.js';
import { toMarketDataRecordDto } from './market-data.mapper.js';
import { MarketDataService } from './market-data.service.js';

@ApiTags('Cryptoassets')
@Controller('api/crypto-data')
export class MarketDataController {
  constructor(private readonly marketData: MarketDataService) {}

  @Get(':symbols')
  @Scopes('partner')
  @RateLimitBucket('market')
  @ApiOperation({
    summary: 'Current market data for tracked cryptoassets',
    description:
      'Served from the stored copy (refreshed every few minutes), never fetched live. Unknown ids are left out. ' +
      'Each record says which provider its numbers came from and when they were fetched.',
  })
  @ApiParam({
    name: 'symbols',
    example: 'bitcoin,ethereum,solana',
    description: `Comma-separated CoinGecko ids (lower-case letters, digits and hyphens), at most ${MAX_IDS_PER_REQUEST}.`,
  })
  @ApiOkResponse({
    type: MarketDataRecordDto,
    isArray: true,
    description: 'One record per known id, in request order.',
  })
  @ApiBadRequestResponse({ description: 'Malformed id list or more than 50 ids.' })
  @ApiTooManyRequestsResponse({ description: 'Market-data rate limit exceeded; see Retry-After.' })
  @ApiInternalServerErrorResponse({
    description: 'No market data is stored yet (the first refresh has not completed).',
  })
  async records(@CoinGeckoIdsParam('symbols') ids: string[]): Promise<MarketDataRecordDto[]> {
    return (await this.marketData.records(ids)).map(toMarketDataRecordDto);
  }
}
