/** The tenancy module's public face: what other modules may import (docs/modules.md). */
export { TenancyModule } from './tenancy.module.js';
export {
  CLIENT_SCOPES,
  ClientsService,
  type ClientSummary,
  type IssuedSecret,
  CLIENT_ID_PATTERN,
  type ClientState,
  type VerifiedClient,
} from './clients.service.js';
export { type ClientScope } from './entities/api-client.entity.js';
export { type TenantEntity, type TenantKind } from './entities/tenant.entity.js';
export { TenantsService, TENANT_SLUG_PATTERN, TENANT_KINDS } from './tenants.service.js';
export { TenancyRepository } from './tenancy.repository.js';
