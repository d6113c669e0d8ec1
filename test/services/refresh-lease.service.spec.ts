/**
 * Service tier: the refresh lease's takeover rule (issue 27 item 13; docs/decisions.md, "A refresh
 * lease whose holder is gone"). A lease is taken over at once when its holder is gone (a process
 * that died: on PGlite any instance but this process's, on PostgreSQL one whose liveness session
 * has ended), and only when it expired while the holder lives. An import that never finished
 * leaves the account `error` with the reason, and an import-only (csv) account is never marked
 * `synced` by a refresh that brought no data. Real database (PGlite, or Postgres with
 * DATABASE_URL), a scripted connector, a manual clock.
 */
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ManualClock } from '../../src/common/clock/clock.js';
import { ErrorCode } from '../../src/common/errors/domain-error.js';
import { LedgerModule, LedgerService } from '../../src/modules/ledger/index.js';
import {
  ConnectorRegistry,
  LEASE_MS,
  RefreshService,
  SourcesModule,
} from '../../src/modules/sources/index.js';
import {
  LEASE_HOLDER_LOCK_SPACE,
  LeaseHolders,
  RefreshStateRepository,
} from '../../src/modules/sources/testing.js';
import { accountState, insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';
import { usingPostgres } from '../support/test-app.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const SOURCE = 'scripted';
const HISTORY = [
  sourceTx({
    transactionId: 'b1',
    direction: 'buy',
    amount: '1',
    priceUsd: '30000',
    at: '2024-01-01T00:00:00Z',
  }),
];
/** The instance token of a process that is gone (killed): nobody holds it any more. */
const deadInstance = () => `vm:4242:${randomUUID().slice(0, 8)}`;

describe('refresh lease takeover (service tier)', () => {
  let s: ServiceModule;
  let clock: ManualClock;
  let tenantId: string;
  let connector: ScriptedConnector;

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    s = await startServiceModule({
      imports: [LedgerModule, SourcesModule],
      clock,
      prices: new FixedMarketPrices({ BTC: '60000' }),
    });
    tenantId = await insertTenant(s.dataSource, 'service-refresh-lease');
  });

  afterAll(() => s?.close());

  beforeEach(() => {
    clock.set(NOW);
    connector = new ScriptedConnector();
    s.get(ConnectorRegistry).register(SOURCE, connector);
  });

  const lease = (id: string, owner: string) =>
    s
      .get(RefreshStateRepository)
      .claimLease(tenantId, id, owner, clock.now(), new Date(clock.now().getTime() + LEASE_MS));

  it('takes over at once a lease whose holder is gone (a killed process of this machine)', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: SOURCE, createdOn: clock.now() });
    connector.serves(HISTORY);
    expect(await lease(id, deadInstance())).not.toBeNull();
    // Not 5 minutes later: now.
    expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toMatchObject({ status: 'refreshed' });
    expect(connector.calls).toBe(1);
    expect(await accountState(s.dataSource, id)).toMatchObject({ syncStatus: 'synced', leaseOwner: null });
  });

  it('takes an import at once on an account whose lease a gone holder left (no 409)', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: clock.now() });
    expect(await lease(id, deadInstance())).not.toBeNull();
    await expect(s.get(RefreshService).importTransactions(tenantId, id, HISTORY)).resolves.toEqual({
      inserted: 1,
      updated: 0,
    });
    expect(await accountState(s.dataSource, id)).toMatchObject({ syncStatus: 'synced', leaseOwner: null });
  });

  it('never marks an import-only account synced when nothing was imported (a scheduled refresh writes nothing)', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: clock.now() });
    const refresher = s.get(RefreshService);
    const claimed = await refresher.claimDueAccounts(10);
    expect(claimed.map((c) => c.accountId)).toContain(id);
    await refresher.runScheduledJob(tenantId, id, refresher.owner);
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'syncing',
      lastSyncedAt: null,
      leaseOwner: null,
    });
    // No balances were made up: the account still has none (a 422 "initial_sync_pending").
    expect(await s.get(LedgerService).snapshotOf(tenantId, id)).toBeNull();
  });
  /** Leaves the account as an import whose process died leaves it: leased, the import recorded. */
  async function abandonImport(id: string, holder = deadInstance()): Promise<void> {
    expect(
      await s
        .get(RefreshStateRepository)
        .claimLease(tenantId, id, holder, clock.now(), new Date(clock.now().getTime() + LEASE_MS), {
          importing: 'a csv file (3 rows) started 2024-06-01T11:59:00.000Z',
        }),
    ).not.toBeNull();
  }

  it('leaves a live instance’s lease alone (busy) until it lapses; once its holder lets go, takes it at once', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: SOURCE, createdOn: clock.now() });
    connector.serves(HISTORY);
    const other = `other-instance-${randomUUID()}`;
    await s.get(LeaseHolders).hold(other);
    expect(await lease(id, other)).not.toBeNull();
    expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toEqual({ status: 'busy' });
    await s.get(LeaseHolders).release(other);
    expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toMatchObject({ status: 'refreshed' });
  });

  (usingPostgres() ? it : it.skip)(
    'on PostgreSQL a holder is alive while its session holds its lock, and gone the moment that session ends',
    async () => {
      const id = await insertAccount(s.dataSource, tenantId, { source: SOURCE, createdOn: clock.now() });
      connector.serves(HISTORY);
      // Another process's lease-holder session (as LeaseHolders opens one).
      const instance = `vm:7777:${randomUUID().slice(0, 8)}`;
      const session = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await session.connect();
      await session.query('SELECT pg_advisory_lock($1, hashtext($2))', [LEASE_HOLDER_LOCK_SPACE, instance]);
      expect(await lease(id, `${instance}/seed`)).not.toBeNull();
      expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toEqual({ status: 'busy' });
      expect(connector.calls).toBe(0);
      // The process dies: the database ends its session, and the lock with it (the server may
      // take a moment after the socket closes to let the lock go).
      await session.end();
      let outcome = await s.get(RefreshService).refresh(tenantId, id, 'admin');
      for (let i = 0; i < 20 && outcome.status === 'busy'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        outcome = await s.get(RefreshService).refresh(tenantId, id, 'admin');
      }
      expect(outcome).toMatchObject({ status: 'refreshed' });
      expect(connector.calls).toBe(1);
    },
  );

  (usingPostgres() ? it : it.skip)(
    'on PostgreSQL this instance’s lease-holder session is opened again, with its lock, after it drops',
    async () => {
      const holders = s.get(LeaseHolders);
      const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      // The backend holding this instance's lock (pg_locks: two-key advisory locks as classid, objid).
      const holder = async (): Promise<number | null> => {
        const [row] = await s.dataSource.query(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
             AND classid = $1::bigint::oid AND objid = ((hashtext($2)::bigint + 4294967296) % 4294967296)::oid`,
          [LEASE_HOLDER_LOCK_SPACE, holders.instance],
        );
        return row ? Number(row.pid) : null;
      };
      const first = await holder();
      expect(first).not.toBeNull();
      await s.dataSource.query('SELECT pg_terminate_backend($1)', [first]);
      let again = await holder();
      for (let i = 0; i < 100 && (again === null || again === first); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        again = await holder();
      }
      expect(again).not.toBeNull();
      expect(again).not.toBe(first);
      expect(warnings).toHaveBeenCalledWith(expect.stringContaining('The lease holder session ended'));
      warnings.mockRestore();
    },
  );

  it('an import that never finished leaves the account error with the reason, free for the next import', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: clock.now() });
    await abandonImport(id);
    // The scheduler's run (and every start-up) finds it.
    expect(await s.get(RefreshService).resolveAbandonedImports()).toBe(1);
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'error',
      lastError:
        'The import of a csv file (3 rows) started 2024-06-01T11:59:00.000Z did not finish: the service stopped during it, and nothing of it was stored. Import the file again.',
      leaseOwner: null,
    });
    expect(await s.get(RefreshService).resolveAbandonedImports()).toBe(0);
    await s.get(RefreshService).importTransactions(tenantId, id, HISTORY);
    expect(await accountState(s.dataSource, id)).toMatchObject({ syncStatus: 'synced', lastError: null });
  });

  it('a refresh that finds an unfinished import says so first, and never marks the empty account synced', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: clock.now() });
    await abandonImport(id);
    expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toEqual({
      status: 'pending',
      retryAt: null,
    });
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'error',
      lastError: expect.stringMatching(/^The import of a csv file \(3 rows\) .* did not finish/),
      lastSyncedAt: null,
      // Not due: it waits for an import, not for the scheduler.
      nextRefreshAt: null,
      leaseOwner: null,
    });
    expect(await s.get(LedgerService).snapshotOf(tenantId, id)).toBeNull();
  });

  it('an import still running (its holder alive) is no unfinished import: a second import is a 409', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: clock.now() });
    const other = `other-instance-${randomUUID()}`;
    await s.get(LeaseHolders).hold(other);
    await abandonImport(id, other);
    expect(await s.get(RefreshService).resolveAbandonedImports()).toBe(0);
    await expect(s.get(RefreshService).importTransactions(tenantId, id, HISTORY)).rejects.toMatchObject({
      code: ErrorCode.Conflict,
    });
    expect(await accountState(s.dataSource, id)).toMatchObject({ syncStatus: 'syncing', leaseOwner: other });
    await s.get(RefreshStateRepository).releaseLease(tenantId, id, other);
    await s.get(LeaseHolders).release(other);
  });

  it('a revaluation of an import-only account whose last import did not finish keeps saying so', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: clock.now() });
    await s.get(RefreshService).importTransactions(tenantId, id, HISTORY);
    const imported = await accountState(s.dataSource, id);
    clock.set(new Date(NOW.getTime() + 60_000));
    await abandonImport(id);
    expect(await s.get(RefreshService).resolveAbandonedImports()).toBe(1);
    // Due again (30 minutes on): a scheduled refresh revalues the stored history at current prices.
    clock.set(new Date(NOW.getTime() + 3 * 3_600_000));
    expect(await s.get(RefreshService).refresh(tenantId, id, 'schedule')).toMatchObject({
      status: 'refreshed',
    });
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'error',
      lastError: expect.stringMatching(/did not finish/),
      lastSyncedAt: imported.lastSyncedAt,
      leaseOwner: null,
    });
    expect((await s.get(LedgerService).snapshotOf(tenantId, id))?.assets).toHaveLength(1);
  });

  it('a refresh whose lease was taken over while it fetched writes nothing (the new holder writes)', async () => {
    const id = await insertAccount(s.dataSource, tenantId, { source: SOURCE, createdOn: clock.now() });
    connector.serves(HISTORY).hold();
    const running = s.get(RefreshService).refresh(tenantId, id, 'admin');
    await connector.entered;
    // Meanwhile another instance took it over (this one was taken for gone).
    const other = `other-instance-${randomUUID()}`;
    await s.get(LeaseHolders).hold(other);
    await s.dataSource.query('UPDATE account SET refresh_lease_owner = $2 WHERE id = $1', [id, other]);
    connector.release();
    expect(await running).toEqual({ status: 'busy' });
    expect(await accountState(s.dataSource, id)).toMatchObject({ syncStatus: 'syncing', leaseOwner: other });
    expect(await s.get(LedgerService).snapshotOf(tenantId, id)).toBeNull();
    await s.get(LeaseHolders).release(other);
  });
});
