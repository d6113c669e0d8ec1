/**
 * The job queue (issue 18 item 3, docs/jobs.md): pg-boss in its own schema, over the service's own
 * DataSource (job-queue-db.ts), so the embedded default (PGlite, no server) and Postgres run the
 * same queue. Other modules use this face only; nothing else imports pg-boss.
 *
 * - `define` creates a queue (and its dead letter queue) with its retry policy; idempotent.
 * - `send` enqueues; it works whether or not this instance runs workers.
 * - `work` registers the handler; the polling workers start only when SCHEDULER_ENABLED is on
 *   (tests leave it off and run a queue's ready jobs with `drain`).
 * - Shutdown (beforeApplicationShutdown, before the database closes): workers stop taking jobs,
 *   running ones get JOBS_SHUTDOWN_TIMEOUT_MS to finish.
 * pg-boss starts on first use, so a context that never uses the queue (the CLI) never touches it.
 */
import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PgBoss, type Job } from 'pg-boss';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { jobQueueDb, type JobQueueDb } from './job-queue-db.js';

export type QueuePolicy = 'standard' | 'short' | 'singleton' | 'stately' | 'exclusive';
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface QueueDefinition {
  readonly name: string;
  /** pg-boss's queue policy: `exclusive` = at most one job per singletonKey queued or running. */
  readonly policy: QueuePolicy;
  /** Retries after the first attempt before the job fails (and moves to the dead letter queue). */
  readonly retryLimit: number;
  /** First retry delay; with `retryBackoff` it doubles per retry (jittered) up to `retryDelayMaxSeconds`. */
  readonly retryDelaySeconds: number;
  readonly retryBackoff: boolean;
  readonly retryDelayMaxSeconds?: number;
  /** A job active longer than this (its worker died, or hangs) is failed and retried. */
  readonly expireInSeconds: number;
  /** Completed jobs are kept this long (the admin view), then deleted. */
  readonly deleteAfterSeconds: number;
  /** Failed jobs (retries exhausted) move to `<name>.dead`; false: they stay `failed` in place. */
  readonly deadLetter: boolean;
}

export interface SendOptions {
  /** With an `exclusive`/`short` queue: a second job with the same key is not enqueued (send → null). */
  readonly singletonKey?: string;
  readonly startAfter?: Date | number;
}

export interface QueuedJob<T> {
  readonly id: string;
  readonly name: string;
  readonly data: T;
  readonly retryCount: number;
}

export type JobHandler<T> = (job: QueuedJob<T>) => Promise<void>;

export interface WorkOptions {
  /** Jobs of this queue run at once on this instance. */
  readonly concurrency: number;
  /** How often an idle worker asks for a job (≥ 500); default JOBS_POLL_INTERVAL_MS. */
  readonly pollIntervalMs?: number;
}

/** The dead letter queue of a queue. */
export const deadLetterOf = (name: string): string => `${name}.dead`;

@Injectable()
export class JobQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private boss: Promise<PgBoss> | null = null;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly defined = new Map<string, Promise<void>>();
  private stopping = false;
  readonly db: JobQueueDb;

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.db = jobQueueDb(dataSource);
    this.embedded = !config.DATABASE_URL;
  }

  private readonly embedded: boolean;

  /** Whether this instance runs workers (SCHEDULER_ENABLED). */
  get workersEnabled(): boolean {
    return this.config.SCHEDULER_ENABLED;
  }

  get schema(): string {
    return this.config.jobsSchema;
  }

  /** Creates the queue and its dead letter queue if missing; once per process and name. */
  define(definition: QueueDefinition): Promise<void> {
    let done = this.defined.get(definition.name);
    if (!done) {
      done = this.createQueue(definition);
      done.catch(() => this.defined.delete(definition.name));
      this.defined.set(definition.name, done);
    }
    return done;
  }

  private async createQueue(definition: QueueDefinition): Promise<void> {
    const boss = await this.started();
    const dead = definition.deadLetter ? deadLetterOf(definition.name) : undefined;
    // Dead-lettered jobs wait for an operator (admin retry) for two weeks, then are deleted.
    if (dead && !(await boss.getQueue(dead)))
      await boss.createQueue(dead, { policy: 'standard', retentionSeconds: 14 * 86_400 });
    const options = {
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: definition.retryBackoff,
      ...(definition.retryDelayMaxSeconds ? { retryDelayMax: definition.retryDelayMaxSeconds } : {}),
      expireInSeconds: definition.expireInSeconds,
      deleteAfterSeconds: definition.deleteAfterSeconds,
    };
    if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, options);
    else
      await boss.createQueue(definition.name, {
        ...options,
        policy: definition.policy,
        ...(dead ? { deadLetter: dead } : {}),
      });
  }

  /** Enqueues a job on a defined queue; null when a singletonKey already has a job there. */
  async send(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
    await this.defined.get(name);
    const boss = await this.started();
    return boss.send(name, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfter !== undefined ? { startAfter: options.startAfter } : {}),
    });
  }

  /**
   * Registers the queue's handler; with SCHEDULER_ENABLED, starts `concurrency` polling workers.
   * A handler that throws fails the job: pg-boss retries it per the queue's policy.
   */
  async work<T>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    this.handlers.set(name, handler as JobHandler<unknown>);
    if (!this.workersEnabled || this.stopping) return;
    await this.defined.get(name);
    const boss = await this.started();
    await boss.work<T>(
      name,
      {
        localConcurrency: options.concurrency,
        batchSize: 1,
        pollingIntervalSeconds:
          Math.max(500, options.pollIntervalMs ?? this.config.JOBS_POLL_INTERVAL_MS) / 1000,
      },
      async ([job]: Job<T>[]) => {
        if (job) await handler(toQueued(job));
      },
    );
  }

  /**
   * Runs the queue's ready jobs on this instance with its registered handler, one at a time, until
   * none is ready (tests, and a CLI without workers). Settles each like a worker: completes it, or
   * fails it (pg-boss retries or dead-letters it). Returns how many ran.
   */
  async drain(name: string, max = 1_000): Promise<number> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`No handler registered for queue ${name}`);
    const boss = await this.started();
    let ran = 0;
    while (ran < max) {
      const [job] = await boss.fetch<unknown>(name, { batchSize: 1 });
      if (!job) break;
      ran++;
      try {
        await handler(toQueued(job));
        await boss.complete(name, job.id);
      } catch (error) {
        await boss.fail(name, job.id, { message: errorMessage(error) });
      }
    }
    return ran;
  }

  /** pg-boss itself, for the admin view (jobs-admin.ts) only. */
  async instance(): Promise<PgBoss> {
    return this.started();
  }

  private started(): Promise<PgBoss> {
    if (!this.boss) {
      this.boss = this.start();
      this.boss.catch(() => (this.boss = null));
    }
    return this.boss;
  }

  private async start(): Promise<PgBoss> {
    const boss = new PgBoss({
      db: this.db,
      schema: this.schema,
      backend: this.embedded ? 'pglite' : 'postgres',
      // Maintenance (expiring the jobs of a dead worker, retention) only where workers run.
      supervise: this.workersEnabled,
      superviseIntervalSeconds: this.config.JOBS_SUPERVISE_INTERVAL_SECONDS,
      monitorIntervalSeconds: this.config.JOBS_SUPERVISE_INTERVAL_SECONDS,
      schedule: false,
      migrate: true,
      createSchema: true,
      registerInstance: false,
      openTelemetry: { enabled: false },
    });
    boss.on('error', (error: Error) => this.logger.error(`Job queue: ${error.message}`));
    await boss.start();
    return boss;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (!this.boss) return;
    const boss = await this.boss.catch(() => null);
    await boss?.stop({ graceful: true, close: false, timeout: this.config.JOBS_SHUTDOWN_TIMEOUT_MS });
  }
}

function toQueued<T>(job: Job<T>): QueuedJob<T> {
  return {
    id: job.id,
    name: job.name,
    data: job.data,
    retryCount: (job as { retryCount?: number }).retryCount ?? 0,
  };
}

export function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
