/**
 * A fair queue of slots keyed by tenant (issue 28 item 2): at most `slots` holders at once on the
 * instance and `perTenant` per tenant; the rest wait, and a freed slot goes to the tenants in
 * turn (round-robin), so one tenant's twenty requests do not starve another's one. A tenant with
 * `tenantQueue` waiting is refused (`tenant_queue_full`: 429), and so is anyone when `queue` wait
 * on the instance (`queue_full`: 503). Plain code, no framework: HeavyWorkAdmission puts it in
 * front of the heavy endpoints.
 */
export interface FairQueueLimits {
  /** Holders at once, all tenants. */
  readonly slots: number;
  /** Holders at once, per tenant. */
  readonly perTenant: number;
  /** Waiting, per tenant. */
  readonly tenantQueue: number;
  /** Waiting, all tenants. */
  readonly queue: number;
}

export type FairQueueRefusal = 'tenant_queue_full' | 'queue_full';

/** Gives the slot back; a second call does nothing. */
export type ReleaseSlot = () => void;

export type FairQueueTicket =
  | { readonly refused: FairQueueRefusal }
  | {
      readonly refused: null;
      /** Resolves when the slot is this request's, with how long it waited (ms). */
      readonly granted: Promise<{ readonly release: ReleaseSlot; readonly waitedMs: number }>;
    };

interface Waiter {
  readonly since: number;
  readonly grant: (release: ReleaseSlot, waitedMs: number) => void;
}

export class FairQueue {
  private holding = 0;
  private readonly holdingByTenant = new Map<string, number>();
  /**
   * Waiting requests by tenant. A Map keeps insertion order: it is the round-robin ring. A tenant
   * served goes to the back (deleted and set again) when it still has requests waiting.
   */
  private readonly waiting = new Map<string, Waiter[]>();
  private waitingCount = 0;

  constructor(
    private readonly limits: FairQueueLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Slots held now (running requests). */
  get running(): number {
    return this.holding;
  }

  /** Requests waiting for a slot now. */
  get queued(): number {
    return this.waitingCount;
  }

  /** A slot now, a place in the queue, or a refusal (decided at once: a refusal never waits). */
  acquire(tenantId: string): FairQueueTicket {
    const mine = this.holdingByTenant.get(tenantId) ?? 0;
    // After every grant no waiter could take a free slot, so a tenant under its cap with a free
    // slot has nobody of its own waiting ahead of it either: it goes first.
    if (this.holding < this.limits.slots && mine < this.limits.perTenant) {
      this.take(tenantId);
      return { refused: null, granted: Promise.resolve({ release: this.releaser(tenantId), waitedMs: 0 }) };
    }
    const queue = this.waiting.get(tenantId);
    if ((queue?.length ?? 0) >= this.limits.tenantQueue) return { refused: 'tenant_queue_full' };
    if (this.waitingCount >= this.limits.queue) return { refused: 'queue_full' };
    const granted = new Promise<{ release: ReleaseSlot; waitedMs: number }>((resolve) => {
      const waiter: Waiter = {
        since: this.now(),
        grant: (release, waitedMs) => resolve({ release, waitedMs }),
      };
      if (queue) queue.push(waiter);
      else this.waiting.set(tenantId, [waiter]);
      this.waitingCount += 1;
    });
    return { refused: null, granted };
  }

  private take(tenantId: string): void {
    this.holding += 1;
    this.holdingByTenant.set(tenantId, (this.holdingByTenant.get(tenantId) ?? 0) + 1);
  }

  private releaser(tenantId: string): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holding -= 1;
      const left = (this.holdingByTenant.get(tenantId) ?? 1) - 1;
      if (left > 0) this.holdingByTenant.set(tenantId, left);
      else this.holdingByTenant.delete(tenantId);
      this.dispatch();
    };
  }

  /** Free slots to waiting tenants in turn, skipping tenants at their own cap. */
  private dispatch(): void {
    while (this.holding < this.limits.slots) {
      const next = this.nextEligible();
      if (next === null) return;
      const [tenantId, queue] = next;
      const waiter = queue.shift()!;
      this.waitingCount -= 1;
      // To the back of the ring: every other waiting tenant is served before this one again.
      this.waiting.delete(tenantId);
      if (queue.length > 0) this.waiting.set(tenantId, queue);
      this.take(tenantId);
      waiter.grant(this.releaser(tenantId), this.now() - waiter.since);
    }
  }

  private nextEligible(): [string, Waiter[]] | null {
    for (const entry of this.waiting) {
      if ((this.holdingByTenant.get(entry[0]) ?? 0) < this.limits.perTenant) return entry;
    }
    return null;
  }
}
