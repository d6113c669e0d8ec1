import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { UuidParam } from '../../common/validation/validation.js';
import { PortfolioDto, PortfolioWithScoreDto, SavePortfolioDto } from './dto/portfolio.dto.js';
import { toPortfolioDto, toPortfolioWithScoreDto } from './portfolios.mapper.js';
import { PortfoliosService } from './portfolios.service.js';

const ID_PARAM = {
  name: 'id',
  format: 'uuid',
  description: 'Portfolio id (a UUID; anything else is a 400).',
};

@ApiTags('Portfolios')
@Scopes('partner')
@Controller('api/portfolios')
export class PortfoliosController {
  constructor(private readonly portfolios: PortfoliosService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's portfolios, oldest first",
    description:
      "Every model portfolio of the caller's tenant, with its allocations (percentages summing to 100). Used by the qScore and the projections.",
  })
  @ApiOkResponse({ type: PortfolioDto, isArray: true })
  async list(@CurrentClient() client: AuthenticatedClient): Promise<PortfolioDto[]> {
    return (await this.portfolios.list(client.tenantId)).map(toPortfolioDto);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a portfolio',
    description:
      'A named model portfolio: allocations by asset symbol in percent, summing to 100 (±0.01), each between 0 and 100. Assets must be ones the service prices.',
  })
  @ApiCreatedResponse({ type: PortfolioDto })
  @ApiBadRequestResponse({
    description:
      'Allocations not summing to 100 (±0.01), negative, naming an unknown asset, or a missing field.',
  })
  async create(
    @CurrentClient() client: AuthenticatedClient,
    @Body() body: SavePortfolioDto,
  ): Promise<PortfolioDto> {
    return toPortfolioDto(await this.portfolios.create(client.tenantId, body));
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One portfolio with its qScore',
    description:
      "The portfolio with its qScore computed now from its allocations and the assets' current scores (docs/scoring.md).",
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PortfolioWithScoreDto })
  @ApiNotFoundResponse({ description: 'No such portfolio for this tenant.' })
  async get(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
  ): Promise<PortfolioWithScoreDto> {
    return toPortfolioWithScoreDto(await this.portfolios.get(client.tenantId, id));
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Rename a portfolio and replace all its allocations',
    description:
      'Replaces the name and the whole list of allocations (not a merge): send every allocation the portfolio keeps, summing to 100.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PortfolioDto })
  @ApiBadRequestResponse({ description: 'Invalid allocations or a missing field.' })
  @ApiNotFoundResponse({ description: 'No such portfolio for this tenant.' })
  async replace(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
    @Body() body: SavePortfolioDto,
  ): Promise<PortfolioDto> {
    return toPortfolioDto(await this.portfolios.replace(client.tenantId, id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a portfolio and its allocations',
    description:
      "Removes the portfolio of the caller's tenant; 204 without a body, 404 when the tenant has no such portfolio.",
  })
  @ApiParam(ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiNotFoundResponse({ description: 'No such portfolio for this tenant.' })
  async remove(@CurrentClient() client: AuthenticatedClient, @UuidParam('id') id: string): Promise<void> {
    await this.portfolios.delete(client.tenantId, id);
  }
}
