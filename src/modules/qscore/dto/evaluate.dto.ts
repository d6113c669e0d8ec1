import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsString,
  IsUUID,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { isCalendarDate } from '../../market/index.js';

@ValidatorConstraint({ name: 'calendarDate' })
class CalendarDate implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isCalendarDate(value);
  }

  defaultMessage(): string {
    return 'as_of_date must be an ISO 8601 date (YYYY-MM-DD), e.g. 2025-06-30.';
  }
}

export class EvaluateAccountDto {
  @ApiProperty({ description: 'The linked account to evaluate (UUID).', format: 'uuid' })
  @IsDefined({ message: 'account_id is required.' })
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  account_id: string;

  @ApiProperty({
    description:
      'Evaluate the holdings at the end of this UTC day (transactions up to 23:59:59.999Z), valued at that day’s prices. Not in the future, not before the account’s first transaction.',
    example: '2025-06-30',
    format: 'date',
  })
  @IsDefined({ message: 'as_of_date is required.' })
  @IsString({ message: 'as_of_date must be an ISO 8601 date (YYYY-MM-DD), e.g. 2025-06-30.' })
  @Validate(CalendarDate)
  as_of_date: string;
}

export class EvaluatedHoldingDto {
  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  symbol: string;

  @ApiProperty({ description: 'Quantity held at the end of the day, decimal text.', example: '0.75' })
  quantity: string;

  @ApiProperty({ description: 'Value at that day’s price, currency text.', example: '$45,000.00' })
  value_usd: string;

  @ApiProperty({ description: 'Share of the scored holdings, percentage text.', example: '60.00%' })
  weight: string;
}

export class ExcludedHoldingDto {
  @ApiProperty({ description: 'Asset ticker.', example: 'UNI' })
  symbol: string;

  @ApiProperty({ description: 'Quantity held at the end of the day, decimal text.', example: '400' })
  quantity: string;

  @ApiProperty({
    description:
      '`no_price`: no stored price on or before the date; `no_score_data`: not a tracked asset with enough history.',
    enum: ['no_price', 'no_score_data'],
  })
  reason: string;
}

export class EvaluateResultDto {
  @ApiProperty({ description: 'qScore (0-100) of the account’s holdings as of the date.', example: 71.42 })
  score: number;

  @ApiProperty({
    description: 'Letter grade of the score: A ≥ 80, B ≥ 65, C ≥ 50, D ≥ 35, else F.',
    enum: ['A', 'B', 'C', 'D', 'F'],
  })
  grade: string;

  @ApiProperty({
    description: 'BTC’s share of the scored holdings’ value, percentage text.',
    example: '60.00%',
  })
  btc_weight: string;

  @ApiProperty({
    description: 'Risk level from the rScore: low < 25, moderate < 50, high < 75, else very_high.',
    enum: ['low', 'moderate', 'high', 'very_high'],
  })
  risk_level: string;

  @ApiProperty({ description: 'The account evaluated (UUID).', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'The date evaluated.', example: '2025-06-30' })
  as_of_date: string;

  @ApiProperty({ description: 'fScore (0-100) of the holdings.', example: 74.1 })
  f_score: number;

  @ApiProperty({ description: 'rScore (0-100, higher is riskier) of the holdings.', example: 55.3 })
  r_score: number;

  @ApiProperty({ type: [EvaluatedHoldingDto], description: 'The holdings scored, largest value first.' })
  holdings: EvaluatedHoldingDto[];

  @ApiProperty({ type: [ExcludedHoldingDto], description: 'Holdings left out of the score, and why.' })
  excluded: ExcludedHoldingDto[];
}
