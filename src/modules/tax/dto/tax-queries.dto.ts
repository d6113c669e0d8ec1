import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  COST_BASIS_METHODS,
  COST_BASIS_METHODS_MESSAGE,
  type CostBasisMethod,
} from '../../../domain/cost-basis/index.js';
import {
  IsIn,
  IsInt,
  IsOptional,
  Max,
  Min,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  type ValidationArguments,
} from 'class-validator';
import { toInteger } from '../../../common/validation/query-transforms.js';
import { DEFAULT_1099_DA_PAGE, MAX_1099_DA_PAGE } from '../form-1099-da-page.js';

/** A four-digit year; the range (2009 up to the current year) is checked against the clock by the service. */
@ValidatorConstraint({ name: 'taxYear' })
class TaxYearFormat implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && /^\d{4}$/.test(value);
  }

  defaultMessage(args: ValidationArguments): string {
    return args.value === undefined
      ? 'tax_year is required: a four-digit year, e.g. 2024.'
      : 'tax_year must be a four-digit year, e.g. 2024.';
  }
}

const upperCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toUpperCase() : value;
const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;

export class TaxReportQueryDto {
  @ApiProperty({
    description: 'Tax year: four digits, from 2009 up to the current year (UTC).',
    example: 2024,
    type: 'integer',
    minimum: 2009,
    maximum: 9999,
  })
  @Validate(TaxYearFormat)
  tax_year: string;

  @ApiPropertyOptional({
    description:
      'Report on this account only (UUID). Default: every account of the tenant. Another tenant’s account answers 404.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(lowerCase)
  account_id?: string;

  @ApiPropertyOptional({
    description: 'Report on the account with this partner identity instead (not together with account_id).',
    example: 'sandbox:coinbase-main',
  })
  @IsOptional()
  @IsString({ message: 'identity must be a string.' })
  @MinLength(1)
  @MaxLength(200)
  identity?: string;

  @ApiPropertyOptional({
    description: 'Only this asset (ticker, case-insensitive). Default: every asset (`asset` is then `ALL`).',
    example: 'BTC',
  })
  @IsOptional()
  @IsString({ message: 'asset must be a ticker.' })
  @Matches(/^[A-Za-z0-9]{1,20}$/, { message: 'asset must be a ticker of 1-20 letters or digits, e.g. BTC.' })
  @Transform(upperCase)
  asset?: string;

  @ApiPropertyOptional({
    description:
      'Lot selection over the whole history, a what-if: `fifo`, `lifo` (newest first), `hifo` (highest basis first), `lofo` (lowest basis first) or `ltfo` (long-term lots first, highest basis first within each term). Absent: what balances use, the method elected for each disposal’s account on its date (`/taip/cost-basis-method`), FIFO without an election.',
    enum: [...COST_BASIS_METHODS],
  })
  @IsOptional()
  @IsIn([...COST_BASIS_METHODS], { message: COST_BASIS_METHODS_MESSAGE })
  method?: CostBasisMethod;
}

export class Form8949QueryDto extends TaxReportQueryDto {
  @ApiPropertyOptional({
    description:
      '`json` (default), `csv` (text/csv; charset=utf-8, RFC 4180, one row per line, as an attachment) or `pdf` (application/pdf: the form in the IRS layout, as an attachment).',
    enum: ['json', 'csv', 'pdf'],
    default: 'json',
  })
  @IsOptional()
  @IsIn(['json', 'csv', 'pdf'], { message: 'format must be json, csv or pdf.' })
  format?: 'json' | 'csv' | 'pdf';
}

const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_1099_DA_PAGE}.`;

/**
 * The account selection, year and method of the reconciliation (no asset: every line of the file
 * counts), and the page of its lists (docs/tax-report.md, "Form 1099-DA reconciliation").
 */
export class Form1099DaQueryDto extends OmitType(TaxReportQueryDto, ['asset'] as const) {
  @ApiPropertyOptional({
    type: 'integer',
    description: `Items per list on a page: default ${DEFAULT_1099_DA_PAGE}, from 1 to ${MAX_1099_DA_PAGE}. Each of \`matched\`, \`different\`, \`unmatched_broker\` and \`unmatched_service\` holds at most this many; counts and totals are over the whole file.`,
    minimum: 1,
    maximum: MAX_1099_DA_PAGE,
    default: DEFAULT_1099_DA_PAGE,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_1099_DA_PAGE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({
    description:
      'The `next_cursor` of the previous page (opaque, tamper-evident), sent with the same file and parameters.',
  })
  @IsOptional()
  @IsString({ message: 'cursor must be a string.' })
  @MaxLength(1000, { message: 'cursor is not a cursor this service issued.' })
  cursor?: string;
}
