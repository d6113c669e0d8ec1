import { Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { SandboxSeedRegistry } from '../sandbox/index.js';
import { SANDBOX_TENANTS, sandboxTenantId } from '../sandbox/index.js';
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
 * How long the seed holds the accounts it creates before their first sync: past the slowest seed
 * (the lease goes back as soon as each account is synced, and at once if the process dies).
 */
const SEED_LEASE_MS = 30 * 60_000;

/**
 * Sandbox seed step 20 (after market data, 10): the account fixtures of design §11 for every
 * sandbox tenant. Each new account goes through the real pipeline (connector → refresh engine,
 * CSV import), so the seeded states are the ones the engine produces. Slow initial syncs are
 * state (syncing until the scheduler finds the source ready), never a wait at start-up.
 *
 * The seed owns its accounts until they are seeded (issue 27 item 11): it creates them under its
 * own lease (`RefreshService.seedOwner`), which the scheduler leaves alone and the first sync
 * takes over, so a scheduler run during the seed (on a slow database the seed spans several) never
 * takes a fixture first. Accounts that exist are skipped, unless a seed that was killed left them
 * unseeded: those it seeds now (their lease, a dead process's, is free). Restarts and several
 * instances starting at once are safe. A fixture that cannot be seeded is logged and left to the
 * next start; the seed never fails the start-up.
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
    const owner = this.refresher.seedOwner;
    for (const tenant of SANDBOX_TENANTS) {
      const tenantId = sandboxTenantId(tenant.slug);
      // Inserted first, all of them (transfers link the fixtures), then synced one by one.
      const toSync: { fixture: SandboxAccountFixture; account: AccountEntity; leased: boolean }[] = [];
      for (const [index, fixture] of SANDBOX_ACCOUNT_FIXTURES.entries()) {
        const account = await this.newAccount(
          tenant.slug,
          tenantId,
          fixture,
          SANDBOX_ACCOUNT_FIXTURES.length - 1 - index,
          owner,
        );
        if (await this.accounts.insertIfAbsent(account)) {
          toSync.push({ fixture, account, leased: true });
          continue;
        }
        const existing = await this.accounts.findById(tenantId, account.id);
        if (existing && unseeded(fixture, existing))
          toSync.push({ fixture, account: existing, leased: false });
      }
      let seeded = 0;
      for (const { fixture, account, leased } of toSync) {
        if (await this.firstSync(tenant.slug, fixture, account, leased ? owner : undefined)) seeded++;
      }
      if (toSync.length)
        this.logger.log(
          `Seeded ${seeded} of ${toSync.length} sandbox accounts for tenant ${tenant.slug}${seeded < toSync.length ? ' (the others are synced elsewhere or at the next start)' : ''}`,
        );
    }
  }

  /** `secondsAgo` spaces the fixtures' createdOn, so lists show them in fixture order. */
  private async newAccount(
    slug: string,
    tenantId: string,
    fixture: SandboxAccountFixture,
    secondsAgo: number,
    leaseOwner: string,
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
      // Created leased by the seed: no scheduler run takes it before its first sync below.
      refreshLeaseUntil: new Date(this.clock.now().getTime() + SEED_LEASE_MS),
      refreshLeaseOwner: leaseOwner,
      refreshLeaseImport: null,
      reviewReason: null,
      reviewSince: null,
      refreshFailures: 0,
    };
  }

  /**
   * The account's first sync, taking the lease from the seed (`from`; absent for an account a
   * killed seed left, whose lease is free). True when it ran; never rejects: a failure is logged,
   * and the seed's lease given back, so the next start (or the scheduler) takes it up.
   */
  private async firstSync(
    slug: string,
    fixture: SandboxAccountFixture,
    account: AccountEntity,
    from: string | undefined,
  ): Promise<boolean> {
    const { tenantId, id: accountId } = account;
    try {
      if (fixture.source === 'csv') {
        const history = this.sandbox.history(sandboxHouseholdSeed(slug), fixture.key, this.clock.now());
        await this.accountsService.importCsv(
          tenantId,
          accountId,
          toTransactionsCsv(history?.transactions ?? []),
          undefined,
          undefined,
          from,
        );
        return true;
      }
      if (fixture.profile === 'slow_initial_sync') return true;
      const outcome = await this.refresher.refresh(tenantId, accountId, 'seed', { from });
      if (outcome.status === 'busy') return false;
      // The outage account: synced once, then the source goes down.
      if (fixture.profile === 'outage_after_first_sync')
        await this.refresher.refresh(tenantId, accountId, 'seed');
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof DomainError && error.code === ErrorCode.Conflict)
        this.logger.log({ accountId, fixture: fixture.key }, `Sandbox fixture held elsewhere: ${message}`);
      else
        this.logger.error(
          { accountId, fixture: fixture.key, error: error instanceof Error ? error.name : 'unknown' },
          `Sandbox fixture ${fixture.key} of tenant ${slug} could not be seeded (the next start seeds it): ${message}`,
        );
      return false;
    } finally {
      // Whatever happened, the seed holds it no longer (a no-op once the first sync took it over).
      await this.refresher.releaseSeedLease(tenantId, accountId).catch(() => undefined);
    }
  }
}

/**
 * An existing fixture that a killed seed left without its first sync: never synced, and (but for
 * the import fixture, which only the seed fills) still waiting for it. Slow initial syncs wait for
 * the scheduler, as designed.
 */
function unseeded(fixture: SandboxAccountFixture, account: AccountEntity): boolean {
  if (account.lastSyncedAt !== null || fixture.profile === 'slow_initial_sync') return false;
  return fixture.source === 'csv' || account.syncStatus === 'syncing';
}
