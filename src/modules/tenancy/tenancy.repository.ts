import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { inAuditedTransaction } from '../../common/audit/audit-scope.js';
import { ApiClientEntity } from './entities/api-client.entity.js';
import { TenantEntity } from './entities/tenant.entity.js';

/**
 * Tenants and their API clients. Authentication looks clients up by their globally unique
 * clientId (before any tenant is known); everything else is tenant-scoped.
 */
@Injectable()
export class TenancyRepository {
  constructor(
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
    @InjectRepository(ApiClientEntity) private readonly clients: Repository<ApiClientEntity>,
  ) {}

  findTenantBySlug(slug: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ slug });
  }

  findTenantById(tenantId: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ id: tenantId });
  }

  listTenants(): Promise<TenantEntity[]> {
    return this.tenants.find({ order: { slug: 'ASC' } });
  }

  /** In a transaction when the request is an audited write, so its audit entry commits with it. */
  private write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inAuditedTransaction(this.tenants.manager.connection, work);
  }

  async insertTenantIfAbsent(
    tenant: Pick<TenantEntity, 'id' | 'slug' | 'name' | 'isSandbox'> & Partial<Pick<TenantEntity, 'kind'>>,
  ): Promise<void> {
    await this.write((manager) =>
      manager.getRepository(TenantEntity).createQueryBuilder().insert().values(tenant).orIgnore().execute(),
    );
  }

  findClientForAuthentication(
    clientId: string,
  ): Promise<(ApiClientEntity & { tenant: TenantEntity }) | null> {
    return this.clients.findOne({ where: { clientId }, relations: { tenant: true } }) as Promise<
      (ApiClientEntity & { tenant: TenantEntity }) | null
    >;
  }

  listClients(tenantId: string): Promise<ApiClientEntity[]> {
    return this.clients.find({ where: { tenantId }, order: { clientId: 'ASC' } });
  }

  /** The admin API's list across tenants (by design: the operator manages every tenant's clients). */
  adminListAllClients(): Promise<ApiClientEntity[]> {
    return this.clients.find({ order: { clientId: 'ASC' } });
  }

  async insertClientIfAbsent(
    client: Pick<ApiClientEntity, 'id' | 'tenantId' | 'clientId' | 'secretHash' | 'scopes'>,
  ): Promise<boolean> {
    return this.write(async (manager) => {
      const clients = manager.getRepository(ApiClientEntity);
      await clients
        .createQueryBuilder()
        .insert()
        .values({ ...client, disabled: false })
        .orIgnore()
        .execute();
      // TypeORM reports the identifiers it was given whether or not ON CONFLICT skipped the row,
      // so whether this insert won is read back: the row under this clientId has our id or not.
      const stored = await clients.findOne({ where: { clientId: client.clientId }, select: { id: true } });
      return stored?.id === client.id;
    });
  }

  /** New secret hash and the next secret generation, in one statement (two rotations never share one). */
  async rotateClientSecret(clientId: string, secretHash: string, rotatedAt: Date): Promise<boolean> {
    const result = await this.write((manager) =>
      manager
        .getRepository(ApiClientEntity)
        .update(
          { clientId },
          { secretHash, secretRotatedAt: rotatedAt, secretGeneration: () => '"secret_generation" + 1' },
        ),
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Disables (and moves to the next secret generation, in the same statement, so every token
   * issued before is revoked for good: re-enabling does not revive them) or re-enables a client.
   */
  async setClientDisabled(clientId: string, disabled: boolean): Promise<boolean> {
    const result = await this.write((manager) =>
      manager
        .getRepository(ApiClientEntity)
        .update(
          { clientId },
          disabled ? { disabled, secretGeneration: () => '"secret_generation" + 1' } : { disabled },
        ),
    );
    return (result.affected ?? 0) > 0;
  }

  async updateClient(
    clientId: string,
    changes: Partial<
      Pick<
        ApiClientEntity,
        'secretHash' | 'disabled' | 'secretRotatedAt' | 'lastUsedAt' | 'tenantId' | 'scopes'
      >
    >,
  ): Promise<boolean> {
    const result = await this.write((manager) =>
      manager.getRepository(ApiClientEntity).update({ clientId }, changes),
    );
    return (result.affected ?? 0) > 0;
  }
}
