/**
 * Service tier: per-source scheduling (docs/sources.md, "Scheduling") on a real database: the
 * scheduler's claim respects each source's concurrency cap (leases held by anyone count), a slow
 * source's refreshes never hold up another source's, and failed refreshes back off exponentially
 * with jitter and a cap, reset by a successful one. Scripted connectors, a manual clock.
 */
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../src/common/clock/clock.js';
import { LedgerModule } from '../../src/modules/ledger/index.js';
import {
  ConnectorRegistry,
  LEASE_MS,
  RefreshService,
  SourceAuthorizationError,
  SourceSchedules,
  SourcesModule,
  SourceUnavailableError,
  type SourceSchedule,
} from '../../src/modules/sources/index.js';
import { LeaseHolders, RefreshStateRepository } from '../../src/modules/sources/testing.js';
import { accountState, insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const MINUTE = 60_000;
const HISTORY = [sourceTx({ transactionId: 'b1', direction: 'buy', amount: '1', priceUsd: '30000' })];

const schedule = (fields: Partial<SourceSchedule> = {}): SourceSchedule => ({
  intervalMs: 10 * MINUTE,
  maxConcurrent: 2,
  backoff: { baseMs: MINUTE, capMs: 5 * MINUTE, jitter: 0.5 },
  ...fields,
});

describe('per-source scheduling (service tier)', () => {
  let s: ServiceModule;
  let clock: ManualClock;
  let tenantId: string;
  const restore: (() => void)[] = [];

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    s = await startServiceModule({
      imports: [LedgerModule, SourcesModule],
      clock,
      prices: new FixedMarketPrices({ BTC: '60000' }),
    });
    tenantId = await insertTenant(s.dataSource, 'service-scheduling');
  });

  afterAll(() => s?.close());

  beforeEach(async () => {
    clock.set(NOW);
    // Each test sees only its own due accounts.
    await s.dataSource.query('UPDATE account SET next_refresh_at = NULL');
  });

  afterEach(() => {
    while (restore.length) restore.pop()!();
    s.get(SourceSchedules).random = Math.random;
  });

  /** A source with its own connector and schedule; `count` accounts of it, due now. */
  async function source(
    name: string,
    connector: ScriptedConnector,
    fields: Partial<SourceSchedule>,
    count: number,
  ) {
    restore.push(s.get(ConnectorRegistry).register(name, connector));
    restore.push(s.get(SourceSchedules).set(name, schedule(fields)));
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push(await insertAccount(s.dataSource, tenantId, { source: name, createdOn: clock.now() }));
    return ids;
  }

  async function failures(accountId: string): Promise<number> {
    const [row] = await s.dataSource.query('SELECT refresh_failures FROM account WHERE id = $1', [accountId]);
    return Number(row.refresh_failures);
  }

  /** Polls until `check` holds (the refreshes run concurrently with the test); fails after 20 s. */
  async function eventually(check: () => Promise<boolean>): Promise<void> {
    const until = Date.now() + 20_000;
    while (!(await check())) {
      if (Date.now() > until) throw new Error('condition not reached');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const synced = (ids: readonly string[]) => async () =>
    (await Promise.all(ids.map((id) => accountState(s.dataSource, id)))).every(
      (a) => a.syncStatus === 'synced',
    );

  it('claims no more of a source than its concurrency cap, counting leases held by anyone', async () => {
    const connector = new ScriptedConnector().serves(HISTORY).hold();
    const ids = await source('capped', connector, { maxConcurrent: 2 }, 5);
    const refresher = s.get(RefreshService);

    const first = await refresher.dispatchDueAccounts(10);
    expect(first.started).toBe(2);
    await connector.entered;
    // Both slots are busy: a second scheduler run (this or another instance) claims nothing more.
    expect((await refresher.dispatchDueAccounts(10)).started).toBe(0);
    connector.release();
    expect((await first.done).map((o) => o.status)).toEqual(['refreshed', 'refreshed']);
    expect(connector.calls).toBe(2);

    // Another instance (alive) holds a lease on one of the source's accounts (e.g. a partner's
    // forced refresh): one slot is left.
    const other = `other-instance-${randomUUID()}`;
    await s.get(LeaseHolders).hold(other);
    const remaining = [];
    for (const id of ids)
      if ((await accountState(s.dataSource, id)).syncStatus === 'syncing') remaining.push(id);
    expect(remaining).toHaveLength(3);
    await s
      .get(RefreshStateRepository)
      .claimLease(tenantId, remaining[0], other, clock.now(), new Date(clock.now().getTime() + LEASE_MS));
    const second = await refresher.dispatchDueAccounts(10);
    expect(second.started).toBe(1);
    await second.done;
    await s.get(RefreshStateRepository).releaseLease(tenantId, remaining[0], other);
    await s.get(LeaseHolders).release(other);
    // Released: the last two (the one the other instance held, and the one left) fill both slots.
    const third = await refresher.dispatchDueAccounts(10);
    expect(third.started).toBe(2);
    await third.done;
    expect(connector.calls).toBe(5);
    expect(await synced(ids)()).toBe(true);
  });

  it('a slow source keeps its own slots busy while another source’s refreshes go through', async () => {
    const slow = new ScriptedConnector().serves(HISTORY).hold();
    const quick = new ScriptedConnector().serves(HISTORY);
    const slowIds = await source('slowx', slow, { maxConcurrent: 1 }, 2);
    const quickIds = await source('quick', quick, { maxConcurrent: 2 }, 2);
    const refresher = s.get(RefreshService);

    const first = await refresher.dispatchDueAccounts(10);
    expect(first.started).toBe(3); // one slow (its cap), two quick
    await slow.entered;
    await eventually(synced(quickIds));
    expect(quick.calls).toBe(2);
    // The slow source is still on its first account, the lease held; its second waits its turn.
    expect(await accountState(s.dataSource, slowIds[0])).toMatchObject({ syncStatus: 'syncing' });
    expect(slow.calls).toBe(1);

    // A scheduler run while the slow refresh hangs: the quick source's new due account is
    // claimed and refreshed; the slow source gets nothing more (its one slot is taken).
    const later = await insertAccount(s.dataSource, tenantId, { source: 'quick', createdOn: clock.now() });
    const second = await refresher.dispatchDueAccounts(10);
    expect(second.started).toBe(1);
    expect((await second.done).map((o) => o.status)).toEqual(['refreshed']);
    expect(await accountState(s.dataSource, later)).toMatchObject({ syncStatus: 'synced' });
    expect(slow.calls).toBe(1);

    slow.release();
    expect((await first.done).map((o) => o.status)).toEqual(['refreshed', 'refreshed', 'refreshed']);
    const third = await refresher.dispatchDueAccounts(10);
    expect(third.started).toBe(1);
    await third.done;
    expect(await synced(slowIds)()).toBe(true);
  });

  it('backs off exponentially with jitter up to the cap after consecutive failures, and resets after success', async () => {
    const connector = new ScriptedConnector().throws(new SourceUnavailableError('exchange down'));
    const [id] = await source('flaky', connector, {}, 1);
    const refresher = s.get(RefreshService);
    s.get(SourceSchedules).random = () => 0.5; // jitter 0.5 × 0.5: each delay is 75% of its step

    // Steps: 1, 2, 4, then capped at 5 minutes: 45 s, 90 s, 180 s, 225 s, 225 s.
    const expected = [45_000, 90_000, 180_000, 225_000, 225_000];
    for (const [i, delay] of expected.entries()) {
      const outcomes = await refresher.refreshDueAccounts(10);
      expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', syncStatus: 'error' })]);
      expect(await failures(id)).toBe(i + 1);
      const { nextRefreshAt } = await accountState(s.dataSource, id);
      expect(nextRefreshAt).toEqual(new Date(clock.now().getTime() + delay));
      // Not due a millisecond before the backoff ends.
      clock.set(new Date(nextRefreshAt!.getTime() - 1));
      expect(await refresher.refreshDueAccounts(10)).toEqual([]);
      clock.advanceMs(1);
    }
    expect(connector.calls).toBe(5);

    // Success: the count resets and the account is due again after the source's interval.
    connector.serves(HISTORY);
    expect((await refresher.refreshDueAccounts(10)).map((o) => o.status)).toEqual(['refreshed']);
    expect(await failures(id)).toBe(0);
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'synced',
      nextRefreshAt: new Date(clock.now().getTime() + 10 * MINUTE),
    });

    // The next failure starts again at the first step; no jitter drawn (random 0): the full minute.
    clock.advanceMs(10 * MINUTE);
    s.get(SourceSchedules).random = () => 0;
    connector.throws(new SourceUnavailableError('exchange down again'));
    await refresher.refreshDueAccounts(10);
    expect(await failures(id)).toBe(1);
    expect((await accountState(s.dataSource, id)).nextRefreshAt).toEqual(
      new Date(clock.now().getTime() + MINUTE),
    );

    // An expired authorization is not retried, so it is no failure to back off from.
    clock.advanceMs(MINUTE);
    connector.throws(new SourceAuthorizationError());
    await refresher.refreshDueAccounts(10);
    expect(await failures(id)).toBe(1);
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'reconnect_required',
      nextRefreshAt: null,
    });
  });

  it('keeps the former fixed 30-minute rule for a source without a schedule of its own', async () => {
    const connector = new ScriptedConnector().throws(new SourceUnavailableError('down'));
    restore.push(s.get(ConnectorRegistry).register('unscheduled', connector));
    const id = await insertAccount(s.dataSource, tenantId, { source: 'unscheduled', createdOn: clock.now() });
    for (let i = 0; i < 2; i++) {
      await s.get(RefreshService).refresh(tenantId, id, 'admin');
      expect((await accountState(s.dataSource, id)).nextRefreshAt).toEqual(
        new Date(clock.now().getTime() + 30 * MINUTE),
      );
    }
    expect(await failures(id)).toBe(2);
  });
});
