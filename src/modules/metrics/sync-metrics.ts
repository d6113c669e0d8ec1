import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { METRIC_PREFIX, MetricsRegistry } from './metrics.registry.js';

/** What a refresh run ends with (the refresh engine's RefreshOutcome, as far as counting needs). */
export interface CountedOutcome {
  readonly status: 'refreshed' | 'pending' | 'failed' | 'busy';
  readonly syncStatus?: 'error' | 'reconnect_required';
}

/** Seconds: a sandbox refresh takes milliseconds, a large history up to the connector's timeout. */
const SYNC_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Sync runs and failures per source (`sandbox`, `csv`, …: the registered connectors, a short
 * fixed list) and what started them (`force`, `schedule`, `admin`, `seed`): never per account or
 * tenant, whose ids would make a series each.
 */
@Injectable()
export class SyncMetrics {
  private readonly runs: Counter<'source' | 'trigger' | 'outcome'>;
  private readonly failures: Counter<'source' | 'reason'>;
  private readonly duration: Histogram<'source'>;

  constructor(metrics: MetricsRegistry) {
    this.runs = new Counter({
      name: `${METRIC_PREFIX}sync_runs_total`,
      help: 'Account refresh runs, by source, trigger and outcome (refreshed, pending: the source is still preparing the history, failed).',
      labelNames: ['source', 'trigger', 'outcome'],
      registers: [metrics.registry],
    });
    this.failures = new Counter({
      name: `${METRIC_PREFIX}sync_failures_total`,
      help: 'Failed account refresh runs, by source and reason (error: the source failed or sent invalid data; reconnect_required: it rejected the authorization; exception: the run itself failed, e.g. the database).',
      labelNames: ['source', 'reason'],
      registers: [metrics.registry],
    });
    this.duration = new Histogram({
      name: `${METRIC_PREFIX}sync_duration_seconds`,
      help: 'Duration of account refresh runs (fetch from the source and the write), by source.',
      labelNames: ['source'],
      buckets: SYNC_DURATION_BUCKETS,
      registers: [metrics.registry],
    });
  }

  /** Runs one refresh and counts it; the outcome (or the exception) passes through unchanged. */
  async observe<T extends CountedOutcome>(
    source: string,
    trigger: string,
    run: () => Promise<T>,
  ): Promise<T> {
    const startedAt = performance.now();
    let outcome: T;
    try {
      outcome = await run();
    } catch (error) {
      this.count(source, trigger, startedAt, 'failed', 'exception');
      throw error;
    }
    if (outcome.status === 'failed') {
      this.count(source, trigger, startedAt, 'failed', outcome.syncStatus ?? 'error');
    } else {
      this.count(source, trigger, startedAt, outcome.status);
    }
    return outcome;
  }

  private count(source: string, trigger: string, startedAt: number, outcome: string, reason?: string): void {
    this.runs.inc({ source, trigger, outcome });
    if (reason) this.failures.inc({ source, reason });
    this.duration.observe({ source }, (performance.now() - startedAt) / 1000);
  }
}
