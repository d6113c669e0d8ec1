/**
 * Service tier: audited reads (AuditService.recordRead) wait in memory and are appended in
 * batches. While an append is under way, the reads that arrive only queue: no read waits on it,
 * and when it ends the next full batch goes at once, one batch (INSERT_BATCH) an append. A failed
 * append keeps its reads and is retried on its timer, not by each new read. Beyond
 * AUDIT_READ_BACKLOG reads waiting, a new read waits for room (AuditService.room), oldest first,
 * and is refused (AuditBacklogError, 503) after AUDIT_BACKLOG_WAIT_MS.
 */
import { jest } from '@jest/globals';
import { ManualClock } from '../../src/common/clock/clock.js';
import { AuditModule, AuditService } from '../../src/modules/audit/index.js';
import { AUDIT_BACKLOG_WAIT_MS, AuditBacklogError, INSERT_BATCH } from '../../src/modules/audit/testing.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const BACKLOG = 2 * INSERT_BATCH;

describe('audited reads queued while the database is busy (service tier)', () => {
  let s: ServiceModule;
  let audit: AuditService;
  let reads = 0;

  const read = () =>
    audit.recordRead({
      tenantId: '00000000-0000-4000-8000-000000000001',
      actorKind: 'client',
      actorId: 'queue-client',
      action: 'balances.read',
      accountId: `00000000-0000-4000-8000-${String(++reads).padStart(12, '0')}`,
      requestId: `req-${reads}`,
      status: 200,
      details: { path: 'fast' },
    });

  /** Appends held until released (all of them after each test, so a failed test cannot hang close). */
  const released: (() => void)[] = [];
  /** An append held until released: the database "busy" for as long as the test likes. */
  const holdAppends = () => {
    const real = audit.append.bind(audit);
    const sizes: number[] = [];
    jest.spyOn(audit, 'append').mockImplementation(async (drafts, manager) => {
      sizes.push(Array.isArray(drafts) ? drafts.length : 1);
      await new Promise<void>((resolve) => released.push(resolve));
      return real(drafts, manager);
    });
    return { sizes, release: () => released.shift()?.() };
  };

  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };
  /** Waits (polling, up to 30 s) until `done` holds. */
  const until = async (done: () => boolean) => {
    for (const deadline = Date.now() + 30_000; !done();) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [AuditModule],
      clock: new ManualClock(new Date('2026-11-25T12:00:00Z')),
      prices: new FixedMarketPrices({}),
      // Only full batches and explicit flushes append during the test.
      env: { AUDIT_READ_FLUSH_MS: '10000', AUDIT_READ_BACKLOG: String(BACKLOG) },
    });
    audit = s.get(AuditService);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    for (const release of released.splice(0)) release();
  });
  afterAll(() => s?.close());

  it('starts one append per full batch, queues the reads that arrive meanwhile, and appends them next, a batch at a time', async () => {
    const held = holdAppends();
    const flushes = jest.spyOn(audit, 'flush');
    for (let i = 0; i < INSERT_BATCH; i++) read();
    expect(held.sizes).toEqual([INSERT_BATCH]);
    // Four more batches' worth while the first is held: nobody waits on it, nothing else starts.
    for (let i = 0; i < 4 * INSERT_BATCH + 7; i++) read();
    await settle();
    expect(flushes).toHaveBeenCalledTimes(1);
    expect(held.sizes).toEqual([INSERT_BATCH]);
    expect(audit.pendingReads).toBe(4 * INSERT_BATCH + 7);

    // Its end starts the next at once, a batch at most: an append hashes its entries on the
    // request thread before its first statement, so one append of a whole backlog stalled it.
    for (let appends = 2; appends <= 5; appends++) {
      held.release();
      await until(() => held.sizes.length === appends);
    }
    expect(held.sizes).toEqual([INSERT_BATCH, INSERT_BATCH, INSERT_BATCH, INSERT_BATCH, INSERT_BATCH]);
    expect(audit.pendingReads).toBe(7);
    held.release();
    // Less than a batch waits for its timer, or for a flush, which appends every read queued so far.
    const flushed = audit.flush();
    await until(() => held.sizes.length === 6);
    expect(held.sizes[5]).toBe(7);
    held.release();
    await flushed;
    expect(audit.pendingReads).toBe(0);

    const verification = await audit.verify();
    expect(verification).toMatchObject({ valid: true });
    const stored = await audit.list({ actor: 'queue-client' }, 10_000);
    expect(stored).toHaveLength(5 * INSERT_BATCH + 7);
    expect(stored.map((e) => e.requestId)).toEqual(stored.map((_, i) => `req-${i + 1}`));
  });

  it('after a failed append, retries on its timer: new reads, even a full batch of them, do not start appends', async () => {
    const before = reads;
    let failing = true;
    const real = audit.append.bind(audit);
    const appends = jest.spyOn(audit, 'append').mockImplementation(async (drafts, manager) => {
      if (failing) throw new Error('database unavailable');
      return real(drafts, manager);
    });
    const errors = jest.spyOn((audit as unknown as { logger: { error: () => void } }).logger, 'error');
    errors.mockImplementation(() => undefined);
    for (let i = 0; i < INSERT_BATCH; i++) read();
    await settle();
    expect(appends).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3 * INSERT_BATCH; i++) read();
    await settle();
    expect(appends).toHaveBeenCalledTimes(1);
    expect(audit.pendingReads).toBe(4 * INSERT_BATCH); // kept, none dropped

    failing = false;
    await audit.flush();
    expect(audit.pendingReads).toBe(0);
    const stored = await audit.list({ actor: 'queue-client' }, 10_000);
    expect(stored.slice(-4 * INSERT_BATCH).map((e) => e.requestId)).toEqual(
      Array.from({ length: 4 * INSERT_BATCH }, (_, i) => `req-${before + i + 1}`),
    );
    expect(await audit.verify()).toMatchObject({ valid: true });
  });

  it('beyond AUDIT_READ_BACKLOG waiting, a read waits for room, oldest first, until an append takes reads from the backlog', async () => {
    const held = holdAppends();
    // One full batch goes into the held append; two more fill the backlog.
    for (let i = 0; i < INSERT_BATCH + BACKLOG; i++) read();
    await settle();
    expect(held.sizes).toEqual([INSERT_BATCH]);
    expect(audit.pendingReads).toBe(BACKLOG);
    expect(audit.hasRoom()).toBe(false);
    const admitted: number[] = [];
    const first = audit.room();
    const second = audit.room();
    expect(first).toBeInstanceOf(Promise);
    void (first as Promise<void>).then(() => admitted.push(1));
    void (second as Promise<void>).then(() => admitted.push(2));
    await settle();
    expect(admitted).toEqual([]);
    expect(audit.readsWaitingForRoom).toBe(2);

    // The held append ends; the next takes a batch from the backlog, and the waiting reads go on.
    held.release();
    await until(() => held.sizes.length === 2);
    await settle();
    expect(admitted).toEqual([1, 2]);
    expect(audit.readsWaitingForRoom).toBe(0);
    expect(audit.hasRoom()).toBe(true);
    expect(audit.room()).toBe(true);
    held.release();
    await until(() => held.sizes.length === 3);
    held.release();
    await audit.flush();
    expect(audit.pendingReads).toBe(0);
  });

  it('refuses a read that found no room within AUDIT_BACKLOG_WAIT_MS (503, Retry-After), and keeps every queued read', async () => {
    const before = reads;
    let failing = true;
    const real = audit.append.bind(audit);
    jest.spyOn(audit, 'append').mockImplementation(async (drafts, manager) => {
      if (failing) throw new Error('database unavailable');
      return real(drafts, manager);
    });
    jest
      .spyOn((audit as unknown as { logger: { error: () => void } }).logger, 'error')
      .mockImplementation(() => undefined);
    for (let i = 0; i < BACKLOG; i++) read();
    await settle();
    expect(audit.hasRoom()).toBe(false);
    const startedAt = performance.now();
    const refusal = await (audit.room() as Promise<void>).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(AUDIT_BACKLOG_WAIT_MS - 50);
    expect(refusal).toBeInstanceOf(AuditBacklogError);
    expect(refusal).toMatchObject({
      code: 'service_unavailable',
      reason: 'audit_backlog',
      retryAfterSeconds: 2,
    });
    expect(audit.readsWaitingForRoom).toBe(0);

    failing = false;
    await audit.flush();
    expect(audit.pendingReads).toBe(0);
    const stored = await audit.list({ actor: 'queue-client' }, 10_000, undefined, 'desc');
    expect(
      stored
        .slice(0, BACKLOG)
        .map((e) => e.requestId)
        .reverse(),
    ).toEqual(Array.from({ length: BACKLOG }, (_, i) => `req-${before + i + 1}`));
    expect(await audit.verify()).toMatchObject({ valid: true });
  });
});
