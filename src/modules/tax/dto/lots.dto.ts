import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { ListPageQueryDto } from '../../../common/pagination/list-page.dto.js';
import { COST_BASIS_METHODS, type CostBasisMethod } from '../../../domain/cost-basis/index.js';
import { TaxReportQueryDto } from './tax-queries.dto.js';

/**
 * `account_id` or `identity` (default: the tenant), `asset`, `method`: as for the gains report,
 * without a year; `limit` and `cursor` (the lots are paged).
 */
export class LotsQueryDto extends IntersectionType(
  OmitType(TaxReportQueryDto, ['tax_year'] as const),
  ListPageQueryDto,
) {}

export class HarvestingQueryDto extends LotsQueryDto {
  @ApiPropertyOptional({
    description:
      'Only lots losing at least this much (USD, decimal text ≥ 0, at most 2 fraction digits). Default `0`: every loss.',
    example: '100',
    default: '0',
  })
  @IsOptional()
  @Matches(/^\d{1,15}(\.\d{1,2})?$/, {
    message: 'min_loss must be a USD amount ≥ 0 with at most 2 fraction digits, e.g. 100 or 99.50.',
  })
  min_loss?: string;

  @ApiPropertyOptional({
    description:
      'Wash-sale rules (IRC §1091) do not apply to digital assets today. `ignore` (default) says so; `assume` shows what they would disallow if they did (docs/tax-report.md, "Harvesting candidates").',
    enum: ['ignore', 'assume'],
    default: 'ignore',
  })
  @IsOptional()
  @IsIn(['ignore', 'assume'], { message: 'wash_sale must be ignore or assume.' })
  wash_sale?: 'ignore' | 'assume';
}

export class LotDto {
  @ApiProperty({
    description:
      'The lot: the id of the transaction that opened it (kept across transfers between own accounts); a second lot of one origin in one account is `<id>#2`. Stable while the history does not change.',
    example: '3f1c9a7e-5b2d-4c8e-9f00-1a2b3c4d5e6f',
  })
  lot_id: string;

  @ApiProperty({ description: 'The account holding the lot.', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  asset: string;

  @ApiProperty({
    description: 'When the lot was acquired (ISO 8601, UTC).',
    example: '2024-11-10T00:00:00.000Z',
  })
  acquired_at: string;

  @ApiProperty({ description: 'Quantity still open, decimal text.', example: '1.5' })
  quantity: string;

  @ApiProperty({ description: 'Whether the basis is known (a deposit from outside has none).' })
  basis_known: boolean;

  @ApiProperty({
    description:
      'Cost basis of the open quantity, exact decimal text in USD; `0` when basis_known is false (unknown, not zero).',
    example: '30007.5',
  })
  cost_basis_usd: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Latest stored price (USD per unit, decimal text); null when none is stored.',
    example: '60000',
  })
  price_usd: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When the provider observed that price (ISO 8601); null without a price.',
  })
  price_as_of: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'quantity × price, exact decimal text in USD; null without a price.',
    example: '90000',
  })
  market_value_usd: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'market value − cost basis, exact decimal text in USD; null without a price or a known basis.',
    example: '59992.5',
  })
  unrealized_gain_usd: string | null;

  @ApiProperty({
    enum: ['short', 'long'],
    description: 'The term of a sale today (UTC date): `long` when held more than one year.',
  })
  term: 'short' | 'long';

  @ApiProperty({
    description: 'The first UTC date (YYYY-MM-DD) on which a sale of the lot is long-term.',
    example: '2025-11-11',
  })
  long_term_from: string;
}

export class LotTotalsDto {
  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  asset: string;

  @ApiProperty({ type: 'integer', description: 'Open lots of the asset.', example: 2 })
  lots: number;

  @ApiProperty({ description: 'Open quantity, decimal text: the balances’ `balance`.', example: '2.5' })
  quantity: string;

  @ApiProperty({ description: 'Open quantity whose basis is unknown, decimal text.', example: '0' })
  unknown_basis_quantity: string;

  @ApiProperty({
    description:
      'Basis of the known-basis lots, exact decimal text in USD: the balances’ costBasis before rounding.',
    example: '100007.5',
  })
  cost_basis_usd: string;

  @ApiProperty({ type: String, nullable: true, description: 'Market value, exact; null without a price.' })
  market_value_usd: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Unrealized gain of the known-basis lots, exact; null without a price.',
  })
  unrealized_gain_usd: string | null;
}

class LotsScopeDto {
  @ApiProperty({ description: 'The instant the lots are valued at and their terms judged (ISO 8601).' })
  as_of: string;

  @ApiProperty({ enum: [...COST_BASIS_METHODS], description: 'Lot selection used for past disposals.' })
  method: CostBasisMethod;
  @ApiProperty({
    description:
      'Where the lots were selected from: `query` (the `method` asked for, a what-if over the whole history), `elected` (each disposal by the method elected for its account on its date; `method` is the one in force for the scope at the end), `default` (no election: FIFO).',
    enum: ['query', 'elected', 'default'],
  })
  method_source: 'query' | 'elected' | 'default';

  @ApiProperty({ description: 'The asset asked for, or `ALL`.', example: 'ALL' })
  asset: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The account asked for (account_id or identity); null: every account of the tenant.',
  })
  account_id: string | null;

  @ApiProperty({ type: 'integer', description: 'Accounts covered.', example: 1 })
  accounts: number;
}

export class LotsReportDto extends LotsScopeDto {
  @ApiProperty({
    type: [LotDto],
    description:
      'Open lots per account and asset, in the order the method would sell them on `as_of` (the method in force then; LTFO: the lots long-term on that date first, then the short-term ones, each highest unit basis first).',
  })
  lots: LotDto[];

  @ApiProperty({
    type: [LotTotalsDto],
    description:
      'Per asset: every lot summed, whatever the page (they equal the balances; `lots` counts them all).',
  })
  totals: LotTotalsDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Pass as `cursor` (with the same other parameters) for the next page of lots; null on the last page.',
  })
  next_cursor: string | null;
}

export class HarvestingCandidateDto extends LotDto {
  @ApiProperty({
    description: 'The loss a sale at the price would realize now (USD, exact, > 0).',
    example: '10000',
  })
  loss_usd: string;

  @ApiProperty({
    description: 'loss_usd less what wash-sale rules would disallow (= loss_usd with wash_sale=ignore).',
    example: '10000',
  })
  allowable_loss_usd: string;

  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['window_from', 'replacement_quantity', 'disallowed_loss_usd'],
    properties: {
      window_from: { type: 'string', description: 'as_of − 30 days (ISO 8601).' },
      replacement_quantity: {
        type: 'string',
        description:
          'Quantity of the asset bought in the window by the accounts covered, other than this lot’s own purchase.',
      },
      disallowed_loss_usd: {
        type: 'string',
        description:
          'loss × min(1, replacement ÷ lot quantity): what §1091 would disallow, this lot sold alone.',
      },
    },
    description: 'What wash-sale rules would disallow, were they applied; null with wash_sale=ignore.',
  })
  wash_sale: { window_from: string; replacement_quantity: string; disallowed_loss_usd: string } | null;
}

export class HarvestingReportDto extends LotsScopeDto {
  @ApiProperty({ description: 'The threshold applied (USD).', example: '0' })
  min_loss_usd: string;

  @ApiProperty({ enum: ['ignore', 'assume'], description: 'How wash-sale rules were treated.' })
  wash_sale: 'ignore' | 'assume';

  @ApiProperty({
    type: [HarvestingCandidateDto],
    description: 'One page of the lots at a loss, largest loss first.',
  })
  candidates: HarvestingCandidateDto[];

  @ApiProperty({
    type: 'integer',
    description: 'Candidates over every page (the losses below sum all of them).',
    example: 2,
  })
  candidate_lots: number;

  @ApiProperty({
    description: 'Sum of the short-term candidates’ losses, every page (USD, exact).',
    example: '10500',
  })
  short_term_loss_usd: string;

  @ApiProperty({
    description: 'Sum of the long-term candidates’ losses, every page (USD, exact).',
    example: '0',
  })
  long_term_loss_usd: string;

  @ApiProperty({
    description: 'Sum of the candidates’ allowable losses, every page (USD, exact).',
    example: '10500',
  })
  allowable_loss_usd: string;

  @ApiProperty({ type: 'integer', description: 'Lots left out: their basis is unknown.', example: 0 })
  unknown_basis_lots: number;

  @ApiProperty({
    type: 'integer',
    description: 'Lots left out: no price is stored for their asset.',
    example: 0,
  })
  unpriced_lots: number;

  @ApiProperty({ description: 'What the figures assume, in words.' })
  note: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Pass as `cursor` (with the same other parameters) for the next page of candidates; null on the last page.',
  })
  next_cursor: string | null;
}
