#!/usr/bin/env node
/**
 * Choosing the job queue (issue 18 item 3, docs/jobs.md): N no-op jobs enqueued and processed with
 * concurrency 4, on the Postgres server (own schemas), for pg-boss and graphile-worker; pg-boss
 * also on embedded PGlite in memory (graphile-worker cannot run there: it needs a real pg Pool and
 * LISTEN on a server connection). Prints jobs/s (first enqueue to last completion) and the
 * enqueue→done latency p50/p99.
 *
 *   npm install --prefix /tmp/qbench graphile-worker pg-boss   # outside the project
 *   node bench/queue.mjs [--jobs 5000] [--concurrency 4] [--lib /tmp/qbench/node_modules]
 *   DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    jobs: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '4' },
    'polled-jobs': { type: 'string', default: '200' },
    lib: { type: 'string', default: '/tmp/qbench/node_modules' },
  },
});
const N = Number(args.jobs);
const POLLED_N = Number(args['polled-jobs']);
// pg-boss's timers are unref'd: keep the process alive while a run waits for its jobs.
const keepAlive = setInterval(() => {}, 1000);
const CONCURRENCY = Number(args.concurrency);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const lib = (name) => {
  const path = resolve(args.lib, name);
  return existsSync(path) ? path : null;
};

async function resetSchema(schema) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

function report(name, started, latencies) {
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  console.log(
    `${name.padEnd(28)} ${String(latencies.length).padStart(6)} jobs  ${(latencies.length / elapsed).toFixed(0).padStart(6)} jobs/s  p50 ${pct(50).toFixed(0)} ms  p99 ${pct(99).toFixed(0)} ms`,
  );
}

/** Resolves when `count` latencies were recorded. */
function collector(count) {
  const latencies = [];
  let done;
  const finished = new Promise((r) => (done = r));
  return {
    latencies,
    finished,
    record(t) {
      latencies.push(Date.now() - t);
      if (latencies.length === count) done();
    },
  };
}

/**
 * `polled`: what the service runs (docs/jobs.md): one job per fetch, each of the `CONCURRENCY`
 * workers fetching every 0.5 s (pg-boss's minimum); otherwise batches of 25 fetched back to back
 * while they come back full (burstWhenBatchFull).
 */
async function benchPgBoss(label, PgBoss, options, polled) {
  const N = polled ? POLLED_N : Number(args.jobs);
  const boss = new PgBoss(options);
  boss.on('error', (e) => console.error(label, e.message));
  await boss.start();
  await boss.createQueue('bench');
  const c = collector(N);
  await boss.work(
    'bench',
    polled
      ? { localConcurrency: CONCURRENCY, batchSize: 1, pollingIntervalSeconds: 0.5 }
      : {
          localConcurrency: CONCURRENCY,
          batchSize: 25,
          burstWhenBatchFull: true,
          pollingIntervalSeconds: 0.5,
        },
    async (jobs) => {
      for (const job of jobs) c.record(job.data.t);
    },
  );
  const started = performance.now();
  for (let i = 0; i < N; i += 100) {
    const t = Date.now();
    await boss.insert(
      'bench',
      Array.from({ length: Math.min(100, N - i) }, () => ({ data: { t } })),
    );
  }
  await c.finished;
  report(label, started, c.latencies);
  await boss.stop({ graceful: false, timeout: 1000 });
}

async function benchGraphile(gw) {
  const schema = 'bench_graphile_worker';
  await resetSchema(schema);
  const c = collector(N);
  const runner = await gw.run({
    connectionString: DATABASE_URL,
    schema,
    concurrency: CONCURRENCY,
    noHandleSignals: true,
    pollInterval: 500,
    logger: new gw.Logger(() => () => {}),
    taskList: { bench: async (payload) => c.record(payload.t) },
  });
  const utils = await gw.makeWorkerUtils({ connectionString: DATABASE_URL, schema });
  const started = performance.now();
  for (let i = 0; i < N; i += 100) {
    const t = Date.now();
    await utils.addJobs(
      Array.from({ length: Math.min(100, N - i) }, () => ({ identifier: 'bench', payload: { t } })),
    );
  }
  await c.finished;
  report('graphile-worker, Postgres', started, c.latencies);
  await utils.release();
  await runner.stop();
}

console.log(
  `no-op jobs (${N}; ${POLLED_N} for the polled runs), concurrency ${CONCURRENCY}, enqueued in batches of 100 while the workers run`,
);
const bossPath = lib('pg-boss') ?? resolve('node_modules/pg-boss');
const { PgBoss, fromPglite } = await import(resolve(bossPath, 'dist/index.js'));
for (const polled of [true, false]) {
  const how = polled ? 'polled' : 'burst';
  await resetSchema('bench_pgboss');
  await benchPgBoss(
    `pg-boss ${how}, Postgres`,
    PgBoss,
    { connectionString: DATABASE_URL, schema: 'bench_pgboss', max: 5 },
    polled,
  );
  await resetSchema('bench_pgboss');
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite();
  const booted = performance.now();
  await benchPgBoss(
    `pg-boss ${how}, PGlite`,
    PgBoss,
    { db: fromPglite(db), schema: 'bench_pgboss', backend: 'pglite' },
    polled,
  );
  if (!polled)
    console.log(
      `  (PGlite: schema install + run took ${((performance.now() - booted) / 1000).toFixed(1)} s)`,
    );
  await db.close();
}
const gwPath = lib('graphile-worker');
if (gwPath) await benchGraphile(await import(resolve(gwPath, 'dist/index.js')));
else console.log('graphile-worker: not installed under --lib; skipped');
clearInterval(keepAlive);
