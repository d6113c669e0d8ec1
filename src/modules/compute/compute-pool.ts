/**
 * Where the cost-basis engine runs for the heavy endpoints (issue 28 item 1): a pool of worker
 * threads (piscina), so a gains report, a Form 8949, a reconciliation, a list of lots, the
 * safe-harbor allocation or the balances of a write on a long history never holds the request thread (liveness, cached reads and every other request go on
 * meanwhile). The ledger goes over as a compact columnar encoding whose buffers are moved, not
 * copied (domain/cost-basis/ledger-encoding.ts); the tasks are compute-tasks.ts. Admission (who
 * may run now) is HeavyWorkAdmission's, in front of the ledger's read.
 */
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { AppConfig } from '../../config/app-config.js';
import { ledgerBuffers } from '../../domain/cost-basis/index.js';
import type { ComputeOutcome, ComputeOutcomes, ComputeTask } from './compute-tasks.js';

/** Idle worker threads end after this; the next task starts one again (~50 ms). */
const IDLE_THREAD_MS = 60_000;

/** Scheduling priority of the worker threads relative to the process (higher = yields more). */
const WORKER_NICE_INCREMENT = 10;

/**
 * The compiled worker entry next to this module (dist/src/modules/compute/). Under Jest this
 * module is TypeScript in src/ and a worker thread cannot load TypeScript, so the worker runs
 * from the build in dist/, which `npm test` builds first (scripts/test.mjs).
 */
export function computeWorkerFilename(moduleUrl: string = import.meta.url): string {
  const here = fileURLToPath(moduleUrl);
  if (here.endsWith('.js')) return join(dirname(here), 'compute.worker.js');
  return fileURLToPath(new URL('../../../dist/src/modules/compute/compute.worker.js', moduleUrl));
}

@Injectable()
export class ComputePool implements OnApplicationShutdown {
  private readonly logger = new Logger('ComputePool');
  private pool?: Piscina<ComputeTask, ComputeOutcome>;
  private closed = false;

  constructor(private readonly config: AppConfig) {}

  /** Tasks waiting for a worker thread now. */
  get queued(): number {
    return this.pool?.queueSize ?? 0;
  }

  /** Worker threads alive now (0 until the first task, and after shutdown). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * Runs one task in a worker thread. The task's ledger buffers are moved to the worker: the
   * caller must not read the encoded ledger afterwards.
   */
  async run<K extends ComputeTask['kind']>(
    task: Extract<ComputeTask, { kind: K }>,
  ): Promise<ComputeOutcomes[K]> {
    const ledger = 'input' in task && 'ledger' in task.input ? task.input.ledger : undefined;
    const outcome = await this.workers().run(task, {
      transferList: ledger ? ledgerBuffers(ledger) : undefined,
    });
    return outcome as ComputeOutcomes[K];
  }

  /**
   * After the HTTP server has closed (in-flight requests answered): waits for running tasks and
   * ends the threads, so neither the process nor a test runner is kept open by idle workers.
   */
  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  /** Started at the first task: instances and test suites that never report start no thread. */
  private workers(): Piscina<ComputeTask, ComputeOutcome> {
    if (this.closed) throw new Error('The compute pool is closed (shutting down).');
    if (this.pool) return this.pool;
    const filename = computeWorkerFilename();
    if (!existsSync(filename)) {
      throw new Error(`Compute worker ${filename} is missing: build the service first (npm run build).`);
    }
    this.pool = new Piscina<ComputeTask, ComputeOutcome>({
      filename,
      minThreads: 0,
      maxThreads: this.config.COMPUTE_WORKERS,
      idleTimeout: IDLE_THREAD_MS,
      // Below the request thread's priority (Linux, via piscina's @napi-rs/nice): when the cores
      // are all busy, the scheduler serves requests first and reports take what is left.
      niceIncrement: WORKER_NICE_INCREMENT,
    });
    this.logger.log(`Compute pool: up to ${this.config.COMPUTE_WORKERS} worker thread(s)`);
    return this.pool;
  }
}
