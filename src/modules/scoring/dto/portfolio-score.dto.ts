import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ScoreTripleDto } from './asset-score.dto.js';

/**
 * Request of POST /api/calculate-portfolio-score: `btcAllocation`, `ethAllocation`,
 * `solAllocation` and any other `<symbol>Allocation` field (percentages summing to 100 ± 0.01).
 * Parsed by AllocationFieldsPipe, not by the global validation pipe, because the field names are
 * open-ended; this class documents the shape in Swagger.
 */
export class CalculatePortfolioScoreDto {
  @ApiPropertyOptional({ example: 50, description: 'Percentage of the portfolio in BTC (0-100).' })
  btcAllocation?: number;

  @ApiPropertyOptional({ example: 30, description: 'Percentage of the portfolio in ETH (0-100).' })
  ethAllocation?: number;

  @ApiPropertyOptional({ example: 20, description: 'Percentage of the portfolio in SOL (0-100).' })
  solAllocation?: number;
}

export class PortfolioScoreDto extends ScoreTripleDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    example: { BTC: 50, ETH: 30, SOL: 20 },
    description: 'Echo of the allocations: upper-case symbol → percentage.',
  })
  allocation: Record<string, number>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ScoreTripleDto) },
    description: "Upper-case symbol → that asset's own scores.",
  })
  breakdown: Record<string, ScoreTripleDto>;
}
