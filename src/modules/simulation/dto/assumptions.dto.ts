import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNumber, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { ASSUMPTION_LIMITS } from '../../../domain/simulation/return-assumptions.js';

/** One asset's assumption as a projection used it (every answer of /qsim/simulate and /roi/projection). */
export class AssetAssumptionDto {
  @ApiProperty({ description: 'Asset ticker (upper case).', example: 'BTC' })
  symbol: string;

  @ApiProperty({
    description:
      'Expected compound (geometric) annual return the projection used, e^μ − 1 (the growth rate of the asset’s median outcome), percentage text.',
    example: '5.30%',
  })
  expected_return: string;

  @ApiProperty({
    description: 'Annual volatility of log returns the projection used, percentage text.',
    example: '70.00%',
  })
  volatility: string;

  @ApiProperty({
    description:
      'history_shrunk: the default, the historical mean shrunk toward the conservative prior (the risk-free rate) by its standard error; tenant: your firm’s capital-market assumption (PUT /qsim/assumptions/{symbol}).',
    enum: ['history_shrunk', 'tenant'],
  })
  source: string;

  @ApiProperty({
    description: 'The raw historical compound return over the window, for comparison only.',
    example: '49.18%',
  })
  historical_return: string;

  @ApiProperty({
    description: 'Standard error of the historical mean log return, σ/√years, percentage text.',
    example: '26.46%',
  })
  standard_error: string;

  @ApiProperty({
    description: 'Weight of the history in the default, τ²/(τ² + SE²), percentage text.',
    example: '3.45%',
  })
  weight_on_history: string;
}

export class PutAssumptionDto {
  @ApiProperty({
    description: `Expected compound annual return, a fraction from ${ASSUMPTION_LIMITS.minExpectedReturn} to ${ASSUMPTION_LIMITS.maxExpectedReturn} (0.07 = 7 % a year).`,
    example: 0.07,
  })
  @IsDefined({ message: 'expected_return is required: a fraction, e.g. 0.07 for 7 % a year.' })
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'expected_return must be a number (a fraction).' },
  )
  @Min(ASSUMPTION_LIMITS.minExpectedReturn, {
    message: `expected_return must be from ${ASSUMPTION_LIMITS.minExpectedReturn} to ${ASSUMPTION_LIMITS.maxExpectedReturn}.`,
  })
  @Max(ASSUMPTION_LIMITS.maxExpectedReturn, {
    message: `expected_return must be from ${ASSUMPTION_LIMITS.minExpectedReturn} to ${ASSUMPTION_LIMITS.maxExpectedReturn}.`,
  })
  expected_return: number;

  @ApiPropertyOptional({
    description: `Annual volatility, a fraction from 0 to ${ASSUMPTION_LIMITS.maxVolatility}; absent or null: the history's.`,
    example: 0.6,
    nullable: true,
    type: Number,
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'volatility must be a number (a fraction) or null.' },
  )
  @Min(0, { message: `volatility must be from 0 to ${ASSUMPTION_LIMITS.maxVolatility}.` })
  @Max(ASSUMPTION_LIMITS.maxVolatility, {
    message: `volatility must be from 0 to ${ASSUMPTION_LIMITS.maxVolatility}.`,
  })
  volatility?: number | null;

  @ApiPropertyOptional({
    description: 'Where the figure comes from, up to 500 characters.',
    example: 'CIO capital-market assumptions 2026',
  })
  @IsOptional()
  @IsString({ message: 'note must be text.' })
  @MaxLength(500, { message: 'note must be at most 500 characters.' })
  note?: string;
}

export class CapitalMarketAssumptionDto {
  @ApiProperty({ description: 'Asset ticker (upper case).', example: 'BTC' })
  symbol: string;

  @ApiProperty({ description: 'Expected compound annual return, a fraction.', example: 0.07 })
  expected_return: number;

  @ApiProperty({
    description: 'Annual volatility, a fraction; null: the history’s.',
    example: 0.6,
    nullable: true,
    type: Number,
  })
  volatility: number | null;

  @ApiProperty({
    description: 'Where the figure comes from.',
    nullable: true,
    type: String,
    example: 'CIO capital-market assumptions 2026',
  })
  note: string | null;

  @ApiProperty({ description: 'When it was last set, ISO 8601.', example: '2026-11-24T09:00:00.000Z' })
  updated_at: string;
}

export class DefaultAssumptionDto {
  @ApiProperty({
    description: 'The prior the historical mean is shrunk toward.',
    example: 'risk-free rate (US Treasury bills, nominal)',
  })
  prior: string;

  @ApiProperty({ description: 'Prior expected compound annual return, a fraction.', example: 0.04 })
  prior_expected_return: number;

  @ApiProperty({
    description: 'τ, the prior’s standard deviation of the annual mean log return, a fraction.',
    example: 0.05,
  })
  prior_uncertainty: number;

  @ApiProperty({
    description: 'How an asset without an assumption of yours is projected.',
    example: 'μ = μ₀ + w·(μ̂ − μ₀), w = τ²/(τ² + SE²), SE = σ̂/√years; expected return e^μ − 1',
  })
  formula: string;
}

export class CapitalMarketAssumptionsDto {
  @ApiProperty({ type: [CapitalMarketAssumptionDto], description: 'Your firm’s assumptions, by symbol.' })
  assumptions: CapitalMarketAssumptionDto[];

  @ApiProperty({ type: DefaultAssumptionDto, description: 'What every other asset gets.' })
  default: DefaultAssumptionDto;
}
