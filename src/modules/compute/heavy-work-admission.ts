/**
 * Admission of heavy work (issue 28 item 2; docs/reports.md, "Heavy work"): every request whose
 * cost grows with a tenant's history (gains report, Form 8949, Form 1099-DA reconciliation, lots,
 * harvesting candidates, report snapshots, the safe-harbor allocation, a lot selection) holds one slot of a fair queue keyed by tenant from
 * reading the ledger to the answer, so the cap bounds the database reads and the memory too, not
 * only the compute pool. At most HEAVY_WORK_SLOTS run at once on the instance and
 * HEAVY_WORK_PER_TENANT per tenant; the others wait, served round-robin across tenants. A tenant
 * with HEAVY_WORK_TENANT_QUEUE waiting gets 429, anyone once HEAVY_WORK_QUEUE wait gets 503, both
 * with Retry-After.
 */
import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { AppConfig } from '../../config/app-config.js';
import { FairQueue, type FairQueueRefusal } from './fair-queue.js';

/** Retry-After of the 429 and 503 answers: a heavy report on a long history takes a second or two. */
export const HEAVY_WORK_RETRY_AFTER_SECONDS = 2;

/** 429 or 503 from the admission; the exception filter sends its Retry-After. */
export class HeavyWorkBusyError extends DomainError {
  constructor(code: ErrorCode.RateLimited | ErrorCode.ServiceUnavailable, message: string, reason: string) {
    super(code, message, undefined, reason, HEAVY_WORK_RETRY_AFTER_SECONDS);
  }
}

@Injectable()
export class HeavyWorkAdmission {
  private readonly queue: FairQueue;
  private readonly waitListeners: ((seconds: number) => void)[] = [];
  /** The tenant whose slot the current async context holds: work inside it takes no second slot. */
  private readonly holding = new AsyncLocalStorage<string>();

  constructor(private readonly config: AppConfig) {
    this.queue = new FairQueue({
      slots: config.HEAVY_WORK_SLOTS,
      perTenant: config.HEAVY_WORK_PER_TENANT,
      tenantQueue: config.HEAVY_WORK_TENANT_QUEUE,
      queue: config.HEAVY_WORK_QUEUE,
    });
  }

  /** Heavy requests holding a slot now (reading the ledger, computing, answering). */
  get inFlight(): number {
    return this.queue.running;
  }

  /** Heavy requests waiting for a slot now. */
  get queued(): number {
    return this.queue.queued;
  }

  /** Called with each admitted request's wait for its slot, in seconds (0: at once): the metrics' histogram. */
  onWait(listener: (seconds: number) => void): void {
    this.waitListeners.push(listener);
  }

  /**
   * Runs `work` in one of the tenant's heavy-work slots, waiting its turn if need be; throws
   * HeavyWorkBusyError (429: the tenant's queue is full; 503: the instance's is) without running
   * it. The slot is given back however `work` ends. Called again inside `work` for the same tenant
   * (a report snapshot computes a gains report) it runs at once in the slot already held: a
   * request never waits for a second slot of its own, which could wait forever.
   */
  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    if (this.holding.getStore() === tenantId) return work();
    const ticket = this.queue.acquire(tenantId);
    if (ticket.refused !== null) throw this.refusal(ticket.refused);
    const { release, waitedMs } = await ticket.granted;
    for (const listener of this.waitListeners) listener(waitedMs / 1000);
    try {
      return await this.holding.run(tenantId, work);
    } finally {
      release();
    }
  }

  private refusal(reason: FairQueueRefusal): HeavyWorkBusyError {
    if (reason === 'tenant_queue_full') {
      return new HeavyWorkBusyError(
        ErrorCode.RateLimited,
        `This tenant already has ${this.config.HEAVY_WORK_TENANT_QUEUE} heavy request(s) (reports, lots, reconciliations) waiting behind the ${this.config.HEAVY_WORK_PER_TENANT} it may run at once; retry after ${HEAVY_WORK_RETRY_AFTER_SECONDS} seconds.`,
        'too_many_heavy_requests',
      );
    }
    return new HeavyWorkBusyError(
      ErrorCode.ServiceUnavailable,
      `This instance is running ${this.config.HEAVY_WORK_SLOTS} heavy request(s) and ${this.config.HEAVY_WORK_QUEUE} more are waiting; retry after ${HEAVY_WORK_RETRY_AFTER_SECONDS} seconds.`,
      'heavy_work_busy',
    );
  }
}
