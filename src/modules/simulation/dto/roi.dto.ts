import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { AssetAssumptionDto } from './assumptions.dto.js';
import { MAX_PRINCIPAL_USD } from './simulate.dto.js';

/** Query-string integers: digits only; anything else stays a string and fails @IsInt. */
const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value;

/** Plain positive decimal text (kept as text: money never becomes a float before the edge). */
@ValidatorConstraint({ name: 'principalUsd' })
class PrincipalUsd implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string' || !/^\d{1,13}(\.\d{1,8})?$/.test(value)) return false;
    const amount = Number(value);
    return amount > 0 && amount <= MAX_PRINCIPAL_USD;
  }

  defaultMessage(): string {
    return `principal_usd is required: a number greater than 0 and at most ${MAX_PRINCIPAL_USD}, e.g. 10000.`;
  }
}

export class RoiQueryDto {
  @ApiProperty({ description: 'Principal in USD, a number > 0.', example: 10000, type: Number })
  @Validate(PrincipalUsd)
  principal_usd: string;

  @ApiProperty({
    description: 'Horizon in whole years, 1-50.',
    example: 10,
    minimum: 1,
    maximum: 50,
    type: 'integer',
  })
  @IsDefined({ message: 'horizon_years is required: an integer from 1 to 50.' })
  @Transform(toInteger)
  @IsInt({ message: 'horizon_years must be an integer from 1 to 50.' })
  @Min(1, { message: 'horizon_years must be an integer from 1 to 50.' })
  @Max(50, { message: 'horizon_years must be an integer from 1 to 50.' })
  horizon_years: number;

  @ApiPropertyOptional({
    description: 'Asset to project (ticker with stored history); default BTC.',
    example: 'BTC',
    default: 'BTC',
  })
  @IsOptional()
  @IsString({ message: 'symbol must be a ticker.' })
  @Matches(/^[A-Za-z0-9]{1,20}$/, { message: 'symbol must be a ticker of 1-20 letters or digits, e.g. BTC.' })
  symbol?: string;
}

export class RoiProjectionDto {
  @ApiProperty({ description: 'Principal in USD, as given.', example: 10000 })
  principal_usd: number;

  @ApiProperty({ type: 'integer', description: 'Horizon in years.', example: 10 })
  horizon_years: number;

  @ApiProperty({ description: 'Principal × (1 + cagr)^horizon_years, currency text.', example: '$25,937.42' })
  terminal_usd: string;

  @ApiProperty({
    description:
      'Base-case CAGR: the asset’s expected compound annual return from its return assumption (your firm’s, or the historical mean shrunk toward the risk-free rate), percentage text.',
    example: '12.10%',
  })
  cagr: string;

  @ApiProperty({ description: 'cagr − benchmark CAGR, signed percentage text.', example: '+2.10%' })
  benchmark_diff: string;

  @ApiProperty({
    description:
      'Benchmark CAGR compared with (ROI_BENCHMARK_CAGR; default US large-cap equities, 10%), percentage text.',
    example: '10.00%',
  })
  benchmark_cagr: string;

  @ApiProperty({ description: 'Asset projected.', example: 'BTC' })
  symbol: string;

  @ApiProperty({
    description: 'First day of the daily history the assumption was estimated from.',
    example: '2016-03-15',
  })
  history_from: string;

  @ApiProperty({
    description: 'Last day of the daily history the assumption was estimated from.',
    example: '2026-03-15',
  })
  history_to: string;

  @ApiProperty({ type: [AssetAssumptionDto], description: 'The return assumption the CAGR is (one asset).' })
  assumptions: AssetAssumptionDto[];

  @ApiProperty({ description: 'That this is a hypothetical projection on the stated assumptions.' })
  disclosure: string;
}
