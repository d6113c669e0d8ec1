import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, Histogram } from 'prom-client';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { AuditService } from '../audit/index.js';
import { HeavyWorkAdmission } from '../compute/index.js';
import { SimulationPool } from '../simulation/index.js';
import { METRIC_PREFIX, MetricsRegistry } from './metrics.registry.js';

/** node-postgres's Pool counters (TypeORM's postgres driver keeps its pool as `driver.master`). */
interface PgPoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** Seconds a heavy request waits for its slot: none at all up to the length of a long report. */
const HEAVY_WORK_WAIT_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Gauges read when Prometheus scrapes (prom-client calls `collect`), so they cost nothing between
 * scrapes: the simulation pool's load, the heavy-work admission's (and the histogram of its
 * waits, observed per admitted request), the audit trail's backlog of reads and the database
 * connection pool's use.
 */
@Injectable()
export class RuntimeGauges {
  constructor(
    metrics: MetricsRegistry,
    simulations: SimulationPool,
    heavyWork: HeavyWorkAdmission,
    @InjectDataSource() dataSource: DataSource,
    config: AppConfig,
    audit: AuditService,
  ) {
    const registers = [metrics.registry];
    new Gauge({
      name: `${METRIC_PREFIX}simulation_in_flight`,
      help: 'Simulations admitted now: loading history, running in a worker, or waiting for one.',
      registers,
      collect() {
        this.set(simulations.inFlight);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}simulation_queued`,
      help: 'Admitted simulations waiting for a worker thread (the queue depth).',
      registers,
      collect() {
        this.set(simulations.queued);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}simulation_capacity`,
      help: 'Simulations this instance admits at once (SIMULATION_WORKERS + SIMULATION_QUEUE); beyond it, 503.',
      registers,
      collect() {
        this.set(simulations.capacity);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}simulation_worker_threads`,
      help: 'Simulation worker threads alive (idle ones end after a minute).',
      registers,
      collect() {
        this.set(simulations.threads);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}heavy_work_in_flight`,
      help: 'Heavy requests (gains report, Form 8949, 1099-DA reconciliation, lots, harvesting, snapshots) holding a slot now: reading the ledger, computing in the compute pool, answering.',
      registers,
      collect() {
        this.set(heavyWork.inFlight);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}heavy_work_queued`,
      help: 'Heavy requests waiting for a slot in the fair queue (per-tenant and instance caps).',
      registers,
      collect() {
        this.set(heavyWork.queued);
      },
    });
    const waits = new Histogram({
      name: `${METRIC_PREFIX}heavy_work_wait_seconds`,
      help: 'Time an admitted heavy request waited for its slot (0 when one was free).',
      buckets: HEAVY_WORK_WAIT_BUCKETS,
      registers,
    });
    heavyWork.onWait((seconds) => waits.observe(seconds));
    new Gauge({
      name: `${METRIC_PREFIX}audit_reads_pending`,
      help: 'Audited reads waiting in memory for their append to the audit trail (new reads wait for room from AUDIT_READ_BACKLOG on; a failed append puts its 500 back on top).',
      registers,
      collect() {
        this.set(audit.pendingReads);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}audit_reads_waiting_for_room`,
      help: 'Audited reads held before they are answered because the backlog is full (503 after 2 s).',
      registers,
      collect() {
        this.set(audit.readsWaitingForRoom);
      },
    });
    // On PGlite (no DATABASE_URL) there is no pool to report: the embedded database is one session
    // behind a mutex (src/database/pglite-driver.ts), which keeps no counts; the series are absent.
    if (config.usesEmbeddedDatabase) return;
    const pool = () => (dataSource.driver as unknown as { master?: Partial<PgPoolCounts> }).master;
    new Gauge({
      name: `${METRIC_PREFIX}db_pool_connections`,
      help: 'Open connections of the database pool, by state (in_use: lent to a query or transaction; idle).',
      labelNames: ['state'],
      registers,
      collect() {
        const counts = pool();
        const total = counts?.totalCount ?? 0;
        const idle = counts?.idleCount ?? 0;
        this.set({ state: 'in_use' }, total - idle);
        this.set({ state: 'idle' }, idle);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}db_pool_waiting`,
      help: 'Queries and transactions waiting for a database connection (the pool is at its maximum).',
      registers,
      collect() {
        this.set(pool()?.waitingCount ?? 0);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}db_pool_max_connections`,
      help: 'The most connections the pool opens (DATABASE_POOL_SIZE).',
      registers,
      collect() {
        this.set(config.DATABASE_POOL_SIZE);
      },
    });
  }
}
