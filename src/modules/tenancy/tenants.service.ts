import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { noteAuditSubject } from '../../common/audit/audit-scope.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { TenancyRepository } from './tenancy.repository.js';
import type { TenantEntity, TenantKind } from './entities/tenant.entity.js';

export const TENANT_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;
export const TENANT_KINDS: readonly TenantKind[] = ['partner', 'operator'];

@Injectable()
export class TenantsService {
  constructor(private readonly repository: TenancyRepository) {}

  /**
   * `operator`: a tenant for the operator's admin clients (design §3); it never holds partner data.
   * A slug already taken is a conflict (409), named by its field, for the API and the CLI alike.
   */
  async createTenant(slug: string, name: string, kind: TenantKind = 'partner'): Promise<TenantEntity> {
    if (!TENANT_SLUG_PATTERN.test(slug)) {
      throw DomainError.validation(
        'slug',
        'slug must be 2-63 characters of a-z 0-9 and -, starting with a letter or digit',
      );
    }
    if (name.trim() === '' || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name))
      throw DomainError.validation('name', 'name must be 1-200 characters without control characters');
    if (!TENANT_KINDS.includes(kind))
      throw DomainError.validation('kind', `kind must be one of: ${TENANT_KINDS.join(', ')}`);
    if (await this.repository.findTenantBySlug(slug)) throw tenantExists(slug);
    // Two creations racing past the check above: the unique slug lets one insert, the other sees
    // the row it did not write (a different id) and answers the same conflict.
    const id = randomUUID();
    noteAuditSubject({ tenantId: id, tenantSlug: slug }); // the entry belongs to the new tenant
    await this.repository.insertTenantIfAbsent({ id, slug, name, isSandbox: false, kind });
    const stored = (await this.repository.findTenantBySlug(slug))!;
    if (stored.id !== id) throw tenantExists(slug);
    return stored;
  }

  list(): Promise<TenantEntity[]> {
    return this.repository.listTenants();
  }

  /**
   * The id of the tenant a filter names by slug; a slug of no tenant is a 400 naming the field
   * (`tenant`), as the admin routes that take `?tenant=` answer.
   */
  async idOfSlug(slug: string): Promise<string> {
    const tenant = TENANT_SLUG_PATTERN.test(slug) ? await this.repository.findTenantBySlug(slug) : null;
    if (!tenant) throw DomainError.validation('tenant', `Tenant "${slug}" does not exist.`);
    return tenant.id;
  }

  /** One tenant by its slug; 404 when there is none. */
  async get(slug: string): Promise<TenantEntity> {
    const tenant = TENANT_SLUG_PATTERN.test(slug) ? await this.repository.findTenantBySlug(slug) : null;
    if (!tenant) throw DomainError.notFound(`Tenant "${slug}"`);
    return tenant;
  }
}

function tenantExists(slug: string): DomainError {
  const message = `Tenant "${slug}" already exists.`;
  return new DomainError(ErrorCode.Conflict, message, { slug: [message] });
}
