import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { ClientsService } from '../tenancy/index.js';
import { TenancyRepository } from '../tenancy/index.js';
import type { ClientScope } from '../tenancy/index.js';
import { sandboxId, sandboxTenantId, SANDBOX_OPERATOR_TENANT, SANDBOX_TENANTS } from './sandbox-ids.js';
import type { TenantKind } from '../tenancy/index.js';
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

  /**
   * Runs the steps in order. A step that fails is logged (an error line, with why) and the start
   * goes on: the sandbox is a convenience, and every step is idempotent, so the next start
   * completes it. Never a rejection out of start-up (issue 27 item 11: the first start on an
   * empty PostgreSQL database ended on one).
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.sandboxEnabled) return;
    for (const step of this.registry.ordered()) {
      const started = Date.now();
      try {
        await step.run();
        this.logger.log(`Sandbox seed "${step.name}" ready in ${Date.now() - started} ms`);
      } catch (error) {
        this.logger.error(
          { step: step.name, error: error instanceof Error ? error.name : 'unknown' },
          `Sandbox seed "${step.name}" failed after ${Date.now() - started} ms (the next start completes it): ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  private async seedTenantsAndClients(): Promise<void> {
    const tenants = [
      ...SANDBOX_TENANTS.map((tenant) => ({ ...tenant, kind: 'partner' as TenantKind })),
      { ...SANDBOX_OPERATOR_TENANT, kind: 'operator' as TenantKind },
    ];
    for (const tenant of tenants) {
      const tenantId = sandboxTenantId(tenant.slug);
      await this.tenancy.insertTenantIfAbsent({
        id: tenantId,
        slug: tenant.slug,
        name: tenant.name,
        isSandbox: true,
        kind: tenant.kind,
      });
      const stored = await this.tenancy.findTenantById(tenantId);
      if (stored?.kind !== tenant.kind) {
        this.logger.warn(`Sandbox tenant "${tenant.slug}" not seeded: the slug belongs to another tenant.`);
        continue;
      }
      for (const client of tenant.clients) await this.seedClient(tenantId, client);
    }
  }

  /**
   * Inserts a sandbox client, or puts an existing one back in its tenant with its scopes. This is
   * how databases seeded before the operator tenant existed move `sandbox-admin` out of tenant
   * `sandbox` (where it held partner and admin) into `operator` with `admin` only.
   */
  private async seedClient(
    tenantId: string,
    client: { clientId: string; secret: string; scopes: readonly ClientScope[] },
  ): Promise<void> {
    const existing = await this.tenancy.findClientForAuthentication(client.clientId);
    if (!existing) {
      await this.tenancy.insertClientIfAbsent({
        id: sandboxId(`client:${client.clientId}`),
        tenantId,
        clientId: client.clientId,
        secretHash: await this.clients.hashSecret(client.secret),
        scopes: [...client.scopes],
      });
      return;
    }
    const scopes = [...client.scopes];
    if (existing.tenantId === tenantId && existing.scopes.join(' ') === scopes.join(' ')) return;
    await this.tenancy.updateClient(client.clientId, { tenantId, scopes });
    this.logger.log(
      `Sandbox client "${client.clientId}" moved to its tenant with scopes ${scopes.join(' ')} (was ${existing.tenant.slug}, ${existing.scopes.join(' ')}).`,
    );
  }
}
