import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { SYNC_STATUSES, type SyncStatus } from '../entities/account.entity.js';
import { MAX_PAGE_SIZE } from '../accounts.service.js';
import { toInteger } from '../../../common/validation/query-transforms.js';

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

  @ApiPropertyOptional({
    enum: SYNC_STATUSES,
    description:
      'Only accounts in this sync state (e.g. `reconnect_required`, `error`); `counts` still covers every state.',
  })
  @IsOptional()
  @IsIn(SYNC_STATUSES, { message: `syncStatus must be one of ${SYNC_STATUSES.join(', ')}.` })
  syncStatus?: SyncStatus;

  @ApiPropertyOptional({
    enum: ['needs_review'],
    description:
      'Only accounts whose source-reported balances disagree with their transactions (reconciliation); `needsReview` counts them.',
  })
  @IsOptional()
  @IsIn(['needs_review'], { message: 'review must be needs_review.' })
  review?: 'needs_review';
}
