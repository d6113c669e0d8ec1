import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsUUID } from 'class-validator';
import { SYNC_STATUSES } from '../../accounts/index.js';

export class PortfolioSummaryQueryDto {
  @ApiPropertyOptional({
    description: 'Restrict the summary to this linked account (UUID). Another tenant’s account answers 404.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  account_id?: string;
}

export class ExcludedAccountDto {
  @ApiProperty({ description: 'Account left out of btc_balance and usd_value (UUID).', format: 'uuid' })
  account_id: string;

  @ApiProperty({
    description:
      '`no_balances_yet`: not synchronised yet (or reconnect required with nothing cached); `inconsistent_history`: a gap in its history leaves no honest balances (its balances answer 422).',
    enum: ['no_balances_yet', 'inconsistent_history'],
  })
  reason: string;
}

export class PortfolioSummaryDto {
  @ApiProperty({ description: 'BTC held across the accounts, amount with unit.', example: '1.23456789 BTC' })
  btc_balance: string;

  @ApiProperty({
    description: 'Market value of every holding at the balances’ stored prices, currency text.',
    example: '$123,456.78',
  })
  usd_value: string;

  @ApiProperty({
    type: [String],
    description: 'Platforms of the accounts (exchanges and chains), sorted.',
    example: ['bitcoin', 'coinbase', 'kraken'],
  })
  exchanges: string[];

  @ApiProperty({
    enum: SYNC_STATUSES,
    description:
      'Live sync state rolled up from the accounts, worst first: reconnect_required > error > syncing > synced.',
  })
  sync_status: string;

  @ApiProperty({ type: 'integer', description: 'Accounts in the summary.', example: 12 })
  accounts: number;

  @ApiProperty({
    type: [ExcludedAccountDto],
    description: 'Accounts whose balances are not in btc_balance and usd_value, and why.',
  })
  excluded_accounts: ExcludedAccountDto[];

  @ApiProperty({
    type: [String],
    description: 'Assets held without a stored price: not in usd_value.',
    example: [],
  })
  unpriced_assets: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When the oldest balances in the sums were computed (ISO 8601); null when none.',
  })
  last_updated_on: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Age of the oldest balances in seconds; null when none.',
  })
  cache_age_seconds: number | null;
}
