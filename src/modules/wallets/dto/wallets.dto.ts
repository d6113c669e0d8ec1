import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SYNC_STATUSES } from '../../accounts/index.js';
import { DEFAULT_WALLET_PAGE, MAX_WALLET_PAGE } from '../wallets.service.js';

/** Query-string integers: digits only; anything else stays a string and fails @IsInt. */
const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value;

export class WalletsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: `Page size: default ${DEFAULT_WALLET_PAGE}, from 1 to ${MAX_WALLET_PAGE}.`,
    minimum: 1,
    maximum: MAX_WALLET_PAGE,
    default: DEFAULT_WALLET_PAGE,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer.' })
  @Min(1, { message: `limit must be from 1 to ${MAX_WALLET_PAGE}.` })
  @Max(MAX_WALLET_PAGE, { message: `limit must be from 1 to ${MAX_WALLET_PAGE}.` })
  limit?: number;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page (opaque, tamper-evident).' })
  @IsOptional()
  @IsString({ message: 'cursor must be a string.' })
  @MaxLength(1000, { message: 'cursor is not a cursor this service issued.' })
  cursor?: string;
}

export class WalletDto {
  @ApiProperty({
    description: 'On-chain address of the wallet.',
    example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  })
  address: string;

  @ApiProperty({ description: 'Chain of the address.', example: 'bitcoin' })
  chain: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'BTC value of the wallet’s holdings, amount with unit (a bitcoin wallet: its BTC; other assets at the latest stored BTC price); null while no balances exist (see balances_unavailable).',
    example: '1.23456789 BTC',
  })
  btc_holdings: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Cost basis of the coins held (known-basis lots), currency text; null while no balances exist.',
    example: '$24,010.00',
  })
  cost_basis: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Unrealized gain (+) or loss (−) at the balances’ prices, signed currency text; null while no balances exist.',
    example: '+$12,345.67',
  })
  unrealized_pnl: string | null;

  @ApiProperty({ description: 'The wallet’s account (UUID).', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'Platform identifier of the account.', example: 'bitcoin' })
  platform: string;

  @ApiProperty({ enum: SYNC_STATUSES, description: 'Live sync state of the account.' })
  sync_status: string;

  @ApiProperty({
    description:
      'True when the balances flag a holding for review (e.g. coins of unknown basis, left out of the gain) or a holding has no price (left out of btc_holdings).',
  })
  needs_review: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['no_balances_yet', 'inconsistent_history', null],
    description:
      'Why the figures are null (the balances endpoint answers 422 for the account); null when they are given.',
  })
  balances_unavailable: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When the balances behind the figures were computed (ISO 8601).',
  })
  last_updated_on: string | null;
}

export class WalletPageDto {
  @ApiProperty({ type: [WalletDto], description: 'Wallets in the order they were linked.' })
  data: WalletDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Cursor of the next page; null when there is no further page.',
  })
  next_cursor: string | null;
}
