import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error.js';
import { TenancyRepository } from './tenancy.repository.js';
import type { TenantEntity, TenantKind } from './entities/tenant.entity.js';

@Injectable()
export class TenantsService {
  constructor(private readonly repository: TenancyRepository) {}

  /** `operator`: a tenant for the operator's admin clients (design §3); it never holds partner data. */
  async createTenant(slug: string, name: string, kind: TenantKind = 'partner'): Promise<TenantEntity> {
    if (!/^[a-z0-9][a-z0-9-]{1,62}$/.test(slug)) {
      throw DomainError.validation(
        'slug',
        'slug must be 2-63 characters of a-z 0-9 and -, starting with a letter or digit',
      );
    }
    if (await this.repository.findTenantBySlug(slug))
      throw DomainError.validation('slug', `Tenant "${slug}" already exists.`);
    await this.repository.insertTenantIfAbsent({ id: randomUUID(), slug, name, isSandbox: false, kind });
    return (await this.repository.findTenantBySlug(slug))!;
  }

  list(): Promise<TenantEntity[]> {
    return this.repository.listTenants();
  }
}
