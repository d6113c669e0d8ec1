import { FairQueue, type FairQueueLimits, type ReleaseSlot } from './fair-queue.js';

const limits = (overrides: Partial<FairQueueLimits> = {}): FairQueueLimits => ({
  slots: 1,
  perTenant: 1,
  tenantQueue: 20,
  queue: 100,
  ...overrides,
});

/** Requests of a queue and the order they were granted in, with what each must call when done. */
function harness(queue: FairQueue) {
  const served: string[] = [];
  const releases = new Map<string, ReleaseSlot>();
  const ask = (tenant: string, label: string) => {
    const ticket = queue.acquire(tenant);
    if (ticket.refused !== null) return ticket.refused;
    void ticket.granted.then(({ release }) => {
      served.push(label);
      releases.set(label, release);
    });
    return 'queued';
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const finish = async (label: string) => {
    releases.get(label)!();
    await settle();
  };
  return { served, ask, settle, finish };
}

describe('FairQueue', () => {
  it('serves waiting tenants in turn: one tenant’s twenty requests do not starve another’s one', async () => {
    const queue = new FairQueue(limits());
    const { served, ask, settle, finish } = harness(queue);
    ask('a', 'a0');
    for (let i = 1; i <= 20; i++) ask('a', `a${i}`);
    ask('b', 'b1');
    ask('c', 'c1');
    await settle();
    expect(served).toEqual(['a0']);
    expect(queue.queued).toBe(22);
    for (const label of ['a0', 'a1', 'b1', 'c1']) await finish(label);
    // b and c each waited behind one request of a, not twenty.
    expect(served).toEqual(['a0', 'a1', 'b1', 'c1', 'a2']);
    expect(queue.queued).toBe(18);
  });

  it('keeps a tenant at its own cap while slots are free, and gives them to other tenants', async () => {
    const queue = new FairQueue(limits({ slots: 3, perTenant: 2 }));
    const { served, ask, settle } = harness(queue);
    ['a1', 'a2', 'a3', 'a4'].forEach((label) => ask('a', label));
    await settle();
    expect(served).toEqual(['a1', 'a2']);
    expect(queue.running).toBe(2);
    expect(queue.queued).toBe(2);
    ask('b', 'b1'); // the free third slot: b need not wait for a
    await settle();
    expect(served).toEqual(['a1', 'a2', 'b1']);
  });

  it('refuses a tenant beyond its queue share (429) before the instance queue (503)', async () => {
    const queue = new FairQueue(limits({ tenantQueue: 2, queue: 3 }));
    const { ask } = harness(queue);
    expect(ask('a', 'a0')).toBe('queued'); // running
    expect(ask('a', 'a1')).toBe('queued');
    expect(ask('a', 'a2')).toBe('queued');
    expect(ask('a', 'a3')).toBe('tenant_queue_full');
    expect(ask('b', 'b1')).toBe('queued'); // the instance's third place
    expect(ask('c', 'c1')).toBe('queue_full');
    expect(ask('a', 'a4')).toBe('tenant_queue_full');
    expect(queue.queued).toBe(3);
  });

  it('frees the slot of a request that failed, once however often release is called', async () => {
    const queue = new FairQueue(limits());
    const ticket = queue.acquire('a');
    if (ticket.refused !== null) throw new Error('refused');
    const { release } = await ticket.granted;
    const { served, ask, settle } = harness(queue);
    ask('b', 'b1');
    ask('b', 'b2');
    release();
    release();
    await settle();
    expect(served).toEqual(['b1']);
    expect(queue.running).toBe(1);
  });

  it('reports each request’s wait', async () => {
    let now = 0;
    const queue = new FairQueue(limits(), () => now);
    const first = queue.acquire('a');
    const second = queue.acquire('b');
    if (first.refused !== null || second.refused !== null) throw new Error('refused');
    expect((await first.granted).waitedMs).toBe(0);
    now = 250;
    (await first.granted).release();
    expect((await second.granted).waitedMs).toBe(250);
  });
});
