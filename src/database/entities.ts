/**
 * Every entity, grouped by owning module. Nest, the migration CLI and the agreement test use ENTITIES.
 * A module adds its group here; `npm run migration:generate -- Name --group <group>` diffs only
 * core + that group, so two modules can add tables without one migration swallowing the other's.
 */
import { ApiClientEntity } from '../modules/tenancy/entities/api-client.entity.js';
import { TenantEntity } from '../modules/tenancy/entities/tenant.entity.js';
import { SigningKeyEntity } from '../modules/auth/entities/signing-key.entity.js';
import { InstanceSecretEntity } from './instance-secret.entity.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EntityClass = new (...args: any[]) => object;

export const ENTITY_GROUPS = {
  core: [TenantEntity, ApiClientEntity, SigningKeyEntity, InstanceSecretEntity],
} satisfies Record<string, EntityClass[]>;

export type EntityGroup = keyof typeof ENTITY_GROUPS;

export const ENTITIES = Object.values(ENTITY_GROUPS).flat();
