import { ApiProperty } from '@nestjs/swagger';

export class MarketRefreshResultDto {
  @ApiProperty({
    enum: ['refreshed', 'partial', 'failed'],
    description:
      '`refreshed`: every tracked asset quoted; `partial`: some per-asset calls failed (in `errors`); `failed`: nothing written, the stored data is kept and served.',
  })
  status: 'refreshed' | 'partial' | 'failed';

  @ApiProperty({ enum: ['sandbox', 'coingecko'], description: 'The configured market-data provider.' })
  provider: string;

  @ApiProperty({ type: 'integer', description: 'Assets whose latest snapshot was written.' })
  quotedAssets: number;

  @ApiProperty({ type: 'integer', description: 'Daily history rows written (today’s included).' })
  historyRows: number;

  @ApiProperty({
    type: [String],
    description: 'Per-asset or whole-run failures (provider status and message).',
  })
  errors: string[];

  @ApiProperty({ format: 'date-time', description: 'When the run started.' })
  startedAt: string;

  @ApiProperty({ format: 'date-time', description: 'When the run finished.' })
  finishedAt: string;

  @ApiProperty({ type: 'integer', description: 'Wall-clock duration of the run in milliseconds.' })
  durationMs: number;
}
