import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsUUID,
  Max,
  Min,
  Validate,
} from 'class-validator';
import { toInteger } from '../../../common/validation/query-transforms.js';
import { TaxYearFormat } from '../../tax/index.js';

/** Accounts of one statement at most (a household). */
export const MAX_STATEMENT_ACCOUNTS = 50;

/** `account_id=a,b` or `account_id=a&account_id=b` (or both): one list of lower-case ids. */
const idList = ({ value }: { value: unknown }) =>
  typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    ? ([] as string[])
        .concat(value as string | string[])
        .flatMap((part) => part.split(','))
        .map((id) => id.trim().toLowerCase())
        .filter((id) => id !== '')
    : value;

export class ClientStatementQueryDto {
  @ApiProperty({
    description: `The account, or the household's accounts, comma-separated or the parameter repeated (UUIDs, 1 to ${MAX_STATEMENT_ACCOUNTS}). Another tenant's account answers 404.`,
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    example: ['8d0e7f43-5a6b-4c1d-9e2f-3a4b5c6d7e8f'],
  })
  @Transform(idList)
  @IsArray({ message: 'account_id is required: one account id, or several separated by commas.' })
  @ArrayMinSize(1, { message: 'account_id is required: one account id, or several separated by commas.' })
  @ArrayMaxSize(MAX_STATEMENT_ACCOUNTS, {
    message: `account_id may list at most ${MAX_STATEMENT_ACCOUNTS} accounts.`,
  })
  @IsUUID('all', { each: true, message: 'account_id must be account UUIDs separated by commas.' })
  account_id: string[];

  @ApiProperty({
    description:
      'The tax year whose realized gains the statement shows: four digits, 2009 up to the current year.',
    example: 2025,
    type: 'integer',
  })
  @Validate(TaxYearFormat)
  tax_year: string;

  @ApiPropertyOptional({
    description:
      'The portfolio (GET /portfolio) whose projection the statement draws. Default: the statement’s own priced holdings, weighted by market value.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'portfolio_id must be a UUID.' })
  portfolio_id?: string;

  @ApiPropertyOptional({
    description: 'Years the projection covers (1 to 30).',
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 30,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'horizon_years must be an integer from 1 to 30.' })
  @Min(1, { message: 'horizon_years must be an integer from 1 to 30.' })
  @Max(30, { message: 'horizon_years must be an integer from 1 to 30.' })
  horizon_years?: number;

  @ApiPropertyOptional({
    description:
      'Seed of the projection’s Monte Carlo paths: the same seed, holdings and stored history draw the same fan. Default 1.',
    type: 'integer',
    default: 1,
    minimum: 0,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'seed must be an integer from 0 to 2147483647.' })
  @Min(0, { message: 'seed must be an integer from 0 to 2147483647.' })
  @Max(2147483647, { message: 'seed must be an integer from 0 to 2147483647.' })
  seed?: number;
}
