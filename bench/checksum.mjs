#!/usr/bin/env node
/**
 * Checksum benchmark: 1,000,000 transactions in a Postgres schema of its own, then the integrity
 * checksum timed through the service and through GET /v1/api/checksum, with peak RSS.
 *
 *   npm run build && node --expose-gc bench/checksum.mjs [--rows 1000000] [--accounts 200] [--keep]
 *   (add --max-old-space-size=96 to show a small heap suffices: nothing grows with the row count)
 *   DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/test; the schema is
 *   bench_checksum (dropped and recreated; dropped at the end unless --keep).
 *
 * Rows are generated server-side with multi-row INSERT ... SELECT FROM generate_series, in
 * batches, so the load phase does not inflate this process's memory. RSS is sampled every 10 ms
 * during each checksum; the script prints JSON with times and peak RSS (absolute and above the
 * idle baseline), plus a 10 % subset, to show memory does not grow with the row count.
 *
 * The floor (issue 16): `psql -c "COPY (SELECT <the same lines> ORDER BY …) TO STDOUT" | sha256sum`,
 * the database writing the very lines the checksum hashes and a shell hashing them. Each service
 * run is preceded by a floor run and divided by it (the host's speed drifts between runs); the
 * median of those ratios is printed against the target (<= 2x), and the floor's hash must equal
 * the service's checksum.
 */
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import request from 'supertest';
import { promisify } from 'node:util';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    accounts: { type: 'string', default: '200' },
    keep: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
  },
});
const ROWS = Number(args.rows);
const ACCOUNTS = Number(args.accounts);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_checksum';
const BATCH = 100_000;

const { createApp } = await import('../dist/src/app.factory.js');
const { loadConfig } = await import('../dist/src/config/app-config.js');
const { ChecksumService } = await import('../dist/src/modules/integrity/checksum.service.js');
const { ClientsService } = await import('../dist/src/modules/tenancy/clients.service.js');

const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function withClient(action) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

/** Peak RSS while `action` runs, sampled every 10 ms; with --expose-gc also the heap it retains. */
async function measured(action) {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  try {
    const result = await action();
    const ms = Math.round(performance.now() - started);
    peak = Math.max(peak, process.memoryUsage().rss);
    global.gc?.();
    const retainedHeapMb = global.gc ? mb(process.memoryUsage().heapUsed - heapBefore) : null;
    return {
      result,
      ms,
      baselineRssMb: mb(baseline),
      peakRssMb: mb(peak),
      peakAboveBaselineMb: mb(peak - baseline),
      retainedHeapMb,
    };
  } finally {
    clearInterval(timer);
  }
}

await withClient(async (client) => {
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await client.query(`CREATE SCHEMA ${SCHEMA}`);
});

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL,
  DATABASE_SCHEMA: SCHEMA,
  SANDBOX: 'false',
  SCHEDULER_ENABLED: 'false',
  DATABASE_TIMEOUT_MS: '30000',
  RATE_LIMIT_PER_MINUTE: '1000000',
});
const app = await createApp(config, { logs: false });
await app.init(); // runs the migrations

const tenantId = '6f1d1a3e-0000-4000-8000-00000000be0c';
const load = await withClient(async (client) => {
  await client.query(`SET search_path = ${SCHEMA}`);
  await client.query(`INSERT INTO tenant (id, slug, name) VALUES ($1, 'bench', 'Checksum bench')`, [
    tenantId,
  ]);
  await client.query(
    `INSERT INTO account (id, tenant_id, collection_id, identity, platform, source, sync_status, connection_status,
       balance_source, created_on, last_synced_at)
     SELECT md5('account' || n)::uuid, $1, md5('collection' || n)::uuid, 'bench-' || n,
       CASE WHEN n % 10 = 0 THEN 'kraken' ELSE 'coinbase' END, 'csv', 'synced', 'connected', 'calculated', now(), now()
     FROM generate_series(1, $2) AS n`,
    [tenantId, ACCOUNTS],
  );
  const started = performance.now();
  for (let first = 1; first <= ROWS; first += BATCH) {
    const last = Math.min(first + BATCH - 1, ROWS);
    await client.query(
      `INSERT INTO "transaction" (tenant_id, account_id, transaction_id, symbol, direction, amount, price_usd, fee_usd, occurred_at)
       SELECT $1, md5('account' || (n % $4 + 1))::uuid, 'tx-' || lpad(n::text, 9, '0') || '-' || substr(md5(n::text), 1, 6),
         CASE WHEN n % 3 = 0 THEN 'ETH' ELSE 'BTC' END,
         CASE WHEN n % 7 = 0 THEN 'sell' ELSE 'buy' END,
         round((n % 100000)::numeric / 1000000 + 0.0001, 8),
         round(20000 + (n % 50000)::numeric + (n % 100)::numeric / 100, 2),
         CASE WHEN n % 5 = 0 THEN 1.25 END,
         timestamptz '2020-01-01 00:00:00+00' + (n * interval '97 seconds')
       FROM generate_series($2::int, $3::int) AS n`,
      [tenantId, first, last, ACCOUNTS],
    );
  }
  await client.query(`ANALYZE "transaction"`);
  const [{ count }] = (await client.query(`SELECT count(*)::int AS count FROM "transaction"`)).rows;
  return { rows: count, ms: Math.round(performance.now() - started) };
});

const checksums = app.get(ChecksumService);
const subset = await measured(() => checksums.compute(tenantId, { platform: 'kraken' }));

// The floor: the same lines, in the same order, written by Postgres and hashed by sha256sum.
const FLOOR_SQL = `COPY (SELECT t.account_id::text || '|' || t.transaction_id || '|' || t.symbol || '|' || t.direction || '|' ||
  trim_scale(t.amount)::text || '|' || coalesce(trim_scale(t.price_usd)::text, '') || '|' ||
  to_char(t.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  FROM ${SCHEMA}."transaction" t WHERE t.tenant_id = '${tenantId}'
  ORDER BY t.account_id, t.transaction_id COLLATE "C") TO STDOUT`;
const shellQuote = (text) => `'${text.replaceAll("'", "'\\''")}'`;
async function floorRun() {
  const started = performance.now();
  const { stdout } = await promisify(execFile)(
    'sh',
    ['-c', `psql -X -q ${shellQuote(DATABASE_URL)} -c ${shellQuote(FLOOR_SQL)} | sha256sum`],
    { encoding: 'utf8' },
  );
  return { ms: Math.round(performance.now() - started), checksum: stdout.split(' ')[0] };
}
const RUNS = Number(args.runs);
const pairs = [];
let service;
let secondRun;
for (let i = 0; i < RUNS; i++) {
  const floor = await floorRun();
  const run = await measured(() => checksums.compute(tenantId, {}));
  pairs.push({
    floorMs: floor.ms,
    serviceMs: run.ms,
    ratio: run.ms / floor.ms,
    floorChecksum: floor.checksum,
  });
  if (i === 0) service = run;
  else if (i === 1) secondRun = run;
}
secondRun ??= service;
const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

const issued = await app.get(ClientsService).createClient('bench', ['partner'], 'bench-client');
const http = request(app.getHttpServer());
const token = (
  await http.post('/v1/api/token').send({ clientId: issued.clientId, clientSecret: issued.clientSecret })
).body.result.accessToken;
const endpoint = await measured(async () => {
  const res = await http.get('/v1/api/checksum').set('Authorization', `Bearer ${token}`);
  if (res.status !== 200) throw new Error(`checksum endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result;
});

await app.close();
if (!args.keep) await withClient((client) => client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`));

const summary = (run) => ({
  ms: run.ms,
  rowCount: run.result.rowCount,
  baselineRssMb: run.baselineRssMb,
  peakRssMb: run.peakRssMb,
  peakAboveBaselineMb: run.peakAboveBaselineMb,
  retainedHeapMb: run.retainedHeapMb,
});
console.log(
  JSON.stringify(
    {
      database: DATABASE_URL.replace(/\/\/[^@]*@/, '//'),
      load: { rows: load.rows, accounts: ACCOUNTS, ms: load.ms },
      serviceSubset10pct: summary(subset),
      service: { ...summary(service), checksum: service.result.checksum },
      serviceSecondRun: summary(secondRun),
      endpoint: { ...summary(endpoint), checksum: endpoint.result.checksum },
      floor: {
        command: 'psql -c "COPY (SELECT <the same lines> ORDER BY …) TO STDOUT" | sha256sum',
        runs: pairs.map(({ floorMs, serviceMs, ratio }) => ({
          floorMs,
          serviceMs,
          ratio: Number(ratio.toFixed(2)),
        })),
        medianFloorMs: medianOf(pairs.map((p) => p.floorMs)),
        medianServiceMs: medianOf(pairs.map((p) => p.serviceMs)),
        ratio: `${medianOf(pairs.map((p) => p.ratio)).toFixed(2)}x (target <= 2x)`,
        sameChecksumAsService: pairs.every((p) => p.floorChecksum === service.result.checksum),
      },
      memory: {
        peakAboveBaselineMb100k: subset.peakAboveBaselineMb,
        peakAboveBaselineMb1M: service.peakAboveBaselineMb,
        note: 'flat in the row count when the 1M figure is no larger than the 100k one',
      },
      sameChecksum:
        service.result.checksum === secondRun.result.checksum &&
        service.result.checksum === endpoint.result.checksum,
      processMaxRssMb: mb(process.resourceUsage().maxRSS * 1024),
    },
    null,
    2,
  ),
);
process.exit(0);
