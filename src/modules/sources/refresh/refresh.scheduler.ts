import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../../../config/app-config.js';
import { OPEN_DATABASE_ON_DEMAND } from '../../../database/database.module.js';
import { errorMessage, JobQueue, type QueueDefinition } from '../../jobs/index.js';
import { RefreshService } from './refresh.service.js';
import { SourceSchedules } from './source-schedule.js';

/** Accounts claimed per source, scheduler run and instance: small, to protect the sources. */
export const REFRESH_BATCH_SIZE = 10;

/** The job: refresh one account the scheduler claimed (`claimOwner` holds its lease). */
export interface RefreshAccountJob {
  readonly tenantId: string;
  readonly accountId: string;
  readonly claimOwner: string;
}

/** Sources outside the schedule table (a test's connector) share one queue. */
const OTHER = 'other';

/** `refresh.account.<source>`: one queue per source, so each has its own workers and concurrency. */
export function refreshQueueOf(source: string, known: readonly string[]): string {
  return `refresh.account.${known.includes(source) && /^[a-z0-9_-]{1,40}$/.test(source) ? source : OTHER}`;
}

/**
 * The queue's retry is for the job itself (the database went away, the instance was killed and
 * the job expired), never for a source's error: that is recorded in the account's state, which
 * sets its own per-source backoff (source-schedule.ts). After the retries: the dead letter queue.
 */
export function refreshQueue(name: string): QueueDefinition {
  return {
    name,
    // At most one job per account queued or running (singletonKey = account id).
    policy: 'exclusive',
    retryLimit: 3,
    retryDelaySeconds: 30,
    retryBackoff: true,
    retryDelayMaxSeconds: 600,
    // Longer than a refresh can take (connector timeouts): a killed worker's job is retried after it.
    expireInSeconds: 600,
    deleteAfterSeconds: 86_400,
    deadLetter: true,
  };
}

/**
 * Every 30 seconds: claim the accounts whose refresh is due (their source's interval elapsed, a
 * slow initial sync that should be ready, a failed refresh whose backoff ended), per source within
 * the source's concurrency (source-schedule.ts), and enqueue one `refresh.account.<source>` job per
 * account (docs/jobs.md). The queue's workers (SCHEDULER_ENABLED) run them, at most the source's
 * `maxConcurrent` at once per instance; the claim's lease, held until the job's refresh ends,
 * keeps the cap across instances and keeps a partner's forced refresh from racing the job.
 */
@Injectable()
export class RefreshScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(RefreshScheduler.name);
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly config: AppConfig,
    private readonly refresher: RefreshService,
    private readonly schedules: SourceSchedules,
    private readonly jobs: JobQueue,
    /** The CLI: nothing runs against the database before a command does. */
    @Optional() @Inject(OPEN_DATABASE_ON_DEMAND) private readonly onDemand?: boolean,
  ) {}

  /**
   * On every instance (the scheduler on or not): imports a killed process left unfinished are
   * resolved at once, so after a restart the account says so (docs/sources.md, "An import that did
   * not finish"). Workers for every source's queue start with the application (another instance
   * may enqueue), in the background: readiness does not wait for the queue's schema (first start
   * on PGlite: ~6 s).
   */
  onApplicationBootstrap(): void {
    if (this.onDemand) return;
    this.refresher
      .resolveAbandonedImports()
      .catch((error: unknown) =>
        this.logger.warn(`Unfinished imports could not be resolved at start-up: ${errorMessage(error)}`),
      );
    if (!this.config.SCHEDULER_ENABLED) return;
    for (const source of [...this.schedules.sources(), OTHER])
      this.queueOf(source).catch((error: unknown) =>
        this.logger.warn(`Refresh queue of ${source}: ${errorMessage(error)}`),
      );
  }

  /** The source's queue, defined (with its worker) on first use. */
  async queueOf(source: string): Promise<string> {
    const name = refreshQueueOf(source, this.schedules.sources());
    let ready = this.queues.get(name);
    if (!ready) {
      ready = this.defineQueue(name, source);
      ready.catch(() => this.queues.delete(name));
      this.queues.set(name, ready);
    }
    await ready;
    return name;
  }

  private async defineQueue(name: string, source: string): Promise<void> {
    await this.jobs.define(refreshQueue(name));
    await this.jobs.work<RefreshAccountJob>(
      name,
      { concurrency: this.schedules.of(source).maxConcurrent },
      async ({ data }) => {
        const startedAt = performance.now();
        const outcome = await this.refresher.runScheduledJob(data.tenantId, data.accountId, data.claimOwner);
        if (outcome.status === 'busy') return;
        // What an operator needs to follow one account's refreshes: whose, which source, how long.
        // A failure has had its line already (RefreshService: warn with the reason, or debug for
        // the sandbox's scripted outages), so this one is debug then.
        const line = {
          tenantId: data.tenantId,
          accountId: data.accountId,
          source,
          status: outcome.status,
          durationMs: Math.round(performance.now() - startedAt),
        };
        if (outcome.status === 'failed') this.logger.debug(line, 'Scheduled refresh finished');
        else this.logger.log(line, 'Scheduled refresh finished');
      },
    );
  }

  @Cron(CronExpression.EVERY_30_SECONDS, { name: 'accounts-refresh', waitForCompletion: true })
  async refreshDueAccounts(): Promise<void> {
    if (!this.config.SCHEDULER_ENABLED) return;
    try {
      const enqueued = await this.enqueueDueAccounts();
      if (enqueued > 0) this.logger.log(`Enqueued the scheduled refresh of ${enqueued} account(s)`);
    } catch (error) {
      this.logger.error(`Scheduled account refresh failed: ${errorMessage(error)}`);
    }
  }

  /**
   * Claims the due accounts and enqueues their jobs; returns how many were enqueued. An account
   * that already has a job queued or running (exclusive queue) gets no second one: its claim is
   * given back (that job takes a free lease when it runs).
   */
  async enqueueDueAccounts(batchSize = REFRESH_BATCH_SIZE): Promise<number> {
    let enqueued = 0;
    for (const { tenantId, accountId, source } of await this.refresher.claimDueAccounts(batchSize)) {
      try {
        const queue = await this.queueOf(source);
        const job: RefreshAccountJob = { tenantId, accountId, claimOwner: this.refresher.owner };
        if (await this.jobs.send(queue, job, { singletonKey: accountId })) enqueued++;
        else await this.refresher.releaseClaim(tenantId, accountId);
      } catch (error) {
        await this.refresher.releaseClaim(tenantId, accountId).catch(() => undefined);
        throw error;
      }
    }
    return enqueued;
  }
}
