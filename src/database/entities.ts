/** Every entity, in one list shared by Nest and the migration CLI. Add new entities here. */
import { ApiClientEntity } from '../modules/tenancy/entities/api-client.entity.js';
import { TenantEntity } from '../modules/tenancy/entities/tenant.entity.js';
import { SigningKeyEntity } from '../modules/auth/entities/signing-key.entity.js';
import { InstanceSecretEntity } from './instance-secret.entity.js';

export const ENTITIES = [TenantEntity, ApiClientEntity, SigningKeyEntity, InstanceSecretEntity];
