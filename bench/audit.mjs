#!/usr/bin/env node
/**
 * Audit trail cost (docs/audit.md): the cached balances fast path with and without the audit of
 * its reads, and the cost of appending to the hash chain.
 *  - GET /v1/api/account/{id}/balances under autocannon, alternating rounds with the audit on and
 *    with AuditService.recordRead replaced by a no-op: req/s, p50/p99;
 *  - after each audited round: the reads answered 200 equal the entries appended (none lost);
 *  - AuditService.append of 1, 100 and 500 entries: ms per call and µs per entry.
 *
 *   npx tsc -b tsconfig.build.json && node bench/audit.mjs [--duration 5] [--connections 10] [--rounds 2]
 *   Embedded PGlite in memory by default; with DATABASE_URL, a Postgres schema bench_audit.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
  },
});
const DATABASE_URL = process.env.DATABASE_URL;
const SCHEMA = 'bench_audit';

const { createApp } = await import('../dist/src/app.factory.js');
const { loadConfig } = await import('../dist/src/config/app-config.js');
const { AuditService } = await import('../dist/src/modules/audit/index.js');
const { sandboxId, sandboxTenantId } = await import('../dist/src/modules/sandbox/sandbox-ids.js');

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
  RATE_LIMIT_PER_MINUTE: '100000000',
  ...(DATABASE_URL ? { DATABASE_URL, DATABASE_SCHEMA: SCHEMA } : {}),
});
const app = await createApp(config, { logs: false });
await app.listen(0, '127.0.0.1');
const url = await app.getUrl();
const audit = app.get(AuditService);
const recordRead = audit.recordRead.bind(audit);

const token = (
  await (
    await fetch(`${url}/v1/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
    })
  ).json()
).result.accessToken;
const account = sandboxId('account:sandbox:kraken-trading');
const path = `/v1/api/account/${account}/balances`;
for (let i = 0; i < 3; i++) await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });

const countReads = async () => {
  await audit.flush();
  let total = 0;
  for await (const page of audit.pages({
    tenantId: sandboxTenantId('sandbox'),
    action: 'account.read.balances',
  })) {
    total += page.length;
  }
  return total;
};

async function round(audited) {
  audit.recordRead = audited ? recordRead : () => {};
  const before = audited ? await countReads() : 0;
  const result = await autocannon({
    url: `${url}${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: Number(args.connections),
    duration: Number(args.duration),
  });
  const ok = result['2xx'];
  const appended = audited ? (await countReads()) - before : null;
  return {
    audited,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    appended,
    non2xx: result.non2xx,
  };
}

const rows = [];
for (let r = 0; r < Number(args.rounds); r++) {
  rows.push(await round(false));
  rows.push(await round(true));
}
audit.recordRead = recordRead;
console.log(
  `\ncached balances fast path (${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}), ${args.connections} connections, ${args.duration} s rounds`,
);
console.log(
  'audit | req/s | p50 ms | p99 ms | 200s | entries appended | appended − 200s (in flight at stop)',
);
for (const row of rows) {
  console.log(
    `${row.audited ? 'on ' : 'off'} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.ok} | ${row.appended ?? '-'} | ${row.appended === null ? '-' : row.appended - row.ok}`,
  );
}

console.log('\nAuditService.append (one transaction, chain head locked)');
console.log('entries | ms per call (median of 9) | µs per entry');
for (const size of [1, 100, 500]) {
  const times = [];
  for (let i = 0; i < 9; i++) {
    const drafts = Array.from({ length: size }, (_, j) => ({
      tenantId: sandboxTenantId('sandbox'),
      actor: { kind: 'system', id: 'bench' },
      action: 'bench.append',
      target: { kind: 'account', id: account },
      requestId: `bench-${i}-${j}`,
      status: 200,
      details: { j },
    }));
    const started = performance.now();
    await audit.append(drafts);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[4];
  console.log(`${size} | ${median.toFixed(2)} | ${((median * 1000) / size).toFixed(1)}`);
}
const verified = await audit.verify();
console.log(`\nverify: ${JSON.stringify(verified)}`);
await app.close();
await schema('drop');
