/**
 * Service tier: the job queue (docs/jobs.md) on the service's own database (in-memory PGlite, or a
 * Postgres schema with DATABASE_URL): pg-boss installs its schema over the DataSource, workers run
 * jobs, a failing job is retried with backoff and then dead-lettered, the per-queue concurrency
 * holds, and a dead-lettered job can be re-queued.
 */
import { Clock } from '../../src/common/clock/clock.js';
import {
  JobQueue,
  JobsAdmin,
  JobsModule,
  deadLetterOf,
  type QueueDefinition,
} from '../../src/modules/jobs/index.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const definition = (name: string, fields: Partial<QueueDefinition> = {}): QueueDefinition => ({
  name,
  policy: 'standard',
  retryLimit: 0,
  retryDelaySeconds: 0,
  retryBackoff: false,
  expireInSeconds: 60,
  deleteAfterSeconds: 3600,
  deadLetter: true,
  ...fields,
});

async function eventually(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('job queue (service tier)', () => {
  let s: ServiceModule;
  let queue: JobQueue;
  let admin: JobsAdmin;

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [JobsModule],
      clock: new Clock(),
      prices: new FixedMarketPrices({}),
      // One module for the file (a start costs ~3 s on PGlite): supervision every second for the
      // expiry test, a shutdown timeout longer than the last test's running job.
      env: {
        SCHEDULER_ENABLED: 'true',
        JOBS_POLL_INTERVAL_MS: '500',
        JOBS_SUPERVISE_INTERVAL_SECONDS: '1',
        JOBS_SHUTDOWN_TIMEOUT_MS: '10000',
      },
    });
    queue = s.get(JobQueue);
    admin = s.get(JobsAdmin);
  });

  let closed = false;
  afterAll(async () => {
    if (!closed) await s?.close();
  });

  it('installs its schema over the DataSource and runs a job on a worker', async () => {
    await queue.define(definition('test.echo'));
    const seen: unknown[] = [];
    await queue.work<{ n: number }>('test.echo', { concurrency: 1 }, async (job) => {
      seen.push(job.data.n);
    });
    const id = await queue.send('test.echo', { n: 7 });
    expect(id).toEqual(expect.any(String));
    await eventually(() => seen.length === 1);
    expect(seen).toEqual([7]);
    await eventually(async () => {
      const view = (await admin.queues()).find((q) => q.name === 'test.echo');
      return view?.counts.completed === 1;
    });
    // The application's own tables and pg-boss's live side by side on the one connection.
    const [{ count }] = await s.dataSource.query(`SELECT count(*)::int AS count FROM ${queue.schema}.job`);
    expect(count).toBeGreaterThanOrEqual(1);
  });

  it('retries a failing job with exponential backoff, then dead-letters it; an admin re-queues it', async () => {
    const name = 'test.failing';
    await queue.define(definition(name, { retryLimit: 2, retryDelaySeconds: 1, retryBackoff: true }));
    const attempts: { at: number; retry: number }[] = [];
    await queue.work(name, { concurrency: 1 }, async (job) => {
      attempts.push({ at: Date.now(), retry: job.retryCount });
      throw new Error(`boom ${job.retryCount}`);
    });
    const id = (await queue.send(name, { secret: 'never shown' }))!;
    await eventually(async () => {
      const view = (await admin.queues()).find((q) => q.name === name);
      return view?.deadLetter?.count === 1;
    }, 30_000);
    expect(attempts.map((a) => a.retry)).toEqual([0, 1, 2]);
    // Backoff: each retry waited at least the base delay (pg-boss jitters within the doubling).
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(500);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(500);
    const view = (await admin.queues()).find((q) => q.name === name)!;
    expect(view.counts.failed).toBe(1);
    expect(view.deadLetter).toEqual({ name: deadLetterOf(name), count: 1 });
    const failed = await admin.jobs(name, { state: 'failed', limit: 10 });
    expect(failed.jobs).toHaveLength(1);
    expect(failed.jobs[0]).toMatchObject({ id, state: 'failed', retryCount: 2, lastError: 'boom 2' });
    expect(JSON.stringify(failed)).not.toContain('never shown');
    const dead = await admin.jobs(deadLetterOf(name), { limit: 10 });
    expect(dead.jobs).toHaveLength(1);
    expect(dead.jobs[0]!.sourceQueue).toBe(name);
    // Re-queued from the dead letter queue: it runs again (and fails again here).
    const before = attempts.length;
    await admin.retry(deadLetterOf(name), dead.jobs[0]!.id);
    await eventually(() => attempts.length > before);
  });

  it('runs no more jobs of a queue at once than its concurrency', async () => {
    const name = 'test.slow';
    await queue.define(definition(name));
    let running = 0;
    let peak = 0;
    let done = 0;
    await queue.work(name, { concurrency: 3 }, async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 300));
      running--;
      done++;
    });
    for (let i = 0; i < 9; i++) await queue.send(name, { i });
    await eventually(() => done === 9, 30_000);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
  });

  it('an exclusive queue keeps one queued job per singletonKey', async () => {
    const name = 'test.exclusive';
    await queue.define(definition(name, { policy: 'exclusive' }));
    expect(await queue.send(name, {}, { singletonKey: 'a', startAfter: 3600 })).toEqual(expect.any(String));
    expect(await queue.send(name, {}, { singletonKey: 'a' })).toBeNull();
    expect(await queue.send(name, {}, { singletonKey: 'b', startAfter: 3600 })).toEqual(expect.any(String));
  });

  it('the job expires and is retried on a live worker (a worker killed mid-job)', async () => {
    const name = 'test.killed';
    await queue.define(definition(name, { retryLimit: 2, expireInSeconds: 1 }));
    const id = (await queue.send(name, { n: 1 }))!;
    // The "killed" worker: takes the job (active) and never settles it, as a SIGKILLed process.
    const boss = await queue.instance();
    const [taken] = await boss.fetch(name);
    expect(taken?.id).toBe(id);
    const runs: number[] = [];
    await queue.work(name, { concurrency: 1 }, async (job) => {
      runs.push(job.retryCount);
    });
    await eventually(() => runs.length === 1, 30_000);
    expect(runs).toEqual([1]);
    const [job] = (await admin.jobs(name, { limit: 10 })).jobs;
    await eventually(async () => (await admin.jobs(name, { limit: 10 })).jobs[0]!.state === 'completed');
    expect(job!.id).toBe(id);
  });

  // Last: it closes the module.
  it('waits for a running job before the database closes', async () => {
    await queue.define(definition('test.shutdown'));
    let started = false;
    let finished = false;
    await queue.work('test.shutdown', { concurrency: 1 }, async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // The database is still open for the job's last write.
      await s.dataSource.query('SELECT 1');
      finished = true;
    });
    await queue.send('test.shutdown', {});
    await eventually(() => started);
    closed = true;
    await s.close();
    expect(finished).toBe(true);
  });
});
