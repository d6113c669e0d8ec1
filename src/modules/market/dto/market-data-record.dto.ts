import { ApiProperty } from '@nestjs/swagger';

/** The spec's market data record (16 fields) plus provenance: source, asOf, scoreInputsSource. */
export class MarketDataRecordDto {
  @ApiProperty({ type: 'integer', example: 1, description: "The service's stable integer id of the asset." })
  id: number;

  @ApiProperty({ example: 'BTC', description: 'Upper-case ticker.' })
  symbol: string;

  @ApiProperty({ example: 'Bitcoin', description: 'Asset name.' })
  name: string;

  @ApiProperty({ example: 94000.12, description: 'Price in USD.' })
  price: number;

  @ApiProperty({
    example: 1861202376000,
    nullable: true,
    type: Number,
    description: 'Market capitalisation in USD; null when the provider does not report it.',
  })
  marketCap: number | null;

  @ApiProperty({
    example: 1,
    nullable: true,
    type: 'integer',
    description:
      'Rank by market capitalisation (1 = largest); among the sandbox assets for sandbox data. Null when unranked.',
  })
  marketCapRank: number | null;

  @ApiProperty({ example: 19800000, nullable: true, type: Number, description: 'Coins in circulation.' })
  circulatingSupply: number | null;

  @ApiProperty({
    example: 19800000,
    nullable: true,
    type: Number,
    description: 'Coins in existence (circulating plus locked); null when unknown.',
  })
  totalSupply: number | null;

  @ApiProperty({
    example: 21000000,
    nullable: true,
    type: Number,
    description: 'Hard cap on supply; null for an uncapped asset such as ETH (never a made-up 0).',
  })
  maxSupply: number | null;

  @ApiProperty({
    example: 46530059400,
    nullable: true,
    type: Number,
    description: 'Trading volume over 24 hours in USD.',
  })
  volume24h: number | null;

  @ApiProperty({
    example: 0.512345,
    nullable: true,
    type: Number,
    description:
      'Annualized standard deviation of daily log returns over the last 30 days of stored history, as a fraction (0.51 = 51 %). Null with fewer than 3 stored days.',
  })
  volatility: number | null;

  @ApiProperty({
    example: 98.85,
    description:
      'Derived by the service (0-100) from social reach; CoinGecko no longer publishes it. See docs/scoring.md.',
  })
  communityScore: number;

  @ApiProperty({
    example: 89.94,
    description: 'Derived by the service (0-100) from repository activity; see docs/scoring.md.',
  })
  developerScore: number;

  @ApiProperty({
    example: 69.76,
    description: 'Derived by the service (0-100) from 24h turnover and rank; see docs/scoring.md.',
  })
  liquidityScore: number;

  @ApiProperty({
    example: 90.1,
    description: 'Derived by the service (0-100) from rank and social reach; see docs/scoring.md.',
  })
  publicInterestScore: number;

  @ApiProperty({
    example: '2026-04-01T12:00:00.000Z',
    description: 'When the provider last updated these numbers (ISO 8601, UTC).',
  })
  lastUpdated: string;

  @ApiProperty({
    enum: ['sandbox', 'coingecko'],
    description:
      'Provenance: the provider the numbers came from. `sandbox` is synthetic data, not market data.',
  })
  source: 'sandbox' | 'coingecko';

  @ApiProperty({
    example: '2026-04-01T12:00:05.000Z',
    description: 'Provenance: when this service fetched the numbers from the provider (ISO 8601, UTC).',
  })
  asOf: string;

  @ApiProperty({
    enum: ['sandbox', 'coingecko', 'catalog', 'none'],
    description:
      "Provenance of the developer/community counts behind the derived scores: the provider, the service's reference catalog (used when the provider publishes none), or none (counted as zero).",
  })
  scoreInputsSource: 'sandbox' | 'coingecko' | 'catalog' | 'none';
}
