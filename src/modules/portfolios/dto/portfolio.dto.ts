import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsObject, IsString, MaxLength } from 'class-validator';

const ALLOCATIONS_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'number' },
  example: { BTC: 50, ETH: 30, SOL: 20 },
} as const;

/** Body of POST /api/portfolios and PUT /api/portfolios/{id}. */
export class SavePortfolioDto {
  @ApiProperty({ example: 'Core crypto', maxLength: 200, description: 'Display name (1-200 characters).' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({
    ...ALLOCATIONS_SCHEMA,
    description:
      'Asset symbol (ticker, any case; stored upper-case) → percentage. Non-negative JSON numbers summing to 100 (±0.01), ' +
      'each naming an asset the service tracks; kept with up to 8 decimals. PUT replaces all allocations.',
  })
  @IsObject()
  allocations: Record<string, number>;
}

export class PortfolioDto {
  @ApiProperty({ format: 'uuid', description: 'Assigned by the service.' })
  id: string;

  @ApiProperty({ example: 'Core crypto', description: 'Display name.' })
  name: string;

  @ApiProperty({
    ...ALLOCATIONS_SCHEMA,
    description: 'Upper-case symbol → percentage; the values sum to 100. Largest share first.',
  })
  allocations: Record<string, number>;
}

export class PortfolioWithScoreDto extends PortfolioDto {
  @ApiProperty({
    example: 76.29,
    nullable: true,
    type: Number,
    description:
      "The portfolio's qScore (0-100, as /api/calculate-portfolio-score computes it); null when its assets cannot be scored now (no stored market data, or an asset without enough history).",
  })
  qScore: number | null;
}
