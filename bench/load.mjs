#!/usr/bin/env node
/**
 * Load benchmark (issue 6). Starts, in one run, on this machine only (127.0.0.1):
 *   - the service (dist/) on PostgreSQL, in a schema of its own,
 *   - a bare node:http server and a bare NestJS app answering the same bytes as a cached
 *     balances response (bench/reference-servers.mjs), each in its own process.
 * For each endpoint: requests/s at 50 connections (autocannon), then p50/p99 at a fixed 500
 * requests/s (an evenly paced open-loop sender, below), and the ratios to both references.
 *
 * Cores: where `taskset` exists and there are at least 2 CPUs, the service and the references run
 * on CPU 1 and this process (the load generator) on CPU 0, so the generator never takes cycles from
 * the server it measures; a PostgreSQL on this machine is moved to CPU 0 too while the benchmark
 * runs (below, databaseCore). Cached balances and the bare NestJS app are measured in alternating
 * rounds (ROUNDS each, for requests/s and again for latency) and compared by their medians, so
 * that a slow spell of a shared virtual machine does not land on one side only.
 *
 * Why not autocannon's `overallRate` for the fixed rate: it lets each connection send its quota
 * for the second as a burst when the second starts (500 requests at once, then silence), and
 * corrects for coordinated omission with an expected interval of 1 ms, so its "p99 at 500/s"
 * measures how long a 500-request burst takes to drain. The paced sender issues one request every
 * 2 ms and measures each from the moment it was due (so queueing counts; wrk2's method).
 *
 *   npm run build && node bench/load.mjs                 full run (figures for bench/README.md)
 *   node bench/load.mjs --short                          CI: a second each, no floors, fails on any error
 *   node bench/load.mjs --cpu-prof                       also writes a CPU profile of the service
 *                                                        and summarises the balances rounds of it
 *   node bench/load.mjs --cpu-prof=transactions          the same for the first endpoint whose name
 *                                                        contains the text (only it is measured)
 *   node bench/load.mjs --only=balances                  only the headline pair (cached balances and bare
 *                                                        NestJS) and the endpoints whose name contains
 *                                                        the text: for working on one row
 *   node bench/load.mjs --alloc                          also reports the bytes V8 allocates per
 *                                                        request (cached balances and bare NestJS),
 *                                                        which host noise does not move; their logs
 *                                                        then go to a temporary file, not /dev/null
 *   node bench/load.mjs --pglite --only=balances         the service on its embedded default (PGlite in a
 *                                                        temporary DATA_DIR, inside the service process on
 *                                                        CPU 1); the DB-bound rows run without their floors
 * BENCH_CONNECTIONS=100 drives the saturated runs with another number of connections (default 50).
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/test. BENCH_SERVICE runs another
 * build's main.js (a copy of dist/ kept inside the repository, so node_modules resolve).
 *
 * Floors of the DB-bound rows (transactions, crypto-data, portfolios): a third reference, bare
 * NestJS + the same SQL (bench/reference-servers.mjs `nest-sql`), runs the statements the service
 * runs for that request (learnt with bench/sql-trace.mjs; same parameters, same rows) and sends the
 * bytes the service answered. Each such row is measured in alternating rounds with its floor, and
 * a second table gives the service's ratio to it, by req/s and by CPU per request.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, paced, waitFor } from './harness.mjs';

const canPin = (() => {
  if (process.env.BENCH_PINNED === '1') return true; // re-run below, already on CPU 0
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return availableParallelism() >= 2;
  } catch {
    return false;
  }
})();
if (canPin && !process.env.BENCH_PINNED) {
  // Re-run this script on CPU 0; servers get CPU 1 (see onServerCore).
  const child = spawnSync('taskset', ['-c', '0', process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  process.exit(child.status ?? 1);
}
/** The command line of a server process: on CPU 1 when pinning is possible. */
const onServerCore = (args) =>
  canPin ? ['taskset', ['-c', '1', process.execPath, ...args]] : [process.execPath, args];

const args = new Set(process.argv.slice(2));
const SHORT = args.has('--short');
const profileArg = process.argv.slice(2).find((a) => a === '--cpu-prof' || a.startsWith('--cpu-prof='));
const CPU_PROF = profileArg !== undefined;
/** The endpoint the profile is about: its name contains this text. */
const PROFILE_TARGET = profileArg?.includes('=') ? profileArg.slice('--cpu-prof='.length) : 'balances';
const PROFILE_BALANCES = CPU_PROF && 'GET balances (cached)'.includes(PROFILE_TARGET);
const ALLOC = args.has('--alloc');
const onlyArg = process.argv.slice(2).find((a) => a.startsWith('--only='));
/** With --only=<text>: besides the headline pair, only endpoints whose name contains the text run. */
const ONLY = onlyArg?.slice('--only='.length);
const DURATION = SHORT ? 1 : 10;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const FIXED_RATE = 500;
const ROUNDS = SHORT ? 1 : 3;
/** The service on embedded PGlite (no database server): what `npm start` runs on a fresh machine. */
const PGLITE = args.has('--pglite');
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** The service's entry point: another build's copy (e.g. BENCH_SERVICE=.ab/before/src/main.js) for a before/after pair. */
const SERVICE_ENTRY = process.env.BENCH_SERVICE || 'dist/src/main.js';

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** CPU time (user + system) a process has used so far, in µs; undefined where /proc is not there. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** One CPU's busy and total time so far (clock ticks, /proc/stat); undefined where /proc is not there. */
function coreTimes(cpu) {
  try {
    const line = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`cpu${cpu} `));
    // user nice system idle iowait irq softirq steal …: busy is neither idle, waiting nor stolen.
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: total - ticks[3] - ticks[4] - (ticks[7] ?? 0), total };
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A server is quiet when it uses under 5 % of a core over a quarter of a second. */
const QUIET_SHARE = 0.05;
const QUIET_WINDOW_MS = 250;
/**
 * Waits until every process in `pids` is quiet (at most `limitMs`), so that one server's work left
 * over from its round (on PGlite the service appends the round's audited reads for a second or
 * more after it, on CPU 1) does not take the measured core from the next round's server.
 * Returns the milliseconds waited.
 */
async function quiet(pids, limitMs = 30_000) {
  const startedAt = performance.now();
  while (performance.now() - startedAt < limitMs) {
    const before = pids.map(cpuMicros);
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const used = pids.map((pid, i) => (cpuMicros(pid) ?? 0) - (before[i] ?? 0));
    if (used.every((micros) => micros < QUIET_SHARE * QUIET_WINDOW_MS * 1000)) break;
  }
  return performance.now() - startedAt;
}

/**
 * A saturated run that also reports the server's CPU time per request (`cpuPerRequest`, µs): unlike
 * requests/s, it does not move when the virtual machine's host takes cycles away mid-run. Every
 * server is quiet before it starts; after it, `cpuPerRequestWithTail` also counts what the server
 * went on doing for the round's requests until it was quiet again (deferred audit appends).
 */
async function cannonWithCpu(opts, pid) {
  await quiet(children.map((child) => child.pid));
  const before = cpuMicros(pid);
  const coreBefore = coreTimes(0);
  const generatorBefore = process.cpuUsage();
  const databaseBefore = databaseCore.cpuMicros();
  const startedAt = performance.now();
  const monotonicFrom = process.hrtime.bigint() / 1000n;
  const result = await cannon(opts);
  result.window = [startedAt, performance.now()];
  // CLOCK_MONOTONIC in µs, the clock of a V8 .cpuprofile's timestamps.
  result.monotonic = [Number(monotonicFrom), Number(process.hrtime.bigint() / 1000n)];
  const after = cpuMicros(pid);
  result.cpuPerRequest =
    before === undefined || after === undefined ? undefined : (after - before) / result.requests.total;
  result.tailMs = await quiet([pid]);
  const afterTail = cpuMicros(pid);
  // It includes the quiet window that ended the wait (< 12.5 ms of CPU against a round's seconds).
  result.cpuPerRequestWithTail =
    before === undefined || afterTail === undefined
      ? undefined
      : (afterTail - before) / result.requests.total;
  const generator = process.cpuUsage(generatorBefore);
  result.generatorCpuPerRequest = (generator.user + generator.system) / result.requests.total;
  const databaseAfter = databaseCore.cpuMicros();
  result.databaseCpuPerRequest =
    databaseBefore === undefined || databaseAfter === undefined
      ? undefined
      : (databaseAfter - databaseBefore) / result.requests.total;
  const coreAfter = coreTimes(0);
  result.core0Busy =
    coreBefore && coreAfter
      ? (coreAfter.busy - coreBefore.busy) / (coreAfter.total - coreBefore.total)
      : undefined;
  return result;
}

/**
 * With --alloc a server runs with V8's `--trace-gc-nvp`, which prints one line per collection to
 * stdout: "<ms since start> ms: pause=… allocated=<bytes since the previous collection> …". The
 * bytes of the collections that fell inside a saturated round, divided by the round's requests, are
 * what one request allocates: a figure that, unlike CPU time, a slower spell of the host does not
 * change. (The few KB allocated before the round's first collection and after its last one are
 * left out or counted in its place; over a 10 s round of several hundred collections, < 1%.)
 */
function traced(name) {
  if (!ALLOC) return { flags: [], stdout: 'ignore' };
  const file = join(gcDir, name);
  return { flags: ['--trace-gc-nvp'], stdout: openSync(file, 'w'), file, spawnedAt: performance.now() };
}

async function allocatedPerRequest(server, runs) {
  const collections = [];
  const lines = createInterface({ input: createReadStream(server.file), crlfDelay: Infinity });
  for await (const line of lines) {
    const gc = /\s(\d+) ms: pause=.* allocated=(\d+)/.exec(line);
    if (gc) collections.push({ at: server.spawnedAt + Number(gc[1]), bytes: Number(gc[2]) });
  }
  return median(
    runs.map((run) => {
      const [from, to] = run.window;
      const bytes = collections.filter((c) => c.at >= from && c.at <= to).reduce((n, c) => n + c.bytes, 0);
      return bytes / run.requests.total;
    }),
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Latency at the fixed rate, from saturated runs already made. An endpoint that cannot sustain
 * 1.25 × the fixed rate (token issuance: argon2id) would only show its queue growing without
 * bound, so it is paced at half its own capacity instead, and the row says so. `latencyRuns`, when
 * given, are paced runs already made (the headline pair's alternating rounds): the row shows their
 * median p50 and p99.
 */
async function withLatency(name, request, runs, latencyRuns) {
  const rps = median(runs.map((r) => r.requests.average));
  let rate = FIXED_RATE;
  let fixed = latencyRuns;
  if (!fixed) {
    // Let the requests still queued from the saturated run drain first (token issuance: seconds).
    await settle(rps);
    rate = rps >= 1.25 * FIXED_RATE ? FIXED_RATE : Math.max(1, Math.floor(rps / 2));
    fixed = [await paced(request, rate, DURATION)];
  }
  return {
    name,
    rps,
    rounds: runs.map((r) => r.requests.average),
    rate,
    p50: median(fixed.map((f) => f.p50)),
    p99: median(fixed.map((f) => f.p99)),
    p99Rounds: fixed.map((f) => f.p99),
    errors:
      runs.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0) +
      fixed.reduce((n, f) => n + f.errors, 0),
  };
}

/**
 * Waits for the requests a saturated run left queued to drain. The short form (errors only, no
 * figures) waits at most 5 s: token issuance answers ~0 req/s by design, which would wait 50 s.
 */
const settle = (rps) =>
  new Promise((resolve) =>
    setTimeout(
      resolve,
      Math.min(500 + Math.ceil((1000 * CONNECTIONS) / Math.max(1, rps)), SHORT ? 5000 : Infinity),
    ),
  );

/** Requests/s at 50 connections, then latency at the fixed rate. */
const measure = async (name, request) => withLatency(name, request, [await cannon({ ...request })]);

/** Warm a server up (JIT, caches) before it is measured. */
const warm = (request) => cannon({ ...request, duration: SHORT ? 1 : 3 });

const schema = `bench_${Date.now().toString(36)}`;
/** PostgreSQL: the schema's owner; PGlite: none (the service's database is a temporary directory). */
const admin = PGLITE ? undefined : new pg.Client({ connectionString: DATABASE_URL });
await admin?.connect();
await admin?.query(`CREATE SCHEMA ${schema}`);
const dataDir = PGLITE ? mkdtempSync(join(tmpdir(), 'cass-load-pglite-')) : undefined;

/**
 * The database beside the load generator. The references have no database; the service's audit
 * trail inserts a row per read, ~20 % of a core at saturation, and a PostgreSQL on this machine
 * would otherwise run that work partly on CPU 1, the measured core (in production the database has a
 * host of its own). So where the server is local and taskset may move its processes, every process
 * pg_stat_activity lists (backends and background workers; new ones, e.g. autovacuum's, within a
 * second) runs on CPU 0 while the benchmark runs, and gets its affinity back at the end.
 * BENCH_DATABASE_CORE=shared leaves the database where the system puts it.
 */
const databaseCore = {
  /** pid → its affinity mask before. */
  pinned: new Map(),
  timer: undefined,
  /** Why the database is not on CPU 0, when it is not. */
  reason: undefined,
  async pin() {
    if (PGLITE) return void (this.reason = 'embedded PGlite runs in the service process');
    if (!canPin) return void (this.reason = 'no core pinning here');
    if (process.env.BENCH_DATABASE_CORE === 'shared')
      return void (this.reason = 'BENCH_DATABASE_CORE=shared');
    if (!['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(new URL(DATABASE_URL).hostname))
      return void (this.reason = 'the database is not on this machine');
    try {
      await this.sweep();
    } catch (error) {
      this.release();
      return void (this.reason = `taskset could not move the database's processes (${error.message.split('\n')[0]})`);
    }
    this.timer = setInterval(() => this.sweep().catch(() => undefined), 1000);
  },
  async sweep() {
    const { rows } = await admin.query('SELECT pid FROM pg_stat_activity');
    for (const { pid } of rows) {
      if (this.pinned.has(pid)) continue;
      try {
        // "pid N's current affinity mask: 3": given back as it was.
        const mask = execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' })
          .trim()
          .split(' ')
          .pop();
        execFileSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'pipe' });
        this.pinned.set(pid, mask);
      } catch (error) {
        // A process that ended since the query is no failure; one that may not be moved is.
        if (existsSync(`/proc/${pid}`)) throw error;
      }
    }
  },
  /** CPU time the database's processes (those moved to CPU 0) have used so far, µs; undefined when not moved. */
  cpuMicros() {
    if (this.pinned.size === 0) return undefined;
    let total = 0;
    for (const pid of this.pinned.keys()) total += cpuMicros(pid) ?? 0;
    return total;
  },
  release() {
    clearInterval(this.timer);
    for (const [pid, mask] of this.pinned) {
      try {
        execFileSync('taskset', ['-a', '-p', mask, String(pid)], { stdio: 'ignore' });
      } catch {
        /* ended */
      }
    }
    this.pinned.clear();
  },
};

// Interrupted (Ctrl-C, a CI timeout): the database's cores are given back before leaving.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    databaseCore.release();
    for (const child of children) child.kill('SIGTERM');
    process.exit(130);
  });
}
const children = [];
const profileDir = CPU_PROF ? mkdtempSync(join(tmpdir(), 'cass-prof-')) : undefined;
const gcDir = ALLOC ? mkdtempSync(join(tmpdir(), 'cass-gc-')) : undefined;
let exitCode = 0;
/** With --cpu-prof: the endpoint profiled, and its saturated runs (the samples summarised). */
let profiled;
const profiledRuns = [];
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serviceTrace = traced('service.log');
  const [command, commandArgs] = onServerCore([
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...serviceTrace.flags,
    SERVICE_ENTRY,
  ]);
  const service = spawn(command, commandArgs, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(PGLITE ? { DATABASE_URL: '', DATA_DIR: dataDir } : { DATABASE_URL, DATABASE_SCHEMA: schema }),
      REDIS_URL: '',
      LOG_LEVEL: 'info',
      SCHEDULER_ENABLED: 'false',
      RATE_LIMIT_PER_MINUTE: '100000000',
      MARKET_RATE_LIMIT_PER_MINUTE: '100000000',
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', serviceTrace.stdout, 'inherit'],
  });
  children.push(service);
  await waitFor(`${base}/health/ready`);
  await databaseCore.pin();

  const tokenResponse = await fetch(`${base}/v1/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
  }).then((r) => r.json());
  const auth = { authorization: `Bearer ${tokenResponse.result.accessToken}` };
  const get = (path) =>
    fetch(`${base}${path}`, { headers: auth }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));

  // A synced sandbox account with balances to serve from cache.
  const accounts = JSON.parse((await get('/v1/api/accounts?limit=200')).text).result.accounts;
  let accountId;
  let balancesBody;
  for (const account of accounts.filter((a) => a.syncStatus === 'synced')) {
    const balances = await get(`/v1/api/account/${account.accountId}/balances`);
    if (balances.status === 200) {
      accountId = account.accountId;
      balancesBody = balances.text;
      break;
    }
  }
  if (!accountId) throw new Error('no sandbox account with balances');

  const bodyFile = join(mkdtempSync(join(tmpdir(), 'cass-ref-')), 'balances.json');
  writeFileSync(bodyFile, balancesBody);
  const references = {};
  for (const kind of ['http', 'nest']) {
    const refPort = await freePort();
    // Only the bare NestJS app's allocation is compared with the service's.
    const trace = kind === 'nest' ? traced('nest.log') : { flags: [], stdout: 'ignore' };
    references[`${kind}Trace`] = trace;
    const [refCommand, refArgs] = onServerCore([
      ...trace.flags,
      'bench/reference-servers.mjs',
      kind,
      String(refPort),
      bodyFile,
    ]);
    const child = spawn(refCommand, refArgs, {
      stdio: ['ignore', trace.stdout, 'inherit', 'ipc'],
    });
    children.push(child);
    await new Promise((resolve) => child.once('message', resolve));
    references[kind] = `http://127.0.0.1:${refPort}`;
    references[`${kind}Pid`] = child.pid;
  }

  // The floors of the DB-bound rows: the statements the service runs for each (bench/sql-trace.mjs
  // shows them; the volatility history of crypto-data is cached by the service after the first
  // request, the cursor-signing key likewise, the audit entries of transactions go out in batches),
  // with the same parameters, and the body the service answered.
  const tenantId = PGLITE
    ? undefined
    : (await admin.query(`SELECT tenant_id FROM ${schema}.account WHERE id = $1`, [accountId])).rows[0]
        .tenant_id;
  const portfoliosBody = (await get('/api/portfolios')).text;
  // Not in the short form (CI, errors only): a floor is a reference, not the service. Not on PGlite:
  // the floors run their SQL on a PostgreSQL server.
  const floorRoutes =
    SHORT || PGLITE
      ? {}
      : {
          'GET transactions (page of 100)': {
            path: 'floor/transactions',
            body: (await get(`/v1/api/account/${accountId}/transactions?limit=100`)).text,
            queries: [
              {
                sql: 'SELECT * FROM account WHERE tenant_id = $1 AND id = $2',
                params: [tenantId, accountId],
              },
              {
                sql: `SELECT account_id, transaction_id, symbol, direction, amount, price_usd, fee_usd, occurred_at, transfer_id FROM "transaction" WHERE tenant_id = $1 AND account_id = $2
       ORDER BY occurred_at, transaction_id LIMIT $3`,
                params: [tenantId, accountId, 101],
              },
            ],
          },
          'GET /api/crypto-data/bitcoin,ethereum,solana': {
            path: 'floor/crypto-data',
            body: (await get('/api/crypto-data/bitcoin,ethereum,solana')).text,
            queries: [
              {
                sql: `SELECT
  a.id AS "assetId", a.coingecko_id AS "coingeckoId", a.symbol, a.name,
  a.circulating_supply AS "circulatingSupply", a.total_supply AS "totalSupply", a.max_supply AS "maxSupply",
  a.developer_data AS "developerData", a.community_data AS "communityData",
  a.score_inputs_source AS "scoreInputsSource",
  s.price_usd AS "priceUsd", s.market_cap_usd AS "marketCapUsd", s.volume24h_usd AS "volume24hUsd",
  s.market_cap_rank AS "marketCapRank", s.provider_updated_at AS "providerUpdatedAt", s.as_of AS "asOf",
  s.source
         FROM asset a JOIN market_snapshot s ON s.asset_id = a.id
        WHERE a.coingecko_id = ANY($1::text[])`,
                params: [['bitcoin', 'ethereum', 'solana']],
              },
            ],
          },
          'GET /api/portfolios': {
            path: 'floor/portfolios',
            body: portfoliosBody,
            queries: [
              {
                sql: `SELECT p.id, p.name, a.symbol, a.percentage
           FROM portfolio p LEFT JOIN portfolio_allocation a ON a.portfolio_id = p.id
          WHERE p.tenant_id = $1
          ORDER BY p.created_at, p.id, a.percentage DESC, a.symbol`,
                params: [tenantId],
              },
            ],
          },
        };
  const floorDir = mkdtempSync(join(tmpdir(), 'cass-floor-'));
  const floorSpec = {
    databaseUrl: DATABASE_URL,
    schema,
    // The service's server-side timeout; not its client-side query_timeout (bench/README.md,
    // 2026-11-24: with it, the floor's young-generation collections copy every query's rows).
    poolOptions: { statement_timeout: 5000 },
    routes: Object.values(floorRoutes).map((route, i) => {
      const file = join(floorDir, `body-${i}.json`);
      writeFileSync(file, route.body);
      return { path: route.path, queries: route.queries, bodyFile: file };
    }),
  };
  const floorSpecFile = join(floorDir, 'spec.json');
  writeFileSync(floorSpecFile, JSON.stringify(floorSpec));
  if (floorSpec.routes.length > 0) {
    const floorPort = await freePort();
    const [floorCommand, floorArgs] = onServerCore([
      'bench/reference-servers.mjs',
      'nest-sql',
      String(floorPort),
      floorSpecFile,
    ]);
    const child = spawn(floorCommand, floorArgs, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    await new Promise((resolve) => child.once('message', resolve));
    references.floor = `http://127.0.0.1:${floorPort}`;
    references.floorPid = child.pid;
  }

  const endpoints = [
    [
      'POST /v1/api/token',
      {
        url: `${base}/v1/api/token`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
      },
    ],
    ['GET /api/status', { url: `${base}/api/status`, headers: auth }],
    ['GET balances (cached)', { url: `${base}/v1/api/account/${accountId}/balances`, headers: auth }],
    [
      'GET transactions (page of 100)',
      { url: `${base}/v1/api/account/${accountId}/transactions?limit=100`, headers: auth },
    ],
    [
      'GET /api/crypto-data/bitcoin,ethereum,solana',
      { url: `${base}/api/crypto-data/bitcoin,ethereum,solana`, headers: auth },
    ],
    ['GET /api/portfolios', { url: `${base}/api/portfolios`, headers: auth }],
  ];
  const balancesRequest = endpoints.find(([name]) => name.startsWith('GET balances'))[1];
  const references_ = { http: { url: `${references.http}/` }, nest: { url: `${references.nest}/reference` } };

  profiled = CPU_PROF ? endpoints.find(([name]) => name.includes(PROFILE_TARGET)) : undefined;
  if (CPU_PROF && !profiled) throw new Error(`--cpu-prof=${PROFILE_TARGET}: no endpoint's name contains it`);

  // The headline comparison: bare NestJS and cached balances in alternating rounds.
  await warm(references_.nest);
  await warm(balancesRequest);
  const nestRounds = [];
  const balancesRounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    nestRounds.push(await cannonWithCpu(references_.nest, references.nestPid));
    balancesRounds.push(await cannonWithCpu(balancesRequest, service.pid));
  }
  // Their latency at the fixed rate, alternating the same way: on a shared virtual machine one
  // paced run's p99 moves by several milliseconds with the host's stalls.
  await settle(median(balancesRounds.map((r) => r.requests.average)));
  const nestLatency = [];
  const balancesLatency = [];
  for (let round = 0; round < ROUNDS; round++) {
    nestLatency.push(await paced(references_.nest, FIXED_RATE, DURATION));
    balancesLatency.push(await paced(balancesRequest, FIXED_RATE, DURATION));
  }
  await warm(references_.http);
  if (PROFILE_BALANCES) profiledRuns.push(...balancesRounds);
  const results = [await measure('reference: bare node:http', references_.http)];
  results.push(await withLatency('reference: bare NestJS app', references_.nest, nestRounds, nestLatency));
  const floorRows = [];
  // With --cpu-prof only the profiled endpoint runs.
  for (const [name, request] of endpoints) {
    if (name.startsWith('GET balances')) {
      results.push(await withLatency(name, request, balancesRounds, balancesLatency));
      continue;
    }
    if (CPU_PROF && name !== profiled[0]) continue;
    if (ONLY !== undefined && !name.includes(ONLY)) continue;
    await warm(request);
    const floorRoute = floorRoutes[name];
    if (!floorRoute) {
      results.push(await measure(name, request));
      continue;
    }
    // Alternating rounds with its floor, CPU per request of each.
    const floorRequest = { url: `${references.floor}/${floorRoute.path}` };
    await warm(floorRequest);
    const floorRuns = [];
    const serviceRuns = [];
    for (let round = 0; round < ROUNDS; round++) {
      floorRuns.push(await cannonWithCpu(floorRequest, references.floorPid));
      serviceRuns.push(await cannonWithCpu(request, service.pid));
    }
    if (CPU_PROF) profiledRuns.push(...serviceRuns);
    const row = await withLatency(name, request, serviceRuns);
    results.push(row);
    floorRows.push({
      row,
      floor: await withLatency(`floor: ${name}`, floorRequest, floorRuns),
      floorRuns,
      serviceRuns,
    });
  }

  const [http, nest] = results;
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
  console.log(
    `\nLoad benchmark: ${DURATION}s per run, ${CONNECTIONS} connections for req/s, paced ${FIXED_RATE} req/s for latency, ${PGLITE ? 'embedded PGlite' : 'PostgreSQL'}, LOG_LEVEL=info, ${canPin ? `servers on CPU 1, load generator on CPU 0, database ${databaseCore.reason ? `not moved (${databaseCore.reason})` : 'on CPU 0'}` : 'not pinned to cores'}\n`,
  );
  console.log(
    `| endpoint | req/s @${CONNECTIONS} conn | p50 ms @${FIXED_RATE}/s | p99 ms @${FIXED_RATE}/s | vs node:http | vs bare Nest | errors |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const at = r.rate === FIXED_RATE ? '' : ` (@${r.rate}/s)`;
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)}${at} | ${r.p99.toFixed(1)}${at} | ${pct(r.rps, http.rps)} | ${pct(r.rps, nest.rps)} | ${r.errors} |`,
    );
    if (r.errors > 0) exitCode = 1;
  }
  if (floorRows.length > 0) {
    console.log(
      `\nDB-bound rows against their floor (bare NestJS + the same SQL, the same bytes; ${ROUNDS} alternating round${ROUNDS > 1 ? 's' : ''}):\n`,
    );
    console.log(
      '| endpoint | req/s | floor req/s | vs floor | floor vs bare Nest | CPU µs/req | floor CPU µs/req | vs floor by CPU | p99 ms @500/s | floor p99 ms | errors |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const { row, floor, floorRuns, serviceRuns } of floorRows) {
      const byRound = row.rounds.map((rps, i) => pct(rps, floor.rounds[i])).join(', ');
      const own = median(serviceRuns.map((r) => r.cpuPerRequest ?? NaN));
      const theirs = median(floorRuns.map((r) => r.cpuPerRequest ?? NaN));
      const at = (r) => (r.rate === FIXED_RATE ? '' : ` (@${r.rate}/s)`);
      console.log(
        `| ${row.name} | ${row.rps.toFixed(0)} | ${floor.rps.toFixed(0)} | ${pct(row.rps, floor.rps)} (rounds ${byRound}) | ${pct(floor.rps, nest.rps)} | ${own.toFixed(1)} | ${theirs.toFixed(1)} | ${pct(theirs, own)} | ${row.p99.toFixed(1)}${at(row)} | ${floor.p99.toFixed(1)}${at(floor)} | ${floor.errors} |`,
      );
      if (floor.errors > 0) exitCode = 1;
    }
  }
  const balances = results.find((r) => r.name.startsWith('GET balances'));
  const roundRatios = balances.rounds.map((rps, i) => pct(rps, nest.rounds[i]));
  console.log(
    `\nbalances (cached): ${pct(balances.rps, nest.rps)} of the bare NestJS app (target ≥ 70%; rounds ${roundRatios.join(', ')}), p99 ${balances.p99.toFixed(1)} ms at ${FIXED_RATE}/s (target ≤ ${PGLITE ? 15 : 10} ms; rounds ${balances.p99Rounds.map((v) => v.toFixed(1)).join(', ')}; bare NestJS ${nest.p99Rounds.map((v) => v.toFixed(1)).join(', ')})`,
  );
  const cpu = (runs) => median(runs.map((r) => r.cpuPerRequest ?? NaN));
  if (!Number.isNaN(cpu(balancesRounds)) && !Number.isNaN(cpu(nestRounds))) {
    console.log(
      `CPU per request: balances ${cpu(balancesRounds).toFixed(1)} µs, bare NestJS ${cpu(nestRounds).toFixed(1)} µs (the same ratio by CPU cost: ${pct(cpu(nestRounds), cpu(balancesRounds))})`,
    );
    const withTail = (runs) => median(runs.map((r) => r.cpuPerRequestWithTail ?? NaN));
    const tail = (runs) => median(runs.map((r) => r.tailMs));
    console.log(
      `CPU per request with the work left after the round (until the server was quiet: balances ${tail(balancesRounds).toFixed(0)} ms, bare NestJS ${tail(nestRounds).toFixed(0)} ms): balances ${withTail(balancesRounds).toFixed(1)} µs, bare NestJS ${withTail(nestRounds).toFixed(1)} µs (${pct(withTail(nestRounds), withTail(balancesRounds))})`,
    );
    // How much of its core each server kept busy (CPU time per request × requests per second): a
    // side below ~95 % waited for something (the generator, the host), and its req/s says less.
    const busy = (runs) => median(runs.map((r) => (r.cpuPerRequest * r.requests.average) / 1e4));
    console.log(
      `Core busy with the server (median of the rounds): balances ${busy(balancesRounds).toFixed(0)}%, bare NestJS ${busy(nestRounds).toFixed(0)}%`,
    );
    // The other side of the same rounds: CPU 0 runs the load generator and (PostgreSQL) the
    // database, which inserts the balances reads' audit rows. A CPU 0 near 100 % while the server's
    // core is not means the generator could not send faster: the rounds measure CPU 0, not the server.
    const core0 = (runs) => median(runs.map((r) => (r.core0Busy ?? NaN) * 100));
    const generator = (runs) => median(runs.map((r) => r.generatorCpuPerRequest));
    const database = (runs) => median(runs.map((r) => r.databaseCpuPerRequest ?? NaN));
    if (canPin && !Number.isNaN(core0(balancesRounds))) {
      console.log(
        `CPU 0 busy (load generator${PGLITE ? '' : ' + database'}): balances ${core0(balancesRounds).toFixed(0)}%, bare NestJS ${core0(nestRounds).toFixed(0)}%; generator CPU per request ${generator(balancesRounds).toFixed(1)} / ${generator(nestRounds).toFixed(1)} µs`,
      );
      // The database's share of a cached read: its audit row (a process that ended mid-round is not counted).
      if (!Number.isNaN(database(balancesRounds))) {
        console.log(
          `Database CPU per cached balances read (its audit row): ${database(balancesRounds).toFixed(1)} µs`,
        );
      }
    }
  }
  if (ALLOC) {
    const kb = async (server, runs) => ((await allocatedPerRequest(server, runs)) / 1024).toFixed(1);
    console.log(
      `Allocated per request (V8 --trace-gc-nvp, median of the saturated rounds): balances ${await kb(serviceTrace, balancesRounds)} KB, bare NestJS ${await kb(references.nestTrace, nestRounds)} KB`,
    );
  }
  console.log(`${results.length} passed, ${exitCode} failed`);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  databaseCore.release();
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  );
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  await admin?.end();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (profileDir) {
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const { summarizeProfile } = await import('./cpu-profile-summary.mjs');
      console.log(`\nProfile of: ${profiled?.[0]} (its saturated rounds only)`);
      console.log(
        summarizeProfile(
          JSON.parse(readFileSync(join(profileDir, file), 'utf8')),
          profiledRuns.map((r) => r.monotonic),
        ),
      );
    }
    // CPU_PROF_KEEP=1 keeps the .cpuprofile (for DevTools or a closer look) and says where.
    if (process.env.CPU_PROF_KEEP === '1')
      console.log(
        `\nProfile kept: ${join(profileDir, file ?? '')} (windows, monotonic µs: ${JSON.stringify(profiledRuns.map((r) => r.monotonic))})`,
      );
    else rmSync(profileDir, { recursive: true, force: true });
  }
  if (gcDir) rmSync(gcDir, { recursive: true, force: true });
}
process.exit(exitCode);
