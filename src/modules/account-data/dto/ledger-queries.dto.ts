import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { toBoolean, toInteger } from '../../../common/validation/query-transforms.js';
import { MAX_TRANSACTIONS_PAGE } from '../account-data.service.js';

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
