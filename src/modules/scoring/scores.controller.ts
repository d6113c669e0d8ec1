import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiExtraModels,
  ApiInternalServerErrorResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Scopes } from '../../common/decorators/auth.decorators.js';
import { AllocationFieldsPipe, type AllocationFields } from './allocation-fields.pipe.js';
import { AssetScoringService } from './asset-scoring.service.js';
import { AssetScoreDto, ScoreTripleDto } from './dto/asset-score.dto.js';
import { CalculatePortfolioScoreDto, PortfolioScoreDto } from './dto/portfolio-score.dto.js';
import { toAssetScoreDto, toPortfolioScoreDto } from './scoring.mapper.js';

@ApiTags('QScore')
@ApiExtraModels(ScoreTripleDto)
@Controller('api')
export class ScoresController {
  constructor(private readonly scoring: AssetScoringService) {}

  @Get('scores')
  @Scopes('partner')
  @ApiOperation({
    summary: 'Q, F and R scores of every tracked asset',
    description: 'From stored market data; largest market cap first. Formulas: docs/scoring.md.',
  })
  @ApiOkResponse({ type: AssetScoreDto, isArray: true })
  @ApiInternalServerErrorResponse({ description: 'No market data is stored yet.' })
  async scores(): Promise<AssetScoreDto[]> {
    return (await this.scoring.scoreAssets()).map(toAssetScoreDto);
  }

  @Post('calculate-portfolio-score')
  @HttpCode(200)
  @Scopes('partner')
  @ApiOperation({
    summary: 'Score a portfolio given as percentage allocations',
    description:
      'Body: `btcAllocation`, `ethAllocation`, `solAllocation` and any other `<symbol>Allocation` field (JSON numbers, ' +
      'percentages, non-negative, summing to 100 ± 0.01). An omitted field means none of that asset. Portfolio risk ' +
      'uses the covariance of the assets’ daily returns, not a weighted average.',
  })
  @ApiBody({ type: CalculatePortfolioScoreDto })
  @ApiOkResponse({ type: PortfolioScoreDto })
  @ApiBadRequestResponse({
    description:
      'Allocations not summing to 100 (±0.01), negative or non-numeric, an unknown field, or an asset without score data; `errors` names the field.',
  })
  @ApiInternalServerErrorResponse({ description: 'No market data is stored yet.' })
  async calculate(@Body(AllocationFieldsPipe) fields: AllocationFields): Promise<PortfolioScoreDto> {
    const score = await this.scoring.scoreAllocation(fields.allocation, {
      fieldFor: (symbol) => fields.fieldBySymbol.get(symbol) ?? `${symbol.toLowerCase()}Allocation`,
    });
    return toPortfolioScoreDto(score);
  }
}
