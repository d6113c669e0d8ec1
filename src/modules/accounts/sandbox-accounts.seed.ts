import { Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { SandboxSeedRegistry } from '../sandbox/sandbox-seed.registry.js';
import { SANDBOX_TENANTS, sandboxTenantId } from '../sandbox/sandbox-ids.js';
import {
  CredentialsCipher,
  RefreshService,
  SANDBOX_ACCOUNT_FIXTURES,
  SandboxConnector,
  sandboxAccountIds,
  sandboxHouseholdSeed,
  sandboxSourceOptions,
  toTransactionsCsv,
  type SandboxAccountFixture,
} from '../sources/index.js';
import { AccountsService } from './accounts.service.js';
import type { AccountEntity } from './entities/account.entity.js';
import { AccountsRepository } from './repositories/accounts.repository.js';

/**
 * Sandbox seed step 20 (after market data, 10): the account fixtures of design §11 for every
 * sandbox tenant. Each new account goes through the real pipeline (connector → refresh engine,
 * CSV import), so the seeded states are the ones the engine produces. Accounts that exist are
 * skipped, so restarts and several instances starting at once are safe. Slow initial syncs are
 * state (syncing until the scheduler finds the source ready), never a wait at start-up.
 */
@Injectable()
export class SandboxAccountsSeed implements OnModuleInit {
  private readonly logger = new Logger(SandboxAccountsSeed.name);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly accountsService: AccountsService,
    private readonly refresher: RefreshService,
    private readonly cipher: CredentialsCipher,
    private readonly sandbox: SandboxConnector,
    private readonly clock: Clock,
    /** Absent in the CLI, which never seeds. */
    @Optional() private readonly registry?: SandboxSeedRegistry,
  ) {}

  onModuleInit(): void {
    this.registry?.register({ order: 20, name: 'accounts', run: () => this.seed() });
  }

  async seed(): Promise<void> {
    for (const tenant of SANDBOX_TENANTS) {
      const tenantId = sandboxTenantId(tenant.slug);
      const created: [SandboxAccountFixture, AccountEntity][] = [];
      for (const [index, fixture] of SANDBOX_ACCOUNT_FIXTURES.entries()) {
        const account = await this.newAccount(
          tenant.slug,
          tenantId,
          fixture,
          SANDBOX_ACCOUNT_FIXTURES.length - 1 - index,
        );
        if (await this.accounts.insertIfAbsent(account)) created.push([fixture, account]);
      }
      for (const [fixture, account] of created) await this.firstSync(tenant.slug, fixture, account);
      if (created.length)
        this.logger.log(`Seeded ${created.length} sandbox accounts for tenant ${tenant.slug}`);
    }
  }

  /** `secondsAgo` spaces the fixtures' createdOn, so lists show them in fixture order. */
  private async newAccount(
    slug: string,
    tenantId: string,
    fixture: SandboxAccountFixture,
    secondsAgo: number,
  ): Promise<AccountEntity> {
    const ids = sandboxAccountIds(slug, fixture);
    const now = new Date(this.clock.now().getTime() - secondsAgo * 1_000);
    const delayMs = (fixture.syncDelayMinutes ?? 0) * 60_000;
    return {
      id: ids.accountId,
      tenantId,
      collectionId: ids.collectionId,
      identity: ids.identity,
      platform: fixture.platform,
      source: fixture.source,
      sourceOptions: fixture.source === 'sandbox' ? { ...sandboxSourceOptions(slug, fixture) } : null,
      address: ids.address,
      chain: fixture.chain ?? null,
      syncStatus: 'syncing',
      connectionStatus: 'connected',
      balanceSource: 'calculated',
      lastSyncedAt: null,
      createdOn: now,
      // Exchanges are linked with (synthetic) API keys; wallets by their public address only.
      credentialsEncrypted:
        fixture.script.kind === 'exchange' && fixture.source === 'sandbox'
          ? await this.cipher.encrypt(ids.accountId, {
              apiKey: `sandbox-${fixture.key}`,
              apiSecret: 'sandbox-not-a-real-secret',
            })
          : null,
      nextRefreshAt: new Date(now.getTime() + delayMs),
      lastRefreshAttemptAt: null,
      lastError: null,
      dataVersion: 0,
      refreshLeaseUntil: null,
      refreshLeaseOwner: null,
      refreshLeaseImport: null,
      reviewReason: null,
      reviewSince: null,
      refreshFailures: 0,
    };
  }

  private async firstSync(
    slug: string,
    fixture: SandboxAccountFixture,
    account: AccountEntity,
  ): Promise<void> {
    if (fixture.source === 'csv') {
      const history = this.sandbox.history(sandboxHouseholdSeed(slug), fixture.key, this.clock.now());
      await this.accountsService.importCsv(
        account.tenantId,
        account.id,
        toTransactionsCsv(history?.transactions ?? []),
      );
      return;
    }
    if (fixture.profile === 'slow_initial_sync') return;
    await this.refresher.refresh(account.tenantId, account.id, 'seed');
    // The outage account: synced once, then the source goes down.
    if (fixture.profile === 'outage_after_first_sync')
      await this.refresher.refresh(account.tenantId, account.id, 'seed');
  }
}
