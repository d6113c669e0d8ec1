/**
 * Service tier: the sandbox seed of the account fixtures (issue 27 item 11). On a first start the
 * scheduler runs beside the seed (its claim every 30 s); it must never take a fixture the seed has
 * not synced yet: the first start on an empty PostgreSQL database crashed with "A refresh or
 * import of this account is running" because the scheduler had leased the `robinhood-import`
 * fixture before the seed's import (and after a restart that fixture was `synced` with 0
 * transactions). Here the scheduler's claim runs right after every fixture the seed inserts, as a
 * tick landing mid-seed would, on a real database (PGlite, or Postgres with DATABASE_URL).
 */
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ManualClock } from '../../src/common/clock/clock.js';
import { AccountsModule } from '../../src/modules/accounts/index.js';
import { AccountsRepository, SandboxAccountsSeed } from '../../src/modules/accounts/testing.js';
import { LedgerService } from '../../src/modules/ledger/index.js';
import { sandboxTenantId, SANDBOX_TENANTS } from '../../src/modules/sandbox/index.js';
import {
  RefreshService,
  SANDBOX_ACCOUNT_FIXTURES,
  sandboxAccountIds,
} from '../../src/modules/sources/index.js';
import { RefreshStateRepository } from '../../src/modules/sources/testing.js';
import { accountState } from '../factories/account-rows.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const TENANT = SANDBOX_TENANTS[0].slug;
const CSV_FIXTURE = SANDBOX_ACCOUNT_FIXTURES.find((fixture) => fixture.source === 'csv')!;

describe('sandbox seed of the account fixtures (service tier)', () => {
  let s: ServiceModule;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(NOW);
    s = await startServiceModule({
      imports: [AccountsModule],
      clock,
      prices: new FixedMarketPrices({
        BTC: '60000',
        ETH: '3000',
        SOL: '150',
        ADA: '0.5',
        DOT: '7',
        LINK: '15',
      }),
      env: { SANDBOX: 'true' },
    });
    for (const tenant of SANDBOX_TENANTS)
      await s.dataSource.query(
        `INSERT INTO tenant (id, slug, name, is_sandbox, kind) VALUES ($1, $2, $3, true, 'partner')`,
        [sandboxTenantId(tenant.slug), tenant.slug, tenant.name],
      );
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await s?.close();
  });

  const csvAccountId = () => sandboxAccountIds(TENANT, CSV_FIXTURE).accountId;

  it('owns its accounts until they are seeded: a scheduler claim mid-seed takes none of them, and the seed completes', async () => {
    const refresher = s.get(RefreshService);
    const claimedMidSeed: string[] = [];
    const repository = s.get(AccountsRepository);
    const insert = repository.insertIfAbsent.bind(repository);
    // A scheduler tick after every insert: the worst moment, as on a slow database.
    jest.spyOn(repository, 'insertIfAbsent').mockImplementation(async (account, manager) => {
      const inserted = await insert(account, manager);
      for (const claim of await refresher.claimDueAccounts(10)) claimedMidSeed.push(claim.accountId);
      return inserted;
    });

    await expect(s.get(SandboxAccountsSeed).seed()).resolves.toBeUndefined();

    expect(claimedMidSeed).toEqual([]);
    // The import fixture holds its history, synced by the seed itself.
    const state = await accountState(s.dataSource, csvAccountId());
    expect(state).toMatchObject({ syncStatus: 'synced', leaseOwner: null });
    const [{ count }] = await s.dataSource.query(
      'SELECT count(*)::int AS count FROM "transaction" WHERE account_id = $1',
      [csvAccountId()],
    );
    expect(count).toBeGreaterThan(0);
    // Every fixture's lease was given back: the scheduler can take the due ones from here on.
    const [{ leased }] = await s.dataSource.query(
      'SELECT count(*)::int AS leased FROM account WHERE refresh_lease_owner IS NOT NULL',
    );
    expect(leased).toBe(0);
  });

  it('finishes on a restart what a killed seed left: the import fixture is imported, never left empty', async () => {
    const seed = s.get(SandboxAccountsSeed);
    // The first start died after inserting the fixtures and before the import (its lease is a
    // dead process's).
    const repository = s.get(AccountsRepository);
    const insert = repository.insertIfAbsent.bind(repository);
    const spy = jest.spyOn(repository, 'insertIfAbsent').mockImplementation(async (account, manager) => {
      const inserted = await insert(account, manager);
      if (inserted)
        await s.dataSource.query(
          `UPDATE account SET refresh_lease_owner = 'vm:4242:deadbeef', refresh_lease_until = $2 WHERE id = $1`,
          [account.id, new Date(NOW.getTime() + 60 * 60_000)],
        );
      return inserted;
    });
    const firstSync = jest
      .spyOn(s.get(RefreshService), 'importTransactions')
      .mockRejectedValueOnce(new Error('killed'));
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await seed.seed().catch(() => undefined);
    spy.mockRestore();
    firstSync.mockRestore();
    expect(await accountState(s.dataSource, csvAccountId())).toMatchObject({ lastSyncedAt: null });

    // The restart: the seed runs again.
    await expect(seed.seed()).resolves.toBeUndefined();
    expect(await accountState(s.dataSource, csvAccountId())).toMatchObject({ syncStatus: 'synced' });
    const snapshot = await s.get(LedgerService).snapshotOf(sandboxTenantId(TENANT), csvAccountId());
    expect(snapshot?.assets.length).toBeGreaterThan(0);
  });

  it('never rejects when one fixture cannot be synced: it logs it, gives the lease back and seeds the others', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest
      .spyOn(s.get(RefreshService), 'importTransactions')
      .mockRejectedValue(new Error('database went away'));
    await expect(s.get(SandboxAccountsSeed).seed()).resolves.toBeUndefined();
    expect(errors).toHaveBeenCalled();
    expect(await accountState(s.dataSource, csvAccountId())).toMatchObject({ leaseOwner: null });
    const [{ synced }] = await s.dataSource.query(
      `SELECT count(*)::int AS synced FROM account WHERE sync_status = 'synced'`,
    );
    expect(synced).toBeGreaterThan(0);
    // RefreshStateRepository is the engine's own; only to say the import fixture stays unseeded.
    expect(
      (await s.get(RefreshStateRepository).findById(sandboxTenantId(TENANT), csvAccountId()))?.lastSyncedAt,
    ).toBeNull();
  });
});
