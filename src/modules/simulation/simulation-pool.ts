/**
 * Where simulations run: a pool of worker threads (piscina), so a Monte Carlo run never holds the
 * request thread (liveness, cached reads and every other request go on meanwhile), and the
 * admission of simulations to it: at most SIMULATION_PER_CLIENT at once per client (beyond: 429)
 * and SIMULATION_WORKERS running + SIMULATION_QUEUE waiting per instance (beyond: 503), both with
 * Retry-After. A slot is held from loading the history to the answer, so the cap bounds the
 * database reads too.
 */
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { AppConfig } from '../../config/app-config.js';
import type { SimulationInput, SimulationResult } from '../../domain/simulation/monte-carlo.js';
import { SimulationError } from '../../domain/simulation/simulation-error.js';
import type { WorkerOutcome } from './simulation.worker.js';

/**
 * Retry-After of the 429 and 503 answers: at the budget a simulation takes seconds, a typical one
 * far less.
 */
export const SIMULATION_RETRY_AFTER_SECONDS = 5;

/** Idle worker threads end after this; the next simulation starts one again (~50 ms). */
const IDLE_THREAD_MS = 60_000;

/** Scheduling priority of the worker threads relative to the process (higher = yields more). */
const WORKER_NICE_INCREMENT = 10;

/** 429 or 503 from the admission; the exception filter sends its Retry-After. */
export class SimulationBusyError extends DomainError {
  constructor(code: ErrorCode.RateLimited | ErrorCode.ServiceUnavailable, message: string, reason: string) {
    super(code, message, undefined, reason, SIMULATION_RETRY_AFTER_SECONDS);
  }
}

/**
 * The compiled worker entry next to this module (dist/src/modules/simulation/). Under Jest this
 * module is TypeScript in src/ and a worker thread cannot load TypeScript, so the worker runs
 * from the build in dist/, which `npm test` builds first (scripts/test.mjs).
 */
export function workerFilename(moduleUrl: string = import.meta.url): string {
  const here = fileURLToPath(moduleUrl);
  if (here.endsWith('.js')) return join(dirname(here), 'simulation.worker.js');
  return fileURLToPath(new URL('../../../dist/src/modules/simulation/simulation.worker.js', moduleUrl));
}

/**
 * The buffer under a typed array, to move with it (not a SharedArrayBuffer, which cannot be).
 * Tested by tag, not instanceof: a buffer made in another realm (a vm context) is one too.
 */
function movableBuffer(series: ArrayLike<number>): ArrayBuffer[] {
  if (!ArrayBuffer.isView(series)) return [];
  const { buffer } = series;
  return Object.prototype.toString.call(buffer) === '[object ArrayBuffer]' ? [buffer as ArrayBuffer] : [];
}

@Injectable()
export class SimulationPool implements OnApplicationShutdown {
  private readonly logger = new Logger('SimulationPool');
  private pool?: Piscina<SimulationInput, WorkerOutcome>;
  private readonly perClient = new Map<string, number>();
  private admitted = 0;
  private closed = false;

  constructor(private readonly config: AppConfig) {}

  /** Simulations this instance holds at once: running in a worker, or waiting for one. */
  get capacity(): number {
    return this.config.SIMULATION_WORKERS + this.config.SIMULATION_QUEUE;
  }

  /** Simulations admitted now (loading history, running or waiting for a worker). */
  get inFlight(): number {
    return this.admitted;
  }

  /** Admitted simulations waiting for a worker thread now (metrics: the queue's depth). */
  get queued(): number {
    return this.pool?.queueSize ?? 0;
  }

  /** Worker threads alive now (0 until the first simulation, and after shutdown). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * Runs `work` in one of the instance's simulation slots, counted against the client; throws
   * SimulationBusyError (429 for the client's cap, 503 when the instance is full) without
   * running it.
   */
  async admit<T>(clientId: string, work: () => Promise<T>): Promise<T> {
    const mine = this.perClient.get(clientId) ?? 0;
    if (mine >= this.config.SIMULATION_PER_CLIENT) {
      throw new SimulationBusyError(
        ErrorCode.RateLimited,
        `This client already runs ${mine} simulation(s), the most it may run at once; retry after ${SIMULATION_RETRY_AFTER_SECONDS} seconds.`,
        'too_many_simulations',
      );
    }
    if (this.admitted >= this.capacity) {
      throw new SimulationBusyError(
        ErrorCode.ServiceUnavailable,
        `Every simulation worker of this instance is busy and ${this.config.SIMULATION_QUEUE} more simulation(s) are waiting; retry after ${SIMULATION_RETRY_AFTER_SECONDS} seconds.`,
        'simulations_busy',
      );
    }
    this.admitted += 1;
    this.perClient.set(clientId, mine + 1);
    try {
      return await work();
    } finally {
      this.admitted -= 1;
      const left = (this.perClient.get(clientId) ?? 1) - 1;
      if (left > 0) this.perClient.set(clientId, left);
      else this.perClient.delete(clientId);
    }
  }

  /**
   * Runs the pure simulator in a worker thread; a SimulationError comes back as one. Return
   * series given as typed arrays (Float64Array) are moved to the thread, not copied (they are
   * empty here afterwards); plain arrays are cloned.
   */
  async run(input: SimulationInput): Promise<SimulationResult> {
    // Each buffer once: series may be views of one buffer.
    const transferList = [...new Set(input.dailyLogReturns.flatMap(movableBuffer))];
    const outcome = await this.workers().run(input, { transferList });
    if (!outcome.ok) throw new SimulationError(outcome.code, outcome.message);
    return outcome.result;
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

  /** Started at the first simulation: instances and test suites that never simulate start no thread. */
  private workers(): Piscina<SimulationInput, WorkerOutcome> {
    if (this.closed) throw new Error('The simulation pool is closed (shutting down).');
    if (this.pool) return this.pool;
    const filename = workerFilename();
    if (!existsSync(filename)) {
      throw new Error(`Simulation worker ${filename} is missing: build the service first (npm run build).`);
    }
    this.pool = new Piscina<SimulationInput, WorkerOutcome>({
      filename,
      minThreads: 0,
      maxThreads: this.config.SIMULATION_WORKERS,
      idleTimeout: IDLE_THREAD_MS,
      // Below the request thread's priority (Linux, via piscina's @napi-rs/nice): when the cores
      // are all busy, the scheduler serves requests first and simulations take what is left.
      niceIncrement: WORKER_NICE_INCREMENT,
    });
    this.logger.log(`Simulation pool: up to ${this.config.SIMULATION_WORKERS} worker thread(s)`);
    return this.pool;
  }
}
