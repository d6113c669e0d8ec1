#!/usr/bin/env node
/**
 * The audit trail's cost per audited read (docs/audit.md): AuditService.recordRead of N reads
 * shaped like the cached balances fast path's, appended as the service does (a flush at every
 * 500 queued reads), measured as CPU of this process (process.cpuUsage: user + system, every
 * thread) per entry. On PGlite the database runs in this process, so its work is included; on
 * Postgres only the client side (recording, hashing, the statement's parameters) is.
 *  - "record": the synchronous recordRead calls alone (wall time, one core);
 *  - "total": recordRead + the appends (CPU), the figure the service pays per read.
 * One warm-up round, then --rounds measured rounds; prints each and the median. The chain is
 * verified at the end (every entry appended, every hash right).
 *
 *   npx tsc -b tsconfig.build.json && node bench/audit-append.mjs [--reads 50000] [--rounds 3] [--dist dist]
 *   Embedded PGlite in memory by default; with DATABASE_URL, a Postgres schema bench_audit_append.
 *   --dist: another build of the service (e.g. a copy of dist/ from before a change) to compare.
 *   --profile <file.cpuprofile>: a V8 CPU profile of the measured rounds only.
 */
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    reads: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '3' },
    dist: { type: 'string', default: 'dist' },
    profile: { type: 'string' },
  },
});
const READS = Number(args.reads);
const BATCH = 500;
const DATABASE_URL = process.env.DATABASE_URL;
const SCHEMA = 'bench_audit_append';
const dist = pathToFileURL(resolve(args.dist)).href;

const { createApp } = await import(`${dist}/src/app.factory.js`);
const { loadConfig } = await import(`${dist}/src/config/app-config.js`);
const { AuditService } = await import(`${dist}/src/modules/audit/index.js`);
const { sandboxId, sandboxTenantId } = await import(`${dist}/src/modules/sandbox/sandbox-ids.js`);

async function schema(action) {
  if (!DATABASE_URL) return;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(
    action === 'create'
      ? `DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`
      : `DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`,
  );
  await client.end();
}

await schema('create');
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  SCHEDULER_ENABLED: 'false',
  DATA_DIR: 'memory',
  ...(DATABASE_URL ? { DATABASE_URL, DATABASE_SCHEMA: SCHEMA } : {}),
});
const app = await createApp(config, { logs: false });
await app.init();
const audit = app.get(AuditService);
const tenantId = sandboxTenantId('sandbox');
const accountId = sandboxId('account:sandbox:kraken-trading').toLowerCase();
const route = '/v1/api/account/:accountId/balances';

/** The reads of one round, built beforehand (the caller's cost, not the audit's). */
function reads(round) {
  return Array.from({ length: READS }, (_, i) => ({
    tenantId,
    actorKind: 'client',
    actorId: 'sandbox-client',
    action: 'account.read.balances',
    accountId,
    requestId: `${round}-${i}`,
    status: 200,
    details: { method: 'GET', route, fastPath: true },
  }));
}

async function round(index) {
  const list = reads(index);
  let recordMs = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let start = 0; start < READS; start += BATCH) {
    const end = Math.min(READS, start + BATCH);
    const t0 = performance.now();
    for (let i = start; i < end; i++) audit.recordRead(list[i]);
    recordMs += performance.now() - t0;
    await audit.flush();
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    recordUs: (recordMs * 1000) / READS,
    totalUs: (used.user + used.system) / READS,
    systemUs: used.system / READS,
    wallUs: (wallMs * 1000) / READS,
  };
}

// Start-up work (sandbox seeding, the first market refresh) done before measuring.
for (let quiet = 0; quiet < 20; quiet++) {
  const cpu = process.cpuUsage();
  await new Promise((done) => setTimeout(done, 250));
  const used = process.cpuUsage(cpu);
  if (used.user + used.system < 25_000) break;
}
let session;
if (args.profile) {
  const { Session } = await import('node:inspector/promises');
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
await round(0); // warm-up: JIT, the database's caches
const rows = [];
if (session) await session.post('Profiler.start');
for (let r = 1; r <= Number(args.rounds); r++) {
  const row = await round(r);
  rows.push(row);
  console.log(
    `round ${r}: record ${row.recordUs.toFixed(2)} µs, total CPU ${row.totalUs.toFixed(2)} µs (system ${row.systemUs.toFixed(2)}), wall ${row.wallUs.toFixed(2)} µs per read`,
  );
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync(args.profile, JSON.stringify(profile));
}
console.log(
  `${args.dist} ${DATABASE_URL ? 'PostgreSQL' : 'PGlite'} ${READS} reads, median of ${rows.length}: ` +
    `record ${median(rows.map((r) => r.recordUs)).toFixed(2)} µs | total CPU ${median(rows.map((r) => r.totalUs)).toFixed(2)} µs | ` +
    `wall ${median(rows.map((r) => r.wallUs)).toFixed(2)} µs per read`,
);
const verified = await audit.verify();
const expected = READS * (Number(args.rounds) + 1);
if (!verified.valid || verified.entries < expected) {
  console.error(`verify failed: ${JSON.stringify(verified)} (expected at least ${expected} entries)`);
  process.exitCode = 1;
} else {
  console.log(`verify: ${JSON.stringify(verified)}`);
}
await app.close();
await schema('drop');
