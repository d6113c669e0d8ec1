import { Injectable, type OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { SandboxSeedRegistry } from '../sandbox/index.js';
import { MarketRefreshService } from './market-refresh.service.js';

/** How long a starting instance waits for another instance that holds the refresh lease. */
const WAIT_FOR_OTHER_INSTANCE_MS = 30_000;

/**
 * Sandbox seed step 10: fills the market store with the synthetic market (history since
 * 2020-01-01 through today and a current snapshot) before accounts (20) and portfolios (30).
 * Skips when the store is already current; with MARKET_PROVIDER=coingecko it does nothing (the
 * scheduled refresh fills the store from CoinGecko instead).
 */
@Injectable()
export class MarketSandboxSeed implements OnModuleInit {
  constructor(
    private readonly registry: SandboxSeedRegistry,
    private readonly refresh: MarketRefreshService,
  ) {}

  onModuleInit(): void {
    this.registry.register({ order: 10, name: 'market data', run: () => this.seed() });
  }

  async seed(): Promise<void> {
    if (this.refresh.providerSource !== 'sandbox') return;
    const deadline = Date.now() + WAIT_FOR_OTHER_INSTANCE_MS;
    while (!(await this.refresh.isCurrent())) {
      const outcome = await this.refresh.refreshNow();
      if (outcome.status !== 'skipped') return;
      // Another instance holds the lease and is seeding: wait for it rather than start half-seeded.
      if (Date.now() > deadline) return;
      await sleep(250);
    }
  }
}
