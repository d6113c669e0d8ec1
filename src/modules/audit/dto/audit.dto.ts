import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { toInteger } from '../../../common/validation/query-transforms.js';

export const MAX_AUDIT_PAGE = 1000;
export const DEFAULT_AUDIT_PAGE = 100;

const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;

export const AUDIT_ORDERS = ['desc', 'asc'] as const;
export type AuditOrder = (typeof AUDIT_ORDERS)[number];

export class AuditFiltersDto {
  @ApiPropertyOptional({
    description:
      'Only entries of this tenant, by its slug (e.g. `sandbox`), as every other admin route names a tenant. Entries of a tenant deleted since keep its id: filter those with `tenantId`.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tenant?: string;

  @ApiPropertyOptional({
    description: 'Only entries of this tenant, by its id (UUID); give `tenant` or `tenantId`, not both.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'tenantId must be a UUID.' })
  @Transform(lowerCase)
  tenantId?: string;

  // No `example`: Swagger UI's Try it out would send it as a filter, and the defaults shown would
  // find nothing.
  @ApiPropertyOptional({
    description: 'Only entries by this actor: an API clientId such as `sandbox-client`.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  actor?: string;

  @ApiPropertyOptional({
    description: 'Only entries whose target is this account (its UUID).',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'accountId must be a UUID.' })
  @Transform(lowerCase)
  accountId?: string;

  @ApiPropertyOptional({ description: 'Only entries of this action, e.g. `account.read.balances`.' })
  @IsOptional()
  @Matches(/^[a-z0-9_.]{1,64}$/, { message: 'action must be a dotted action name, e.g. account.linked.' })
  action?: string;

  @ApiPropertyOptional({
    description: 'Entries that occurred at or after this instant (ISO 8601 with a time zone).',
    format: 'date-time',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time.' })
  from?: string;

  @ApiPropertyOptional({
    description: 'Entries that occurred before this instant (ISO 8601).',
    format: 'date-time',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time.' })
  to?: string;
}

export class AuditQueryDto extends AuditFiltersDto {
  @ApiPropertyOptional({
    description: `Entries per page, 1-${MAX_AUDIT_PAGE}.`,
    default: DEFAULT_AUDIT_PAGE,
    minimum: 1,
    maximum: MAX_AUDIT_PAGE,
    type: 'integer',
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer.' })
  @Min(1, { message: `limit must be from 1 to ${MAX_AUDIT_PAGE}.` })
  @Max(MAX_AUDIT_PAGE, { message: `limit must be from 1 to ${MAX_AUDIT_PAGE}.` })
  limit?: number;

  @ApiPropertyOptional({
    description:
      '`desc`: newest first (the default, what an admin looking at the trail wants first); `asc`: in the chain’s order, oldest first. A `nextCursor` continues in the order it was issued for: send the same `order` with it.',
    enum: AUDIT_ORDERS,
    default: 'desc',
  })
  @IsOptional()
  @IsIn(AUDIT_ORDERS, { message: 'order must be desc or asc.' })
  order?: AuditOrder;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'cursor must be a nextCursor of this endpoint.' })
  cursor?: string;
}

export class AuditExportQueryDto extends AuditFiltersDto {
  @ApiProperty({
    description: '`csv` (RFC 4180, a header row) or `jsonl` (one JSON entry a line).',
    enum: ['csv', 'jsonl'],
  })
  @IsIn(['csv', 'jsonl'], { message: 'format must be csv or jsonl.' })
  format: 'csv' | 'jsonl';
}

export class AuditActorDto {
  @ApiProperty({
    description: '`client` (partner API client), `admin` (admin API client) or `system`.',
    enum: ['client', 'admin', 'system'],
  })
  kind: string;

  @ApiProperty({ description: 'The API client’s clientId (or the system job’s name).' })
  id: string;
}

export class AuditTargetDto {
  @ApiProperty({ description: 'What the action was on, e.g. `account`.' })
  kind: string;

  @ApiProperty({ description: 'Its id.' })
  id: string;
}

export class AuditEntryDto {
  @ApiProperty({ description: 'Entry id.', format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'Position in the service’s one hash chain (1, 2, …).', type: 'integer' })
  sequence: number;

  @ApiProperty({ description: 'When the action happened (UTC, milliseconds).', format: 'date-time' })
  occurredAt: string;

  @ApiProperty({
    description: 'The tenant whose data the action concerned.',
    format: 'uuid',
    nullable: true,
    type: String,
  })
  tenantId: string | null;

  @ApiProperty({ description: 'Who acted.', type: AuditActorDto })
  actor: AuditActorDto;

  @ApiProperty({
    description: 'Dotted action name (docs/audit.md lists them).',
    example: 'account.read.balances',
  })
  action: string;

  @ApiProperty({
    description:
      'What the action was on (`kind`, e.g. `account`, and `id`); null when nothing in particular.',
    type: 'object',
    nullable: true,
    required: ['kind', 'id'],
    properties: {
      kind: { type: 'string', description: 'What the action was on, e.g. `account`.' },
      id: { type: 'string', description: 'Its id.' },
    },
  })
  target: AuditTargetDto | null;

  @ApiProperty({
    description: 'The service’s request id (X-Request-Id; log lines’ req.id).',
    nullable: true,
    type: String,
  })
  requestId: string | null;

  @ApiProperty({ description: 'The HTTP status answered.', type: 'integer', nullable: true })
  status: number | null;

  @ApiProperty({
    description: 'Small JSON without secrets: method, route, parameters.',
    type: 'object',
    additionalProperties: true,
  })
  details: Record<string, unknown>;

  @ApiProperty({ description: 'Hash of the previous entry (hex SHA-256).', example: '0'.repeat(64) })
  prevHash: string;

  @ApiProperty({ description: 'This entry’s hash (hex SHA-256 of its canonical line, docs/audit.md).' })
  hash: string;
}

export class AuditPageDto {
  @ApiProperty({
    description: 'Entries newest first (`order=desc`, the default) or oldest first (`order=asc`).',
    type: [AuditEntryDto],
  })
  entries: AuditEntryDto[];

  @ApiProperty({ description: 'Cursor of the next page; null on the last.', nullable: true, type: String })
  nextCursor: string | null;
}

export class AuditVerificationDto {
  @ApiProperty({ description: 'Every entry’s hash and link checked out, up to the chain head.' })
  valid: boolean;

  @ApiProperty({ description: 'Entries checked.', type: 'integer' })
  entries: number;

  @ApiProperty({
    description:
      'Sequence of the first entry that does not verify (edited, missing or out of order); null when valid.',
    type: 'integer',
    nullable: true,
  })
  firstBrokenSequence: number | null;

  @ApiProperty({
    description: 'Sequence of the last entry removed by retention (the walk starts after it); 0 when none.',
    type: 'integer',
  })
  anchorSequence: number;
}
