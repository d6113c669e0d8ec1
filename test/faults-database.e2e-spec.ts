/**
 * Database faults under load (issue 6, item 4): a TCP proxy sits between the service and Postgres
 * and breaks the link while a loop of concurrent requests runs (portfolio creates, portfolio
 * lists, readiness). Four faults: Postgres down (connections refused), a partition (connections
 * dropped, new ones accepted and never answered), a partition that freezes the open connections
 * as they are (then lets them go on), and one after which the frozen connections never come back
 * (a failover behind the same address). Each time: readiness turns 503 within ~2 s, every
 * request answers within DATABASE_TIMEOUT_MS + 1.5 s of the fault with 503 (never 500, never a
 * hang); once the link is back the service recovers by itself, without a restart. Every write
 * acknowledged with 201 is still there at the end, and a write that got 503 is either absent or
 * complete (the portfolio with all its allocations).
 *
 * Postgres only: the proxy needs a TCP database. On PGlite (no DATABASE_URL) the suite is skipped.
 */
import { jest } from '@jest/globals';
import { stripVTControlCharacters } from 'node:util';
import pg from 'pg';
import { TcpProxy } from './support/tcp-proxy.js';
import { createTestSchema, startTestApp, usingPostgres, type TestApp } from './support/test-app.js';

// PGlite runs in-process: there is no connection to break, so these tests need DATABASE_URL.
const describeWithPostgres = usingPostgres() ? describe : describe.skip;

const DATABASE_TIMEOUT_MS = 1_000;
/** The most a request may take while the database is unreachable. */
const FAIL_FAST_MS = DATABASE_TIMEOUT_MS + 1_500;
/** Readiness must report the outage within this. */
const READY_503_WITHIN_MS = 2_000;
/** The service must be ready again within this once the database is back. */
const RECOVER_WITHIN_MS = 10_000;
/** A request still unanswered after this counts as hung (and fails the test). */
const HANG_MS = 10_000;
const WORKERS = 6;
/**
 * A frozen connection holds a request for up to ~2 s (connection wait plus query timeout), so in a
 * 4 s outage a worker may finish only one request wholly inside it: 6 workers gave exactly 6
 * samples once in CI, one short of the check below. 6 s leaves each worker room for two or more.
 */
const STALL_OUTAGE_MS = 6_000;
const ALLOCATIONS = { BTC: 60, ETH: 40 };

type Kind = 'create' | 'list' | 'ready';

interface Sample {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or 'hang' when no answer came within HANG_MS, or 'network' on a socket error. */
  status: number | 'hang' | 'network';
  name?: string;
  id?: string;
  retryAfter?: string | null;
  body?: string;
}

/** Runs WORKERS concurrent request loops (create, list, readiness in turn) until stopped. */
class Load {
  readonly samples: Sample[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private counter = 0;

  constructor(
    private readonly base: string,
    private readonly auth: string,
    private readonly label: string,
  ) {}

  start(): void {
    this.running = true;
    this.loops = Array.from({ length: WORKERS }, (_, worker) => this.loop(worker));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(worker: number): Promise<void> {
    const kinds: Kind[] = ['create', 'list', 'ready'];
    for (let i = worker; this.running; i++) {
      this.samples.push(await this.one(kinds[i % kinds.length]));
      // Keep 2 shared cores usable for the service itself.
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private async one(kind: Kind): Promise<Sample> {
    const startedAt = Date.now();
    const name = kind === 'create' ? `fault-${this.label}-${++this.counter}` : undefined;
    const init: RequestInit =
      kind === 'create'
        ? {
            method: 'POST',
            headers: { authorization: this.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ name, allocations: ALLOCATIONS }),
          }
        : kind === 'list'
          ? { headers: { authorization: this.auth } }
          : {};
    const path = kind === 'ready' ? '/health/ready' : '/api/portfolios';
    try {
      const response = await fetch(`${this.base}${path}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
      const body = await response.text();
      const id = kind === 'create' && response.status === 201 ? JSON.parse(body).id : undefined;
      return {
        kind,
        startedAt,
        endedAt: Date.now(),
        status: response.status,
        name,
        id,
        retryAfter: response.headers.get('retry-after'),
        ...(response.status >= 500 && response.status !== 503 ? { body: body.slice(0, 300) } : {}),
      };
    } catch (error) {
      // By name: fetch's errors come from Node's realm, not Jest's, so `instanceof Error` fails.
      const { name: errorName } = (error ?? {}) as { name?: unknown };
      const hang = errorName === 'TimeoutError' || errorName === 'AbortError';
      return { kind, startedAt, endedAt: Date.now(), status: hang ? 'hang' : 'network', name };
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls readiness every 50 ms until it answers `status`; returns the elapsed time. */
async function readinessBecomes(base: string, status: number, withinMs: number): Promise<number> {
  const from = Date.now();
  for (;;) {
    const answered = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(HANG_MS) }).then(
      (r) => r.status,
      () => 0,
    );
    if (answered === status) return Date.now() - from;
    if (Date.now() - from > withinMs)
      throw new Error(`readiness still ${answered} after ${Date.now() - from} ms (wanted ${status})`);
    await sleep(50);
  }
}

const describeSample = (s: Sample, t0: number) =>
  `${s.kind} ${s.status} started ${s.startedAt - t0} ms after the fault, took ${s.endedAt - s.startedAt} ms`;

const isSuccess = (s: Sample) => s.status === 200 || s.status === 201;

/** Every sample passes `ok`; a failure shows the status counts and the first offenders. */
function expectEvery(samples: Sample[], ok: (s: Sample) => boolean, faultAt: number): void {
  const statuses = statusesOf(samples);
  const offenders = samples
    .filter((s) => !ok(s))
    .slice(0, 3)
    .map((s) => ({ sample: describeSample(s, faultAt), body: s.body }));
  expect({ statuses, offenders }).toEqual({ statuses, offenders: [] });
}

const statusesOf = (samples: Sample[]) =>
  samples.reduce<Record<string, number>>((counts, s) => {
    const key = `${s.kind}:${s.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});

describeWithPostgres('database faults under load (e2e, Postgres)', () => {
  let proxy: TcpProxy;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let t: TestApp;
  let base: string;
  let auth: string;
  /** Every 201 of every scenario: must survive everything that follows. */
  const acknowledged: { id: string; name: string }[] = [];
  /** Every create that got 503: absent or complete. */
  const refused: string[] = [];
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    // TypeORM prints every failed query to the console; hundreds fail here on purpose.
    const log = console.log.bind(console);
    jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      if (/^(query failed|error):/.test(stripVTControlCharacters(String(args[0])))) return;
      log(...args);
    });
    const real = new URL(process.env.DATABASE_URL!);
    proxy = new TcpProxy(real.hostname, Number(real.port || 5432));
    await proxy.start();
    const viaProxy = new URL(real);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    schema = await createTestSchema(); // on the real server: the proxy is only for the service
    t = await startTestApp(
      {
        DATABASE_URL: viaProxy.toString(),
        DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      { schema: schema.schema },
    );
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    auth = `Bearer ${await t.token()}`;
  });

  afterAll(async () => {
    await proxy?.heal();
    await t?.close();
    await proxy?.stop();
    await schema?.drop();
    jest.restoreAllMocks();
    // Reported for the issue: time to 503 and time to recover per fault.
    console.log(`database fault timings (ms): ${JSON.stringify(timings)}`);
  });

  /**
   * One fault: load for a moment, break the link, keep the load on for `outageMs`, heal, wait for
   * readiness, keep the load on a moment longer; then check every answer.
   */
  async function scenario(
    label: string,
    breakLink: () => Promise<void> | void,
    outageMs: number,
    heal: () => Promise<void> = () => proxy.heal(),
  ) {
    const load = new Load(base, auth, label);
    load.start();
    await sleep(800);
    const faultAt = Date.now();
    await breakLink();
    timings[`${label}.ready503`] = await readinessBecomes(base, 503, READY_503_WITHIN_MS);
    await sleep(Math.max(0, outageMs - (Date.now() - faultAt)));
    const healAt = Date.now();
    await heal();
    timings[`${label}.recover`] = await readinessBecomes(base, 200, RECOVER_WITHIN_MS);
    const readyAt = Date.now();
    await sleep(1_000);
    await load.stop();

    const { samples } = load;
    // Never a hang, a reset, a 500 or anything but success or 503; every 503 says when to retry.
    expectEvery(samples, (s) => isSuccess(s) || s.status === 503, faultAt);
    expectEvery(
      samples.filter((s) => s.status === 503),
      (s) => s.retryAfter === '5',
      faultAt,
    );

    // Before the fault everything succeeded.
    const before = samples.filter((s) => s.endedAt < faultAt);
    expect(before.length).toBeGreaterThan(WORKERS);
    expectEvery(before, isSuccess, faultAt);

    // Nothing waits on the outage longer than the database timeout allows: measured from the
    // later of the request's start and the fault (time spent before the fault is not the fault's).
    const inOutage = samples.filter((s) => s.endedAt > faultAt && s.startedAt < healAt);
    const waited = (s: Sample) => s.endedAt - Math.max(s.startedAt, faultAt);
    const slowest = inOutage.reduce((worst, s) => (waited(s) > waited(worst) ? s : worst));
    timings[`${label}.slowestDuringOutage`] = waited(slowest);
    expect({ slowest: describeSample(slowest, faultAt), ok: waited(slowest) <= FAIL_FAST_MS }).toEqual({
      slowest: describeSample(slowest, faultAt),
      ok: true,
    });

    // During the fault: requests started after it (and a moment for the break to land) all fail
    // with 503.
    const during = samples.filter((s) => s.startedAt >= faultAt + 100 && s.endedAt <= healAt);
    expect(during.length).toBeGreaterThan(WORKERS);
    expectEvery(during, (s) => s.status === 503, faultAt);

    // Recovered without a restart: everything started once readiness was back succeeds.
    const after = samples.filter((s) => s.startedAt >= readyAt);
    expect(after.length).toBeGreaterThan(WORKERS);
    expectEvery(after, isSuccess, faultAt);

    for (const s of samples.filter((x) => x.kind === 'create')) {
      if (s.status === 201) acknowledged.push({ id: s.id!, name: s.name! });
      else refused.push(s.name!);
    }
    expect(samples.filter((s) => s.kind === 'create' && s.status === 503).length).toBeGreaterThan(0);
  }

  it('Postgres down (connections refused): 503 fast, never 500, recovers by itself', async () => {
    await scenario('refuse', () => proxy.refuse(), 3_000);
  });

  it('network partition (connections accepted, never answered): 503 within the timeout, no hang, recovers', async () => {
    await scenario('blackhole', () => proxy.blackhole(), 4_000);
  });

  it('partition that freezes open connections, then lets them go on: 503 within the timeout, recovers', async () => {
    await scenario('stall', () => proxy.stall(), STALL_OUTAGE_MS);
  });

  it('partition after which the frozen connections never come back (failover): recovers on new connections', async () => {
    await scenario(
      'stall-keep',
      () => proxy.stall(),
      STALL_OUTAGE_MS,
      () => proxy.heal({ stalled: 'keep' }),
    );
  });

  it('keeps every acknowledged write; a refused write is absent or complete, never partial', async () => {
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { id, name } of acknowledged) {
      const res = await fetch(`${base}/api/portfolios/${id}`, { headers: { authorization: auth } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, name, allocations: ALLOCATIONS });
    }
    const list = (await (
      await fetch(`${base}/api/portfolios`, { headers: { authorization: auth } })
    ).json()) as {
      id: string;
      name: string;
      allocations: Record<string, number>;
    }[];
    const byName = new Map(list.map((p) => [p.name, p]));
    for (const name of refused) {
      const stored = byName.get(name);
      if (stored) expect(stored.allocations).toEqual(ALLOCATIONS);
    }
    // Straight from the database: no portfolio of these tests without exactly its two allocations.
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; allocations: string }>(
        `SELECT p.name, count(a.symbol)::text AS allocations
           FROM ${schema.schema}.portfolio p
           LEFT JOIN ${schema.schema}.portfolio_allocation a ON a.portfolio_id = p.id
          WHERE p.name LIKE 'fault-%'
          GROUP BY p.id, p.name`,
      );
      expect(rows.filter((row) => row.allocations !== '2')).toEqual([]);
      const names = new Set(rows.map((row) => row.name));
      for (const { name } of acknowledged) expect(names.has(name)).toBe(true);
      timings.acknowledgedWrites = acknowledged.length;
      timings.refusedWrites = refused.length;
      timings.refusedButCommitted = refused.filter((name) => names.has(name)).length;
    } finally {
      await client.end();
    }
  });
});
