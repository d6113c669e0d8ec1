import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { CLIENT_ID_PATTERN, CLIENT_SCOPES } from '../../tenancy/index.js';
import type { ClientScope } from '../../tenancy/index.js';
import type { TenantKind } from '../../tenancy/index.js';
import { TENANT_KINDS, TENANT_SLUG_PATTERN } from '../../tenancy/index.js';

/** One message for a missing and a malformed tenant: Matches fails on undefined and non-strings too. */
export const TENANT_REQUIRED = 'tenant is required: the slug of the tenant this admin request acts on.';

// ---- requests ----------------------------------------------------------------------------------

export class CreateTenantDto {
  @ApiProperty({
    description: 'Short stable name: 2-63 characters of a-z 0-9 and -, starting with a letter or digit.',
    example: 'acme',
  })
  @Matches(TENANT_SLUG_PATTERN, {
    message: 'slug must be 2-63 characters of a-z 0-9 and -, starting with a letter or digit',
  })
  slug: string;

  @ApiProperty({ description: 'Display name, 1-200 characters.', example: 'Acme Advisors' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Matches(/^[^\u0000-\u001f\u007f]+$/, { message: 'name must not contain control characters.' })
  name: string;

  @ApiPropertyOptional({
    enum: TENANT_KINDS,
    default: 'partner',
    description:
      '`partner`: an advisory firm (owns partner data). `operator`: the operator’s own tenant, for admin clients; it never holds partner data.',
  })
  @IsOptional()
  @IsIn(TENANT_KINDS, { message: `kind must be one of: ${TENANT_KINDS.join(', ')}` })
  kind?: TenantKind;
}

export class CreateClientDto {
  @ApiProperty({ description: 'Slug of the tenant the client belongs to.', example: 'acme' })
  @Matches(TENANT_SLUG_PATTERN, { message: TENANT_REQUIRED })
  tenant: string;

  @ApiPropertyOptional({
    enum: CLIENT_SCOPES,
    isArray: true,
    description:
      'Default: `admin` in an operator tenant, `partner` elsewhere. `admin` only for a client of an operator tenant.',
    example: ['partner'],
  })
  @IsOptional()
  @IsArray({ message: 'scopes must be a list of: partner, admin' })
  @ArrayNotEmpty({ message: 'scopes must not be empty' })
  @ArrayMaxSize(CLIENT_SCOPES.length)
  @IsIn(CLIENT_SCOPES, { each: true, message: `each scope must be one of: ${CLIENT_SCOPES.join(', ')}` })
  scopes?: ClientScope[];

  @ApiPropertyOptional({
    description:
      'The public client id (3-128 characters of A-Z a-z 0-9 . _ -); default: `<tenant>-` and 12 random hex digits. Unique across tenants.',
    example: 'acme-app',
  })
  @IsOptional()
  @Matches(CLIENT_ID_PATTERN, { message: 'clientId must be 3-128 characters of A-Z a-z 0-9 . _ -' })
  clientId?: string;
}

/** The tenant an admin request on one client acts on (design §3: admin requests name it). */
export class TenantQueryDto {
  @ApiProperty({
    description:
      'Slug of the tenant the client belongs to. Required; a client of another tenant answers 404.',
    example: 'acme',
  })
  @Matches(TENANT_SLUG_PATTERN, { message: TENANT_REQUIRED })
  tenant: string;
}

export class ClientsQueryDto {
  @ApiPropertyOptional({ description: 'Tenant slug; all tenants when absent.', example: 'sandbox' })
  @IsOptional()
  @Matches(TENANT_SLUG_PATTERN, { message: 'tenant must be a tenant slug.' })
  tenant?: string;
}

// ---- responses ---------------------------------------------------------------------------------

export class TenantDto {
  @ApiProperty({ format: 'uuid', description: 'The tenant’s id (tenant_id of its data).' })
  tenantId: string;

  @ApiProperty({ example: 'acme', description: 'The tenant’s slug: how requests name it (`?tenant=`).' })
  slug: string;

  @ApiProperty({ example: 'Acme Advisors', description: 'Display name.' })
  name: string;

  @ApiProperty({
    enum: TENANT_KINDS,
    description:
      '`partner`: an RIA platform’s data; `operator`: the admin team’s own tenant (admin clients only).',
  })
  kind: TenantKind;

  @ApiProperty({ description: 'A sandbox tenant (synthetic data; refused in production).' })
  sandbox: boolean;

  @ApiProperty({ format: 'date-time', description: 'When the tenant was created.' })
  createdAt: string;
}

export class TenantListDto {
  @ApiProperty({ type: [TenantDto], description: 'Every tenant, by slug.' })
  tenants: TenantDto[];
}

export class ClientDto {
  @ApiProperty({ example: 'acme-app', description: 'The client’s public identifier (sent as clientId).' })
  clientId: string;

  @ApiProperty({ description: 'Slug of the owning tenant.', example: 'acme' })
  tenant: string;

  @ApiProperty({ format: 'uuid', description: 'Id of the owning tenant.' })
  tenantId: string;

  @ApiProperty({ enum: CLIENT_SCOPES, isArray: true, description: 'Scopes tokens of this client carry.' })
  scopes: ClientScope[];

  @ApiProperty({ description: 'A disabled client gets no token and its live tokens stop working.' })
  disabled: boolean;

  @ApiProperty({ format: 'date-time', description: 'When the client was created.' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last token issued.' })
  lastUsedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last secret rotation.' })
  secretRotatedAt: string | null;
}

export class ClientListDto {
  @ApiProperty({ type: [ClientDto], description: 'The clients, by clientId. Never a secret.' })
  clients: ClientDto[];
}

export class IssuedSecretDto {
  @ApiProperty({ example: 'acme-app', description: 'The client’s public identifier (sent as clientId).' })
  clientId: string;

  @ApiProperty({ example: 'acme', description: 'Slug of the owning tenant.' })
  tenant: string;

  @ApiProperty({ format: 'uuid', description: 'Id of the owning tenant.' })
  tenantId: string;

  @ApiProperty({ enum: CLIENT_SCOPES, isArray: true, description: 'Scopes tokens of this client carry.' })
  scopes: ClientScope[];

  @ApiProperty({
    description:
      'The client secret, shown this once: only its argon2id hash is stored, so it cannot be shown again (rotate to get a new one).',
  })
  clientSecret: string;
}
