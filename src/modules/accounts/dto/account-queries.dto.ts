import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { SANDBOX_PROFILES } from '../connectors/sandbox.connector.js';
import { MAX_TRANSACTIONS_PAGE } from '../account-data.service.js';
import { MAX_PAGE_SIZE } from '../accounts.service.js';
import { toBoolean, toInteger } from './query-transforms.js';

export class ForceRefreshQueryDto {
  @ApiPropertyOptional({
    description:
      'Refresh from the source first when the cached data is at least 30 minutes old (or there is none); fresher data comes back from the cache. The result says which (`refreshed`, header `Cache-Status`).',
    type: Boolean,
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'forceRefresh must be true or false.' })
  forceRefresh?: boolean;
}

export class TransactionsQueryDto extends ForceRefreshQueryDto {
  @ApiPropertyOptional({
    description: 'Inclusive start: an ISO 8601 date (UTC midnight) or a timestamp with an offset.',
    example: '2024-01-01',
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  from?: string;

  @ApiPropertyOptional({
    description:
      'Inclusive end: an ISO 8601 date covers that whole UTC day; a timestamp is taken to the millisecond.',
    example: '2024-12-31',
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  to?: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: `Optional paging: page size, at most ${MAX_TRANSACTIONS_PAGE}. Without limit and cursor the whole range comes back.`,
    minimum: 1,
    maximum: MAX_TRANSACTIONS_PAGE,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer.' })
  @Min(1)
  @Max(MAX_TRANSACTIONS_PAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page (opaque).' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}

export class PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: `Page size, default 50, at most ${MAX_PAGE_SIZE}.`,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: 50,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer.' })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page (opaque, tamper-evident).' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}

export class AdminAccountsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Tenant slug; all tenants when absent.', example: 'sandbox' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9-]{1,62}$/, { message: 'tenant must be a tenant slug.' })
  tenant?: string;
}

export const SANDBOX_PROFILE_VALUES = SANDBOX_PROFILES;
export const IsSandboxProfile = () => IsIn([...SANDBOX_PROFILES]);
