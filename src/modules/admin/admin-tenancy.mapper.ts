import type { ClientSummary, IssuedSecret } from '../tenancy/index.js';
import type { TenantEntity } from '../tenancy/index.js';
import type { ClientDto, IssuedSecretDto, TenantDto } from './dto/admin-tenancy.dto.js';

export function toTenantDto(tenant: TenantEntity): TenantDto {
  return {
    tenantId: tenant.id,
    slug: tenant.slug,
    name: tenant.name,
    kind: tenant.kind,
    sandbox: tenant.isSandbox,
    createdAt: tenant.createdAt.toISOString(),
  };
}

/** Field by field, so nothing the service adds (a hash, say) can reach a body by accident. */
export function toClientDto(client: ClientSummary): ClientDto {
  return {
    clientId: client.clientId,
    tenant: client.tenant,
    tenantId: client.tenantId,
    scopes: client.scopes,
    disabled: client.disabled,
    createdAt: client.createdAt.toISOString(),
    lastUsedAt: client.lastUsedAt?.toISOString() ?? null,
    secretRotatedAt: client.secretRotatedAt?.toISOString() ?? null,
  };
}

export function toIssuedSecretDto(issued: IssuedSecret, tenantSlug: string): IssuedSecretDto {
  return {
    clientId: issued.clientId,
    tenant: tenantSlug,
    tenantId: issued.tenantId,
    scopes: issued.scopes,
    clientSecret: issued.clientSecret,
  };
}
