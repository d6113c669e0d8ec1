import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListPageQueryDto } from '../../../common/pagination/list-page.dto.js';
import { COST_BASIS_METHODS, type CostBasisMethod } from '../../../domain/cost-basis/index.js';

const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;

const UNIVERSAL_METHOD_MESSAGE = `universal_method must be one of: ${COST_BASIS_METHODS.join(', ')}.`;
const UNIVERSAL_METHOD_DESCRIPTION =
  'The method the taxpayer used over its universal pool (all accounts as one) before 2025. Default `fifo`.';

/** `universal_method`, `account_id`, and `limit`/`cursor` for the lots. */
export class SafeHarborQueryDto extends ListPageQueryDto {
  @ApiPropertyOptional({
    description: `${UNIVERSAL_METHOD_DESCRIPTION} Ignored once an allocation is confirmed (the confirmed one is shown).`,
    enum: [...COST_BASIS_METHODS],
    default: 'fifo',
  })
  @IsOptional()
  @Transform(lowerCase)
  @IsIn([...COST_BASIS_METHODS], { message: UNIVERSAL_METHOD_MESSAGE })
  universal_method?: CostBasisMethod;

  @ApiPropertyOptional({
    description: 'Only this account’s positions (UUID). Another tenant’s account answers 404.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(lowerCase)
  account_id?: string;
}

export class ConfirmSafeHarborDto {
  @ApiPropertyOptional({
    description: UNIVERSAL_METHOD_DESCRIPTION,
    enum: [...COST_BASIS_METHODS],
    default: 'fifo',
  })
  @IsOptional()
  @Transform(lowerCase)
  @IsIn([...COST_BASIS_METHODS], { message: UNIVERSAL_METHOD_MESSAGE })
  universal_method?: CostBasisMethod;
}

export class SafeHarborLotDto {
  @ApiProperty({ description: 'The account (position) the lot belongs to.', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  asset: string;

  @ApiProperty({
    enum: ['allocated', 'per_account'],
    description:
      '`allocated`: a lot the account starts 2025 with (its position’s allocation, a shortfall lot last); `per_account`: one of its own per-account lots at the end of 2024, for comparison. Per position, the allocated rows come first.',
  })
  kind: 'allocated' | 'per_account';

  @ApiProperty({
    description:
      'The transaction that opened the universal lot (a split lot keeps it); `safe-harbor-shortfall` for quantity the pool did not cover (unknown basis).',
    example: 'cb-buy-1',
  })
  origin_transaction_id: string;

  @ApiProperty({
    description: 'When the lot was acquired (ISO 8601, UTC).',
    example: '2024-01-10T00:00:00.000Z',
  })
  acquired_at: string;

  @ApiProperty({ description: 'Quantity, exact decimal text.', example: '0.5' })
  quantity: string;

  @ApiProperty({
    description: 'Basis of the quantity, exact decimal text (USD); `0` when unknown.',
    example: '20000',
  })
  cost_basis_usd: string;

  @ApiProperty({ description: 'Whether the basis is known.' })
  basis_known: boolean;
}

export class SafeHarborPositionDto {
  @ApiProperty({ description: 'The account.', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  asset: string;

  @ApiProperty({
    description: 'What the account holds on 2025-01-01 (its own history). Confirmed: at confirmation.',
    example: '2.5',
  })
  quantity: string;

  @ApiProperty({ description: 'Of it, covered by the universal pool’s lots.', example: '2.5' })
  allocated_quantity: string;

  @ApiProperty({
    description: 'Not covered by the pool: an unknown-basis lot. `0` when covered.',
    example: '0',
  })
  shortfall_quantity: string;

  @ApiProperty({
    description: 'Basis of the allocated lots (known basis), exact decimal text.',
    example: '105000',
  })
  allocated_cost_basis_usd: string;

  @ApiProperty({
    description:
      'Basis of the account’s own per-account lots at the end of 2024 (the history as it stands now).',
    example: '90000',
  })
  per_account_cost_basis_usd: string;

  @ApiProperty({ description: 'allocated − per-account basis.', example: '15000' })
  basis_change_usd: string;

  @ApiProperty({
    description:
      'Whether the engine uses these lots: the account still holds exactly the allocated quantity on 2025-01-01. false: the history changed since the confirmation and the position keeps its own lots (review it).',
  })
  applied: boolean;

  @ApiProperty({
    type: 'integer',
    description:
      'How many lots the account starts 2025 with (rows of `kind: allocated` in `lots`, over every page).',
    example: 3,
  })
  lot_count: number;

  @ApiProperty({
    type: 'integer',
    description:
      'How many per-account lots it held at the end of 2024 (rows of `kind: per_account` in `lots`, over every page).',
    example: 2,
  })
  per_account_lot_count: number;
}

export class SafeHarborAssetDto {
  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  asset: string;

  @ApiProperty({
    description: 'The universal pool’s open quantity at the end of 2024-12-31.',
    example: '2.5',
  })
  pool_quantity: string;

  @ApiProperty({ description: 'Its basis (known-basis lots).', example: '130000' })
  pool_cost_basis_usd: string;

  @ApiProperty({ description: 'Pool quantity of unknown basis (included in pool_quantity).', example: '0' })
  pool_unknown_basis_quantity: string;

  @ApiProperty({ description: 'Σ of the accounts’ holdings on 2025-01-01.', example: '2.5' })
  holdings_quantity: string;

  @ApiProperty({ description: 'Σ allocated quantity.', example: '2.5' })
  allocated_quantity: string;

  @ApiProperty({ description: 'Σ allocated basis.', example: '130000' })
  allocated_cost_basis_usd: string;

  @ApiProperty({ description: 'Holdings the pool did not cover (unknown-basis lots).', example: '0' })
  shortfall_quantity: string;

  @ApiProperty({
    description: 'Pool quantity left when every account was filled: allocated to no one.',
    example: '0',
  })
  excess_quantity: string;

  @ApiProperty({ description: 'Basis of the excess.', example: '0' })
  excess_cost_basis_usd: string;

  @ApiProperty({ description: 'Σ of the accounts’ own per-account basis.', example: '120000' })
  per_account_cost_basis_usd: string;
}

export class SafeHarborAllocationDto {
  @ApiProperty({
    enum: ['proposed', 'confirmed'],
    description: '`proposed`: computed now, not stored; `confirmed`: stored, in use.',
  })
  status: 'proposed' | 'confirmed';

  @ApiProperty({ description: 'The first instant of per-wallet basis.', example: '2025-01-01T00:00:00.000Z' })
  transition_at: string;

  @ApiProperty({
    enum: [...COST_BASIS_METHODS],
    description: 'The method over the universal pool before 2025.',
  })
  universal_method: CostBasisMethod;

  @ApiProperty({
    description:
      'The rule: the pool’s lots oldest first fill the accounts in the order they were linked (created_on, then id), each receiving exactly what it holds on 2025-01-01; a lot is split pro rata.',
  })
  rule: string;

  @ApiProperty({
    description:
      'The first sale, fee, withdrawal or transfer out on or after 2025-01-01 (ISO 8601); null: none.',
    nullable: true,
    type: String,
  })
  first_disposal_at: string | null;

  @ApiProperty({ description: 'When it was confirmed; null while proposed.', nullable: true, type: String })
  confirmed_at: string | null;

  @ApiProperty({
    description: 'The API client that confirmed it; null while proposed.',
    nullable: true,
    type: String,
  })
  confirmed_by: string | null;

  @ApiProperty({
    description:
      'Whether the confirmation came after the first 2025 disposal (Rev. Proc. 2024-28 wants the allocation fixed before it); null while proposed.',
    nullable: true,
    type: Boolean,
  })
  confirmed_after_first_disposal: boolean | null;

  @ApiProperty({
    description: 'The account asked for; null: every account of the tenant.',
    nullable: true,
    type: String,
  })
  account_id: string | null;

  @ApiProperty({
    type: [SafeHarborPositionDto],
    description: 'Per account and asset, in fill order: every position, whatever the page of lots.',
  })
  positions: SafeHarborPositionDto[];

  @ApiProperty({
    type: [SafeHarborAssetDto],
    description: 'Per asset (always the whole tenant): pool, holdings, allocation, shortfall and excess.',
  })
  assets: SafeHarborAssetDto[];

  @ApiProperty({
    type: [SafeHarborLotDto],
    description:
      'One page of the positions’ lots, position by position in the order of `positions`: its allocated lots (oldest first, a shortfall lot last), then its own per-account lots.',
  })
  lots: SafeHarborLotDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Pass as `cursor` to GET (same `account_id`; the same `universal_method` while proposed) for the next page of lots; null on the last page.',
  })
  next_cursor: string | null;
}
