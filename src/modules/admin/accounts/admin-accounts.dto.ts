import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, Validate } from 'class-validator';
import { IDENTITY_MAX_LENGTH, IsAccountIdentity } from '../../../common/validation/account-identity.js';
import {
  AdminAccountDto,
  CredentialsShape,
  declareSourceOptions,
  IMPORT_FORMAT_DESCRIPTION,
  sourceFieldDescription,
  SYNC_STATUSES,
  type SyncStatus,
} from '../../accounts/index.js';
import { BUILT_IN_SOURCES, IMPORT_FORMATS } from '../../sources/index.js';

export const TENANT_SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
/** One message for a missing and a malformed tenant: Matches fails on undefined and non-strings too. */
export const TENANT_REQUIRED = 'tenant is required: the slug of the tenant this admin request acts on.';

/** The tenant an admin request on one account acts on (design §3: admin requests name it). */
export class AdminTenantQueryDto {
  @ApiProperty({
    description:
      'Slug of the tenant the account belongs to. Required; an account of another tenant answers 404.',
    example: 'sandbox',
  })
  @Matches(TENANT_SLUG, { message: TENANT_REQUIRED })
  tenant: string;
}

/** The import endpoint's query: the tenant, and the format of a file sent as the request body. */
export class AdminImportQueryDto extends AdminTenantQueryDto {
  @ApiPropertyOptional({ description: IMPORT_FORMAT_DESCRIPTION, enum: IMPORT_FORMATS })
  @IsOptional()
  @IsIn(IMPORT_FORMATS, { message: `format must be one of ${IMPORT_FORMATS.join(', ')}.` })
  format?: string;
}

export class CreateAccountDto {
  @ApiProperty({
    description:
      'Slug of the partner tenant the account belongs to. Required: an admin token acts on the tenant each request names (never its own, the operator tenant).',
    example: 'sandbox',
  })
  @Matches(TENANT_SLUG, { message: TENANT_REQUIRED })
  tenant: string;

  @ApiProperty({ description: 'Source platform identifier, lower-case.', example: 'coinbase' })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9._-]{1,63}$/, { message: 'platform must be 2-64 characters of a-z 0-9 . _ -' })
  platform: string;

  @ApiProperty({
    description:
      "The partner's identifier for the account, unique per tenant. 1-200 characters with at least one visible one; no control characters and no bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069): otherwise a 400 naming `identity`.",
    example: 'household-1001/coinbase',
    minLength: 1,
    maxLength: IDENTITY_MAX_LENGTH,
  })
  @IsAccountIdentity()
  identity: string;

  @ApiProperty({
    enum: BUILT_IN_SOURCES,
    description: sourceFieldDescription(),
    example: 'sandbox',
  })
  @IsString()
  @MaxLength(32)
  source: string;

  @ApiPropertyOptional({
    description: 'Collection id (UUID) of the end client connection; generated when absent.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'collectionId must be a UUID.' })
  collectionId?: string;

  @ApiPropertyOptional({
    description: 'On-chain address (wallets); requires chain.',
    example: '0x52908400098527886E0F7030069857D2E4169EE7',
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  address?: string;

  @ApiPropertyOptional({
    description:
      'Chain of the address: bitcoin, ethereum, base, arbitrum, optimism, polygon, solana, ...; requires address.',
    example: 'ethereum',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9-]{2,32}$/, { message: 'chain must be 2-32 characters of a-z 0-9 -' })
  chain?: string;

  @ApiPropertyOptional({
    description:
      'Connector credentials (e.g. apiKey, apiSecret). Encrypted at rest (AES-256-GCM); never returned or logged.',
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  @IsOptional()
  @IsObject()
  @Validate(CredentialsShape)
  credentials?: Record<string, string>;

  // The source options (e.g. the sandbox's sandboxProfile) are declared by declareSourceOptions.
}
declareSourceOptions(CreateAccountDto);

export class AdminAccountListDto {
  @ApiProperty({ type: [AdminAccountDto], description: 'The page of accounts, oldest first.' })
  accounts: AdminAccountDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Cursor of the next page; null on the last page.',
  })
  nextCursor: string | null;

  @ApiProperty({
    type: 'object',
    properties: Object.fromEntries(SYNC_STATUSES.map((status) => [status, { type: 'integer', minimum: 0 }])),
    required: [...SYNC_STATUSES],
    description:
      'Accounts in each sync state for the tenant selection (all tenants, or `tenant`), whatever `syncStatus` filters.',
    example: { syncing: 1, synced: 9, reconnect_required: 1, error: 1 },
  })
  counts: Record<SyncStatus, number>;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Accounts needing review (reconciliation) for the tenant selection, whatever `syncStatus` or `review` filters.',
  })
  needsReview: number;
}

export class RefreshResultDto {
  @ApiProperty({
    enum: ['refreshed', 'pending', 'failed', 'busy'],
    description:
      '`refreshed`: new data stored; `pending`: the source is still preparing the history; `failed`: old data kept, state set; `busy`: another refresh of the account is running.',
  })
  status: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Transactions inserted (refreshed only).' })
  inserted: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Transactions updated (refreshed only).' })
  updated: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Transactions removed because the source no longer reports them (refreshed only).',
  })
  deleted: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the refresh failed (failed only).' })
  message: string | null;

  @ApiProperty({ type: AdminAccountDto, description: 'The account after the refresh.' })
  account: AdminAccountDto;
}

export class ImportResultDto {
  @ApiProperty({ description: 'Account id (UUID).', format: 'uuid' })
  accountId: string;

  @ApiProperty({ description: 'Slug of the tenant the account belongs to.', example: 'sandbox' })
  tenant: string;

  @ApiProperty({
    type: 'integer',
    description:
      "Transactions read from the file (an export's trade between two crypto assets gives two; skipped rows none).",
  })
  rows: number;

  @ApiProperty({ type: 'integer', description: 'New transactions stored.' })
  inserted: number;

  @ApiProperty({
    type: 'integer',
    description: 'Existing transactions (same transactionId) whose fields changed.',
  })
  updated: number;

  @ApiProperty({ type: 'integer', description: 'Rows identical to what was stored.' })
  unchanged: number;

  @ApiProperty({
    description: 'The format the file was read as (named, or detected from its header row).',
    enum: IMPORT_FORMATS,
    example: 'csv',
  })
  format: string;
}
