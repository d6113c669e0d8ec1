/**
 * Service tier: scheduled refreshes through the job queue (docs/jobs.md): the scheduler claims
 * the due accounts and enqueues one `refresh.account.<source>` job per account; the queue's workers
 * (SCHEDULER_ENABLED on here) run them, never more of a source at once than its `maxConcurrent`,
 * and one account never has two jobs queued. Real database (PGlite, or Postgres with DATABASE_URL),
 * scripted connectors.
 */
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../../src/common/clock/clock.js';
import { JobsAdmin } from '../../src/modules/jobs/index.js';
import { LedgerModule } from '../../src/modules/ledger/index.js';
import {
  ConnectorRegistry,
  RefreshScheduler,
  RefreshService,
  SourceSchedules,
  SourcesModule,
  type ConnectorRequest,
  type ConnectorResult,
} from '../../src/modules/sources/index.js';
import { LeaseHolders, RefreshStateRepository } from '../../src/modules/sources/testing.js';
import { accountState, insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const HISTORY = [sourceTx({ transactionId: 'b1', direction: 'buy', amount: '1', priceUsd: '30000' })];

/** Counts the calls in flight; each takes `ms`. */
class SlowConnector extends ScriptedConnector {
  inFlight = 0;
  peak = 0;
  constructor(private readonly ms: number) {
    super();
    this.serves(HISTORY);
  }

  override async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.ms));
      return await super.fetch(request);
    } finally {
      this.inFlight--;
    }
  }
}

async function eventually(check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('scheduled refresh through the job queue (service tier)', () => {
  let s: ServiceModule;
  let tenantId: string;

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [LedgerModule, SourcesModule],
      clock: new Clock(),
      prices: new FixedMarketPrices({ BTC: '60000' }),
      env: { SCHEDULER_ENABLED: 'true', JOBS_POLL_INTERVAL_MS: '500', JOBS_SHUTDOWN_TIMEOUT_MS: '5000' },
    });
    tenantId = await insertTenant(s.dataSource, 'service-refresh-queue');
    // The tests call the scheduler's run themselves: its own 30 s cron (on the wall clock) would
    // claim some of the accounts whenever a test crosses :00 or :30, and the counts would differ.
    s.get(SchedulerRegistry).getCronJob('accounts-refresh').stop();
  });

  afterAll(() => s?.close());

  it('runs the claimed accounts as jobs, at most the source’s maxConcurrent at once, until all are synced', async () => {
    const connector = new SlowConnector(400);
    s.get(ConnectorRegistry).register('queued', connector);
    s.get(SourceSchedules).set('queued', {
      intervalMs: 3_600_000,
      maxConcurrent: 2,
      backoff: { baseMs: 60_000, capMs: 60_000, jitter: 0 },
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await insertAccount(s.dataSource, tenantId, { source: 'queued', createdOn: new Date() }));
    const scheduler = s.get(RefreshScheduler);
    const logged = jest.spyOn(Logger.prototype, 'log');
    // The scheduler's runs (every 30 s in production) until every account is synced.
    let enqueued = 0;
    await eventually(async () => {
      enqueued += await scheduler.enqueueDueAccounts();
      const states = await Promise.all(ids.map((id) => accountState(s.dataSource, id)));
      return states.every((a) => a.syncStatus === 'synced');
    });
    expect(enqueued).toBe(5);
    // One line a job, saying whose account, which source and how long (issue 31 item 4). A job
    // logs it after its refresh has stored the account as synced: wait for the last one.
    const finishedLines = () =>
      logged.mock.calls
        .filter(([, message]) => message === 'Scheduled refresh finished')
        .map(([fields]) => fields as Record<string, unknown>);
    await eventually(() => finishedLines().length >= ids.length);
    const finished = finishedLines();
    logged.mockRestore();
    expect(finished.map((f) => f.accountId).sort()).toEqual([...ids].sort());
    for (const fields of finished) {
      expect(fields).toMatchObject({ tenantId, source: 'queued', status: 'refreshed' });
      expect(fields.durationMs).toBeGreaterThanOrEqual(390); // the connector takes 400 ms
    }
    expect(connector.calls).toBe(5);
    expect(connector.peak).toBeLessThanOrEqual(2);
    const view = (await s.get(JobsAdmin).queues()).find((q) => q.name === 'refresh.account.queued')!;
    expect(view).toMatchObject({
      policy: 'exclusive',
      deadLetter: { name: 'refresh.account.queued.dead', count: 0 },
    });
    await eventually(async () => {
      const counts = (await s.get(JobsAdmin).queues()).find(
        (q) => q.name === 'refresh.account.queued',
      )!.counts;
      return counts.completed === 5;
    });
  });

  it('never queues a second job for an account whose job is still waiting', async () => {
    s.get(ConnectorRegistry).register('waiting', new ScriptedConnector().serves(HISTORY));
    s.get(SourceSchedules).set('waiting', {
      intervalMs: 3_600_000,
      maxConcurrent: 1,
      backoff: { baseMs: 60_000, capMs: 60_000, jitter: 0 },
    });
    const scheduler = s.get(RefreshScheduler);
    const queue = await scheduler.queueOf('waiting');
    const id = await insertAccount(s.dataSource, tenantId, { source: 'waiting', createdOn: new Date() });
    // A job for the account already waits (sent by another instance, not yet run).
    const { JobQueue } = await import('../../src/modules/jobs/index.js');
    await s.get(JobQueue).send(
      queue,
      { tenantId, accountId: id, claimOwner: 'elsewhere' },
      {
        singletonKey: id,
        startAfter: 3_600,
      },
    );
    expect(await scheduler.enqueueDueAccounts()).toBe(0);
    // The claim was given back: the waiting job will take the free lease when it runs.
    const [row] = await s.dataSource.query('SELECT refresh_lease_owner FROM account WHERE id = $1', [id]);
    expect(row.refresh_lease_owner).toBeNull();
  });

  it('a job whose account another refresh holds (a partner’s forced refresh) completes as busy, without refreshing', async () => {
    const connector = new ScriptedConnector().serves(HISTORY);
    s.get(ConnectorRegistry).register('raced', connector);
    const id = await insertAccount(s.dataSource, tenantId, { source: 'raced', createdOn: new Date() });
    const refresher = s.get(RefreshService);
    const now = new Date();
    // The forced refresh's lease (another instance, alive), then the queued job of an earlier claim.
    const partner = `partner-refresh-${randomUUID()}`;
    await s.get(LeaseHolders).hold(partner);
    await s
      .get(RefreshStateRepository)
      .claimLease(tenantId, id, partner, now, new Date(now.getTime() + 60_000));
    expect(await refresher.runScheduledJob(tenantId, id, 'an-earlier-claim')).toEqual({ status: 'busy' });
    expect(connector.calls).toBe(0);
    // Lease free again and the account still due: the job takes it and refreshes.
    await s.get(RefreshStateRepository).releaseLease(tenantId, id, partner);
    await s.get(LeaseHolders).release(partner);
    expect((await refresher.runScheduledJob(tenantId, id, 'an-earlier-claim')).status).toBe('refreshed');
    expect(connector.calls).toBe(1);
    // Refreshed since, no longer due: a late duplicate job does nothing.
    expect(await refresher.runScheduledJob(tenantId, id, 'an-earlier-claim')).toEqual({ status: 'busy' });
    expect(connector.calls).toBe(1);
  });
});
