import { Injectable, type OnModuleInit } from '@nestjs/common';
import { sandboxId, sandboxTenantId, SANDBOX_TENANTS } from '../sandbox/index.js';
import { SandboxSeedRegistry } from '../sandbox/index.js';
import { PortfoliosRepository } from './portfolios.repository.js';

/** SYNTHETIC sandbox portfolios; ids are UUID v5 of `portfolio:<tenant slug>:<key>`. */
export const SANDBOX_PORTFOLIOS: Record<
  string,
  { key: string; name: string; allocations: Record<string, string> }[]
> = {
  sandbox: [
    { key: 'core', name: 'Core BTC/ETH (sandbox)', allocations: { BTC: '60', ETH: '40' } },
    {
      key: 'balanced',
      name: 'Balanced large caps (sandbox)',
      allocations: { BTC: '50', ETH: '30', SOL: '20' },
    },
    {
      key: 'diversified',
      name: 'Diversified alt basket (sandbox)',
      allocations: { BTC: '30', ETH: '20', SOL: '10', ADA: '10', LINK: '10', DOT: '10', AVAX: '10' },
    },
    {
      key: 'income',
      name: 'Stable income sleeve (sandbox)',
      allocations: { USDC: '40', BTC: '40', ETH: '20' },
    },
  ],
  'sandbox-b': [
    { key: 'bitcoin-only', name: 'Bitcoin only (sandbox B)', allocations: { BTC: '100' } },
    {
      key: 'growth',
      name: 'Growth tilt (sandbox B)',
      allocations: { SOL: '40', ETH: '35', AVAX: '15', NEAR: '10' },
    },
  ],
};

export const sandboxPortfolioId = (tenantSlug: string, key: string) =>
  sandboxId(`portfolio:${tenantSlug}:${key}`);

/** Sandbox seed step 30: a few portfolios per sandbox tenant, inserted only if absent. */
@Injectable()
export class PortfoliosSandboxSeed implements OnModuleInit {
  constructor(
    private readonly registry: SandboxSeedRegistry,
    private readonly repository: PortfoliosRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({ order: 30, name: 'portfolios', run: () => this.seed() });
  }

  async seed(): Promise<void> {
    for (const tenant of SANDBOX_TENANTS) {
      for (const fixture of SANDBOX_PORTFOLIOS[tenant.slug] ?? []) {
        await this.repository.createIfAbsent(sandboxTenantId(tenant.slug), {
          id: sandboxPortfolioId(tenant.slug, fixture.key),
          name: fixture.name,
          allocations: Object.entries(fixture.allocations).map(([symbol, percentage]) => ({
            symbol,
            percentage,
          })),
        });
      }
    }
  }
}
