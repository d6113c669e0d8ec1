import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { toInteger } from '../validation/query-transforms.js';
import { DEFAULT_LIST_PAGE, MAX_LIST_PAGE } from './list-page.js';

const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_LIST_PAGE}.`;

/** `limit` and `cursor` of a list made from the whole history (list-page.ts). */
export class ListPageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: `Items per page: default ${DEFAULT_LIST_PAGE}, from 1 to ${MAX_LIST_PAGE}.`,
    minimum: 1,
    maximum: MAX_LIST_PAGE,
    default: DEFAULT_LIST_PAGE,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_LIST_PAGE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({
    description:
      'The `next_cursor` of the previous page (opaque, tamper-evident; valid only with the same other parameters).',
  })
  @IsOptional()
  @IsString({ message: 'cursor must be a string.' })
  @MaxLength(1000, { message: 'cursor is not a cursor this service issued.' })
  cursor?: string;
}

/** `limit` alone: the first page of a list in a write's answer. */
export class ListLimitQueryDto extends PickType(ListPageQueryDto, ['limit'] as const) {}
