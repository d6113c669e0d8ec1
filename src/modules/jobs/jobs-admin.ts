/**
 * The admin view of the job queue (GET /admin/queues, docs/jobs.md "The admin view"): queues with
 * their policy and counts by state, a queue's jobs (never their data: a job's payload may name an
 * account or carry a lease token), and re-queueing a failed or dead-lettered job. Reads pg-boss's
 * tables directly, read-only, in its schema; re-queueing goes through pg-boss.
 */
import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { JOB_STATES, JobQueue, type JobState } from './job-queue.js';

export interface QueueView {
  readonly name: string;
  readonly policy: string;
  readonly retryLimit: number;
  readonly retryDelaySeconds: number;
  readonly retryBackoff: boolean;
  readonly expireInSeconds: number;
  readonly counts: Record<JobState, number>;
  /** Null for a queue without one (a dead letter queue itself). */
  readonly deadLetter: { readonly name: string; readonly count: number } | null;
}

export interface QueueBacklog {
  readonly name: string;
  readonly waiting: number;
  readonly oldestWaitingSeconds: number;
  readonly deadLetters: number;
}

export interface JobView {
  readonly id: string;
  readonly state: JobState;
  readonly retryCount: number;
  readonly retryLimit: number;
  readonly createdAt: Date;
  readonly startAfter: Date;
  readonly startedAt: Date | null;
  readonly completedAt: Date | null;
  /** The last error's message (a failed attempt's), never its stack or the job's data. */
  readonly lastError: string | null;
  /** For a dead-lettered job: the queue it failed on. */
  readonly sourceQueue: string | null;
}

export interface JobPosition {
  readonly createdAt: string;
  readonly id: string;
}

interface JobRow {
  id: string;
  state: JobState;
  retry_count: number;
  retry_limit: number;
  created_on: Date | string;
  start_after: Date | string;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  last_error: string | null;
  source_name: string | null;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

@Injectable()
export class JobsAdmin {
  constructor(private readonly queue: JobQueue) {}

  private get schema(): string {
    return this.queue.schema;
  }

  async queues(): Promise<QueueView[]> {
    const boss = await this.queue.instance();
    const queues = await boss.getQueues();
    const { rows } = await this.queue.db.executeSql(
      `SELECT name, state::text AS state, count(*)::int AS count FROM ${this.schema}.job GROUP BY name, state`,
    );
    const counts = new Map<string, Record<JobState, number>>();
    for (const row of rows as { name: string; state: JobState; count: number }[]) {
      const byState = counts.get(row.name) ?? emptyCounts();
      byState[row.state] = Number(row.count);
      counts.set(row.name, byState);
    }
    const pending = (name: string) => {
      const c = counts.get(name) ?? emptyCounts();
      return c.created + c.retry + c.active + c.failed;
    };
    return queues
      .map((q) => ({
        name: q.name,
        policy: q.policy ?? 'standard',
        retryLimit: q.retryLimit ?? 0,
        retryDelaySeconds: q.retryDelay ?? 0,
        retryBackoff: q.retryBackoff ?? false,
        expireInSeconds: q.expireInSeconds ?? 0,
        counts: counts.get(q.name) ?? emptyCounts(),
        deadLetter: q.deadLetter ? { name: q.deadLetter, count: pending(q.deadLetter) } : null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Each queue's backlog for the metrics: jobs waiting (created or retry), how long the oldest
   * one already due has waited past its start (seconds; 0 when none is due), and the jobs left
   * pending in its dead letter queue.
   */
  async backlog(): Promise<QueueBacklog[]> {
    const boss = await this.queue.instance();
    const queues = await boss.getQueues();
    const { rows } = await this.queue.db.executeSql(
      `SELECT name,
              count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS waiting,
              COALESCE(EXTRACT(EPOCH FROM now() - min(start_after) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS oldest,
              count(*) FILTER (WHERE state IN ('created', 'retry', 'active', 'failed'))::int AS pending
         FROM ${this.schema}.job GROUP BY name`,
    );
    const byName = new Map(
      (rows as { name: string; waiting: number; oldest: number; pending: number }[]).map((r) => [r.name, r]),
    );
    return queues
      .filter((q) => !queues.some((other) => other.deadLetter === q.name))
      .map((q) => ({
        name: q.name,
        waiting: Number(byName.get(q.name)?.waiting ?? 0),
        oldestWaitingSeconds: Math.max(0, Number(byName.get(q.name)?.oldest ?? 0)),
        deadLetters: q.deadLetter ? Number(byName.get(q.deadLetter)?.pending ?? 0) : 0,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** 404 for a queue that does not exist. */
  async assertQueue(name: string): Promise<void> {
    const boss = await this.queue.instance();
    if (!(await boss.getQueue(name))) throw DomainError.notFound('Queue');
  }

  /** Newest first; `after` continues after that job. */
  async jobs(
    name: string,
    options: { state?: JobState; limit: number; after?: JobPosition },
  ): Promise<{ jobs: JobView[]; next: JobPosition | null }> {
    await this.assertQueue(name);
    const values: unknown[] = [name, options.limit + 1];
    let where = 'name = $1';
    if (options.state) {
      values.push(options.state);
      where += ` AND state = $${values.length}::${this.schema}.job_state`;
    }
    if (options.after) {
      values.push(options.after.createdAt, options.after.id);
      where += ` AND (created_on, id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`;
    }
    const { rows } = await this.queue.db.executeSql(
      `SELECT id, state::text AS state, retry_count, retry_limit, created_on, start_after, started_on,
              completed_on, left(COALESCE(output->>'message', source_output->>'message'), 500) AS last_error,
              source_name
       FROM ${this.schema}.job WHERE ${where}
       ORDER BY created_on DESC, id DESC LIMIT $2`,
      values,
    );
    const page = (rows as JobRow[]).slice(0, options.limit).map(toJobView);
    const last = page[page.length - 1];
    return {
      jobs: page,
      next:
        rows.length > options.limit && last ? { createdAt: last.createdAt.toISOString(), id: last.id } : null,
    };
  }

  /**
   * Re-queues a job: a failed one in place (pg-boss retry), a dead-lettered one back onto the
   * queue it failed on (redrive). Any other state: 409. Unknown queue or job: 404.
   */
  async retry(name: string, id: string): Promise<JobView> {
    await this.assertQueue(name);
    const job = await this.find(name, id);
    if (!job) throw DomainError.notFound('Job');
    const boss = await this.queue.instance();
    if (job.sourceQueue && (job.state === 'created' || job.state === 'retry' || job.state === 'failed')) {
      const moved = await boss.redrive(name, { ids: [id] });
      if (moved !== 1)
        throw new DomainError(
          ErrorCode.Conflict,
          'The job could not be moved back to its queue; it may have moved already.',
        );
      return { ...job, state: 'created' };
    }
    if (job.state !== 'failed')
      throw new DomainError(
        ErrorCode.Conflict,
        `Only a failed or dead-lettered job can be retried; this one is ${job.state}.`,
      );
    await boss.retry(name, id);
    return (await this.find(name, id)) ?? job;
  }

  private async find(name: string, id: string): Promise<JobView | null> {
    const { rows } = await this.queue.db.executeSql(
      `SELECT id, state::text AS state, retry_count, retry_limit, created_on, start_after, started_on,
              completed_on, left(COALESCE(output->>'message', source_output->>'message'), 500) AS last_error,
              source_name
       FROM ${this.schema}.job WHERE name = $1 AND id = $2::uuid`,
      [name, id],
    );
    return rows[0] ? toJobView(rows[0] as JobRow) : null;
  }
}

function emptyCounts(): Record<JobState, number> {
  return Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
}

function toJobView(row: JobRow): JobView {
  return {
    id: row.id,
    state: row.state,
    retryCount: Number(row.retry_count),
    retryLimit: Number(row.retry_limit),
    createdAt: date(row.created_on),
    startAfter: date(row.start_after),
    startedAt: row.started_on ? date(row.started_on) : null,
    completedAt: row.completed_on ? date(row.completed_on) : null,
    lastError: row.last_error,
    sourceQueue: row.source_name,
  };
}
