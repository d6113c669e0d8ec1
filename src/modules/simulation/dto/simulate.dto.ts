import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { SIMULATION_LIMITS, SIMULATION_METHODS } from '../../../domain/simulation/monte-carlo.js';
import { AssetAssumptionDto } from './assumptions.dto.js';

export const SCENARIO_NAMES = ['bull', 'base', 'bear'] as const;
export const MAX_PRINCIPAL_USD = 1e12;

/** A seed repeats a run: a non-negative safe integer, or a string of 1-100 characters. */
@ValidatorConstraint({ name: 'seed' })
class SeedShape implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ||
      (typeof value === 'string' && value.length >= 1 && value.length <= 100)
    );
  }

  defaultMessage(): string {
    return 'seed must be a non-negative integer or a string of 1-100 characters.';
  }
}

export class PortfolioEntryDto {
  @ApiProperty({ description: 'Asset ticker with stored history (case-insensitive).', example: 'BTC' })
  @IsDefined({ message: 'symbol is required.' })
  @IsString({ message: 'symbol must be a ticker.' })
  @Matches(/^[A-Za-z0-9]{1,20}$/, { message: 'symbol must be a ticker of 1-20 letters or digits, e.g. BTC.' })
  symbol: string;

  @ApiProperty({
    description: 'Target weight as a fraction from 0 to 1; the weights sum to 1 (± 0.0001).',
    example: 0.6,
  })
  @IsDefined({ message: 'weight is required.' })
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'weight must be a number (a fraction from 0 to 1).' },
  )
  @Min(0, { message: 'weight must be from 0 to 1.' })
  @Max(1, { message: 'weight must be from 0 to 1.' })
  weight: number;
}

export class SimulateRequestDto {
  @ApiProperty({
    type: [PortfolioEntryDto],
    description: `Assets and target weights (fractions summing to 1 ± 0.0001), rebalanced monthly; 1-${SIMULATION_LIMITS.maxAssets} distinct symbols.`,
  })
  @IsDefined({ message: 'portfolio is required.' })
  @IsArray({ message: 'portfolio must be an array of { symbol, weight }.' })
  @ArrayNotEmpty({ message: 'portfolio must not be empty.' })
  @ArrayMaxSize(SIMULATION_LIMITS.maxAssets, {
    message: `portfolio may hold at most ${SIMULATION_LIMITS.maxAssets} assets.`,
  })
  @ValidateNested({ each: true })
  @Type(() => PortfolioEntryDto)
  portfolio: PortfolioEntryDto[];

  @ApiProperty({
    type: 'integer',
    description:
      'Horizon in whole years, 1-50; with the portfolio within the work budget: assets × horizon_years at most 600 by default (SIMULATION_MAX_ASSET_YEARS), e.g. 12 assets over 50 years or 30 over 20.',
    example: 10,
    minimum: 1,
    maximum: 50,
  })
  @IsDefined({ message: 'horizon_years is required.' })
  @IsInt({ message: 'horizon_years must be an integer from 1 to 50.' })
  @Min(1, { message: 'horizon_years must be an integer from 1 to 50.' })
  @Max(SIMULATION_LIMITS.maxHorizonYears, { message: 'horizon_years must be an integer from 1 to 50.' })
  horizon_years: number;

  @ApiProperty({
    description:
      'Scenarios to return, in this order: any of bull (90th percentile), base (50th), bear (10th), without repeats.',
    example: ['bull', 'base', 'bear'],
    type: [String],
    enum: SCENARIO_NAMES,
  })
  @IsDefined({ message: 'scenarios is required.' })
  @IsArray({ message: 'scenarios must be an array of bull, base, bear.' })
  @ArrayNotEmpty({ message: 'scenarios must not be empty.' })
  @ArrayUnique({ message: 'scenarios must not repeat a name.' })
  @IsIn(SCENARIO_NAMES, { each: true, message: 'scenarios may only hold bull, base and bear.' })
  scenarios: ('bull' | 'base' | 'bear')[];

  @ApiPropertyOptional({
    description: 'Starting value in USD, > 0 (default 10,000).',
    example: 10000,
    default: 10000,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'principal_usd must be a number.' })
  @Min(0.01, { message: 'principal_usd must be at least 0.01.' })
  @Max(MAX_PRINCIPAL_USD, { message: `principal_usd must be at most ${MAX_PRINCIPAL_USD}.` })
  principal_usd?: number;

  @ApiPropertyOptional({
    description:
      'Seed of the random draws: the same seed and inputs give the same answer. Default: chosen and returned.',
    oneOf: [
      { type: 'integer', minimum: 0 },
      { type: 'string', minLength: 1, maxLength: 100 },
    ],
    example: 42,
  })
  @IsOptional()
  @Validate(SeedShape)
  seed?: number | string;

  @ApiPropertyOptional({
    description:
      'parametric (default): correlated log-normal returns on the assumptions; bootstrap: blocks of a month of stored daily returns of all assets at once (their correlation and fat tails), re-centred on the assumed means. docs/simulation.md.',
    enum: SIMULATION_METHODS,
    default: 'parametric',
  })
  @IsOptional()
  @IsIn(SIMULATION_METHODS, { message: 'method must be parametric or bootstrap.' })
  method?: 'parametric' | 'bootstrap';

  @ApiPropertyOptional({
    description:
      'Annual inflation rate as a fraction from -0.05 to 0.5 (e.g. 0.025): when given, terminal values, CAGRs and risk figures are in today’s dollars. Default: none (nominal).',
    example: 0.025,
  })
  @IsOptional()
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'inflation_rate must be a number (a fraction).' },
  )
  @Min(-0.05, { message: 'inflation_rate must be from -0.05 to 0.5.' })
  @Max(0.5, { message: 'inflation_rate must be from -0.05 to 0.5.' })
  inflation_rate?: number;

  @ApiPropertyOptional({
    description:
      'Paid in at the end of every month in nominal USD; negative for a withdrawal (a portfolio that runs out stays at 0). Default 0.',
    example: 500,
    default: 0,
  })
  @IsOptional()
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'monthly_contribution_usd must be a number.' },
  )
  @Min(-MAX_PRINCIPAL_USD, {
    message: `monthly_contribution_usd must be from -${MAX_PRINCIPAL_USD} to ${MAX_PRINCIPAL_USD}.`,
  })
  @Max(MAX_PRINCIPAL_USD, {
    message: `monthly_contribution_usd must be from -${MAX_PRINCIPAL_USD} to ${MAX_PRINCIPAL_USD}.`,
  })
  monthly_contribution_usd?: number;
}

export class SimulationRiskDto {
  @ApiProperty({
    description: 'Share of simulated paths ending below principal_usd, percentage text.',
    example: '38.12%',
  })
  probability_below_principal: string;

  @ApiProperty({
    description:
      'Median over paths of the largest peak-to-trough fall of the portfolio (its return index, month ends), percentage text.',
    example: '61.20%',
  })
  max_drawdown_median: string;

  @ApiProperty({
    description: '90th percentile over paths of that largest fall, percentage text.',
    example: '80.05%',
  })
  max_drawdown_p90: string;

  @ApiProperty({
    description: 'Mean of the worst 5 % of terminal values (5 % expected shortfall), currency text.',
    example: '$1,234.56',
  })
  expected_shortfall_5_usd: string;
}

export class ScenarioResultDto {
  @ApiProperty({
    description: 'Scenario: bull (90th percentile of terminal value), base (50th) or bear (10th).',
    enum: SCENARIO_NAMES,
  })
  name: string;

  @ApiProperty({
    description: 'Compound annual growth rate of the scenario, percentage text.',
    example: '12.34%',
  })
  cagr: string;

  @ApiProperty({ description: 'Portfolio value at the horizon, currency text.', example: '$31,384.28' })
  terminal_usd: string;
}

export class SimulationResultDto {
  @ApiProperty({ type: [ScenarioResultDto], description: 'The scenarios asked for, in the order asked.' })
  scenarios: ScenarioResultDto[];

  @ApiProperty({
    description: 'Seed used (the one given, or the one chosen): send it back to repeat the run.',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    example: 42,
  })
  seed: number | string;

  @ApiProperty({ description: 'Starting value in USD.', example: 10000 })
  principal_usd: number;

  @ApiProperty({ type: 'integer', description: 'Horizon in years.', example: 10 })
  horizon_years: number;

  @ApiProperty({ type: 'integer', description: 'Simulated paths.', example: 10000 })
  paths: number;

  @ApiProperty({ type: 'integer', description: 'Rebalancing steps per year (monthly).', example: 12 })
  steps_per_year: number;

  @ApiProperty({
    description: 'First day of the daily returns the model was estimated from.',
    example: '2020-01-02',
  })
  history_from: string;

  @ApiProperty({
    description: 'Last day of the daily returns the model was estimated from.',
    example: '2026-03-15',
  })
  history_to: string;

  @ApiProperty({
    type: 'integer',
    description: 'Aligned daily returns the model was estimated from.',
    example: 2265,
  })
  history_days: number;

  @ApiProperty({ enum: SIMULATION_METHODS, description: 'Method used.', example: 'parametric' })
  method: string;

  @ApiProperty({
    description: 'Rebalancing policy of the simulated portfolio.',
    example: 'Rebalanced to the target weights at the start of every month, without costs.',
  })
  rebalancing: string;

  @ApiProperty({ type: SimulationRiskDto, description: 'Risk figures of the same paths as the scenarios.' })
  risk: SimulationRiskDto;

  @ApiProperty({
    type: [AssetAssumptionDto],
    description: 'The return assumption of every asset, in portfolio order.',
  })
  assumptions: AssetAssumptionDto[];

  @ApiProperty({
    description:
      'Inflation rate the figures are deflated by (today’s dollars), percentage text; null: nominal.',
    nullable: true,
    type: String,
    example: null,
  })
  inflation_rate: string | null;

  @ApiProperty({ description: 'Monthly contribution (negative: withdrawal) in USD.', example: 0 })
  monthly_contribution_usd: number;

  @ApiProperty({ description: 'That this is a hypothetical projection on the stated assumptions.' })
  disclosure: string;
}
