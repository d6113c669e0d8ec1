import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { ClientsService } from '../tenancy/clients.service.js';
import { TenancyRepository } from '../tenancy/tenancy.repository.js';
import { sandboxId, sandboxTenantId, SANDBOX_TENANTS } from './sandbox-ids.js';
import { SandboxSeedRegistry } from './sandbox-seed.registry.js';

/**
 * Seeds the synthetic sandbox (design §11) on start-up outside production. Idempotent: fixed ids,
 * insert-if-absent, so restarts and several instances starting together are safe.
 */
@Injectable()
export class SandboxSeeder implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(SandboxSeeder.name);

  constructor(
    private readonly config: AppConfig,
    private readonly registry: SandboxSeedRegistry,
    private readonly tenancy: TenancyRepository,
    private readonly clients: ClientsService,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      order: 0,
      name: 'tenants and clients',
      run: () => this.seedTenantsAndClients(),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.sandboxEnabled) return;
    for (const step of this.registry.ordered()) {
      const started = Date.now();
      await step.run();
      this.logger.log(`Sandbox seed "${step.name}" ready in ${Date.now() - started} ms`);
    }
  }

  private async seedTenantsAndClients(): Promise<void> {
    for (const tenant of SANDBOX_TENANTS) {
      const tenantId = sandboxTenantId(tenant.slug);
      await this.tenancy.insertTenantIfAbsent({
        id: tenantId,
        slug: tenant.slug,
        name: tenant.name,
        isSandbox: true,
      });
      for (const client of tenant.clients) {
        if (await this.tenancy.findClientForAuthentication(client.clientId)) continue;
        await this.tenancy.insertClientIfAbsent({
          id: sandboxId(`client:${client.clientId}`),
          tenantId,
          clientId: client.clientId,
          secretHash: await this.clients.hashSecret(client.secret),
          scopes: [...client.scopes],
        });
      }
    }
  }
}
