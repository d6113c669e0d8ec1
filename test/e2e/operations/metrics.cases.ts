/**
 * GET /metrics (docs/observability.md): admin scope only; the listed series after real traffic,
 * the cached balances fast path and sync runs included; labels drawn from short fixed sets (route
 * templates, never ids or URLs).
 */
import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { EnvelopeInterceptor } from '../../../src/common/interceptors/envelope.interceptor.js';
import { SourceUnavailableError } from '../../../src/modules/sources/index.js';
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import {
  bearer,
  createAccount,
  registerConnector,
  ScriptedConnector,
  simpleHistory,
} from '../../factories/accounts.factory.js';
import { holdReadCacheTime } from '../../support/read-cache-time.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX, usingPostgres } from '../../support/test-app.js';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (format 0.0.4). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
        labels[pair[1]!] = pair[2]!;
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample with this name and (at least) these labels; 0 when absent. */
function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

/**
 * Series that exist only with REDIS_URL (docs/observability.md, "Redis unreachable"), and the job
 * queue's, which exist per queue once a queue does (this app's scheduler is off: none yet when
 * this file runs; admin-queues.cases.ts reads them).
 */
const REDIS_SERIES = [
  'cas_rate_limit_memory_fallbacks_total',
  'cas_redis_up',
  'cas_job_queue_dead_letters',
  'cas_job_queue_oldest_waiting_seconds',
  'cas_job_queue_waiting',
];

const BALANCES_ROUTE = '/v1/api/account/:accountId/balances';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const spyOnIntercept = () => jest.spyOn(EnvelopeInterceptor.prototype, 'intercept');

describe('GET /metrics (e2e)', () => {
  let t: SuiteApp;
  let partner: string;
  let admin: string;
  const accountId = sandboxId('account:sandbox:kraken-trading');
  // Spied while this suite runs only: other suites of the file spy on it too.
  let intercepted: ReturnType<typeof spyOnIntercept>;

  beforeAll(async () => {
    // The account it syncs is its tenant's; the reads it counts are the sandbox's.
    t = await startSuite({ SIMULATION_WORKERS: '2', SIMULATION_QUEUE: '3' }, { tenant: true });
    intercepted = spyOnIntercept();
    [partner, admin] = await Promise.all([
      t.token(SANDBOX.partner.clientId, SANDBOX.partner.secret),
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
    ]);
  });
  afterAll(async () => {
    intercepted.mockRestore();
    await t.close();
  });

  const scrape = async (): Promise<Sample[]> => {
    const res = await t.http.get('/metrics').set(bearer(admin)).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    return parseExposition(res.text);
  };

  describe('access', () => {
    it('answers 401 without a bearer token, as every non-public endpoint', async () => {
      const res = await t.http.get('/metrics').expect(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    });

    it('answers 403 to a partner token: metrics are an operator concern', async () => {
      const res = await t.http.get('/metrics').set(bearer(partner)).expect(403);
      expect(res.body.detail).toBe('This operation needs the scope: admin.');
    });

    it('is not in the OpenAPI document', async () => {
      const doc = await t.http.get('/docs-json').expect(200);
      expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
    });
  });

  it('counts requests by route template and status, the cached balances fast path included', async () => {
    const before = await scrape();
    const path = `/v1/api/account/${accountId}/balances`;
    // The first read may fill the read cache through the route; the next ones take the fast path.
    const release = holdReadCacheTime(t.app);
    try {
      await t.http.get(path).set(bearer(partner)).expect(200);
      intercepted.mockClear();
      await t.http.get(path).set(bearer(partner)).expect(200);
      await t.http.get(path).set(bearer(partner)).expect(200);
    } finally {
      release();
    }
    expect(intercepted).not.toHaveBeenCalled(); // both answered before Nest's route pipeline
    await t.http
      .get(`/v1/api/account/${sandboxId('account:nobody')}/balances`)
      .set(bearer(partner))
      .expect(404);
    await t.http.get(path).expect(401);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    const balances = { method: 'GET', route: BALANCES_ROUTE };
    expect(delta('cas_http_requests_total', { ...balances, status: '200' })).toBe(3);
    expect(delta('cas_http_requests_total', { ...balances, status: '404' })).toBe(1);
    expect(delta('cas_http_requests_total', { ...balances, status: '401' })).toBe(1);
    expect(delta('cas_http_request_duration_seconds_count', balances)).toBe(5);
    expect(delta('cas_http_request_duration_seconds_bucket', { ...balances, le: '+Inf' })).toBe(5);
    expect(valueOf(after, 'cas_http_request_duration_seconds_sum', balances)).toBeGreaterThan(0);
    // The previous scrape itself, under its own route.
    expect(delta('cas_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBe(1);
  });

  it('counts sync runs and failures per source and trigger', async () => {
    const connector = new ScriptedConnector().serves(simpleHistory('metrics'));
    const unregister = registerConnector(t, 'metrics-src', connector);
    try {
      const { accountId: created } = await createAccount(t, admin, {
        tenant: t.tenant!.slug,
        source: 'metrics-src',
        platform: 'kraken',
      });
      const before = await scrape();
      const refresh = () =>
        t.http
          .post(`/admin/accounts/${created}/refresh?tenant=${t.tenant!.slug}`)
          .set(bearer(admin))
          .expect(200);
      expect((await refresh()).body.status).toBe('refreshed');
      connector.throws(new SourceUnavailableError('connection reset by peer'));
      expect((await refresh()).body.status).toBe('failed');
      const after = await scrape();

      const delta = (name: string, labels: Record<string, string>) =>
        valueOf(after, name, labels) - valueOf(before, name, labels);
      const source = { source: 'metrics-src' };
      expect(delta('cas_sync_runs_total', { ...source, trigger: 'admin', outcome: 'refreshed' })).toBe(1);
      expect(delta('cas_sync_runs_total', { ...source, trigger: 'admin', outcome: 'failed' })).toBe(1);
      expect(delta('cas_sync_failures_total', { ...source, reason: 'error' })).toBe(1);
      expect(delta('cas_sync_failures_total', { ...source, reason: 'reconnect_required' })).toBe(0);
      expect(delta('cas_sync_duration_seconds_count', source)).toBe(2);
    } finally {
      unregister();
    }
  });

  it('reports the simulation pool, the database pool and the default process series', async () => {
    const samples = await scrape();
    expect(valueOf(samples, 'cas_simulation_in_flight')).toBe(0);
    expect(valueOf(samples, 'cas_simulation_queued')).toBe(0);
    expect(valueOf(samples, 'cas_simulation_capacity')).toBe(5); // 2 workers + 3 waiting
    expect(samples.some((s) => s.name === 'cas_simulation_worker_threads')).toBe(true);
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'process_resident_memory_bytes')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
    if (usingPostgres()) {
      // A scrape runs no query itself: the pool's counts are whatever the last requests left.
      const inUse = valueOf(samples, 'cas_db_pool_connections', { state: 'in_use' });
      const idle = valueOf(samples, 'cas_db_pool_connections', { state: 'idle' });
      expect(inUse + idle).toBeGreaterThan(0);
      expect(inUse + idle).toBeLessThanOrEqual(t.config.DATABASE_POOL_SIZE);
      expect(valueOf(samples, 'cas_db_pool_waiting')).toBe(0);
      expect(valueOf(samples, 'cas_db_pool_max_connections')).toBe(t.config.DATABASE_POOL_SIZE);
    } else {
      // PGlite is one session behind a mutex, with no pool to report.
      expect(samples.some((s) => s.name.startsWith('cas_db_pool_'))).toBe(false);
    }
  });

  it('is what docs/observability.md lists and what the Grafana dashboard queries', async () => {
    const scraped = new Set((await scrape()).map((s) => s.name.replace(/_(bucket|sum|count)$/, '')));
    const ours = (names: Iterable<string>) =>
      [...new Set([...names].filter((n) => n.startsWith('cas_')))].sort();
    const docs = readFileSync('docs/observability.md', 'utf8');
    const documented = ours([...docs.matchAll(/^\| `(cas_[a-z_]+)` \|/gm)].map((m) => m[1]!));
    // PGlite has no pool: its series are documented, and absent here; so are the Redis ones
    // (this app has no REDIS_URL; test/services/rate-limit-redis.service.spec.ts reads them).
    const expected = documented.filter(
      (n) => (usingPostgres() || !n.startsWith('cas_db_pool_')) && !REDIS_SERIES.includes(n),
    );
    expect(ours(scraped)).toEqual(expected);
    const dashboard = readFileSync('docs/grafana-dashboard.json', 'utf8');
    const queried = [...dashboard.matchAll(/\b((?:cas|process|nodejs)_[a-z0-9_]+)/g)].map((m) =>
      m[1]!.replace(/_(bucket|sum|count)$/, ''),
    );
    expect(queried.length).toBeGreaterThan(20);
    for (const name of queried) expect(documented.includes(name) || scraped.has(name)).toBe(true);
    expect(ours(queried)).toEqual(documented); // every documented series has a panel
  });

  it("counts Swagger UI's page and static files under one template, not as unmatched", async () => {
    const before = await scrape();
    await t.http.get('/docs/').expect(200);
    await t.http.get('/docs/swagger-ui.css').expect(200);
    await t.http.get('/docs/swagger-ui-bundle.js').expect(200);
    const after = await scrape();
    const docs = { method: 'GET', route: '/docs/*', status: '200' };
    const unmatched = { method: 'GET', route: 'unmatched', status: '200' };
    expect(
      valueOf(after, 'cas_http_requests_total', docs) - valueOf(before, 'cas_http_requests_total', docs),
    ).toBe(3);
    expect(valueOf(after, 'cas_http_requests_total', unmatched)).toBe(0);
  });

  it('keeps ids and raw URLs out of the labels, so the number of series stays bounded', async () => {
    const before = await scrape();
    const series = (samples: readonly Sample[]) =>
      samples.filter((s) => s.name === 'cas_http_requests_total');
    // Twenty distinct unknown paths and twenty distinct unknown accounts.
    for (let i = 0; i < 20; i++) {
      await t.http.get(`/no/such/path/${i}?cursor=${i}`).set(bearer(partner)).expect(404);
      await t.http
        .get(`/v1/api/account/${sandboxId(`account:none:${i}`)}/transactions?limit=${i + 1}`)
        .set(bearer(partner))
        .expect(404);
    }
    const after = await scrape();

    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(
      valueOf(after, 'cas_http_requests_total', unmatched) -
        valueOf(before, 'cas_http_requests_total', unmatched),
    ).toBe(20);
    const transactions = { method: 'GET', route: '/v1/api/account/:accountId/transactions', status: '404' };
    expect(
      valueOf(after, 'cas_http_requests_total', transactions) -
        valueOf(before, 'cas_http_requests_total', transactions),
    ).toBe(20);
    // At most the one new 404 series of each (none if an earlier test made it already).
    expect(series(after).length - series(before).length).toBeLessThanOrEqual(2);
    for (const sample of after) {
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toMatch(UUID);
        expect(value).not.toContain('?');
        expect(value).not.toMatch(/\/no\/such/);
      }
      const route = sample.labels.route;
      if (route !== undefined) expect(route === 'unmatched' || route.startsWith('/')).toBe(true);
    }
  });
});
