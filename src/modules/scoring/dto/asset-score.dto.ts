import { ApiProperty } from '@nestjs/swagger';

/** The three published scores, each 0-100 with two decimals (docs/scoring.md). */
export class ScoreTripleDto {
  @ApiProperty({
    example: 74.12,
    description: 'Quality: 0.6 × fScore + 0.4 × (100 − rScore); higher is better.',
  })
  qScore: number;

  @ApiProperty({
    example: 80.5,
    description: 'Fundamentals (size, liquidity, developer, community, supply dilution); higher is stronger.',
  })
  fScore: number;

  @ApiProperty({ example: 35.2, description: 'Risk (volatility, drawdown, illiquidity); HIGHER is RISKIER.' })
  rScore: number;
}

export class AssetScoreDto extends ScoreTripleDto {
  @ApiProperty({ example: 'BTC', description: 'Upper-case ticker.' })
  symbol: string;
}
