#!/usr/bin/env node
/**
 * Cached balances of two builds, side by side: each build's service runs on PostgreSQL (a schema of
 * its own) on CPU 1, the load generator on CPU 0, and the two are measured in alternating saturated
 * rounds (autocannon, 50 connections), compared by the medians of req/s and of CPU per request
 * (the service process's user + system time over the round / requests answered). For deciding
 * whether a change to the fast path pays: a shared machine's slow spells land on both sides.
 *
 *   node bench/ab-balances.mjs .ab/before/src/main.js dist/src/main.js [--rounds 5] [--seconds 5]
 * (a build's copy must sit inside the repository so its imports resolve to node_modules).
 */
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' } },
});
if (positionals.length !== 2) {
  console.error(
    'usage: ab-balances.mjs <main.js of build A> <main.js of build B> [--rounds N] [--seconds S]',
  );
  process.exit(2);
}
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
try {
  execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
} catch {
  /* no taskset: unpinned */
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const cpuMicros = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
};
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
const services = [];
try {
  for (const [i, entry] of positionals.entries()) {
    const schema = `bench_ab_${i}_${Date.now().toString(36)}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    const port = await freePort();
    const child = spawn('taskset', ['-c', '1', process.execPath, entry], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL,
        DATABASE_SCHEMA: schema,
        REDIS_URL: '',
        LOG_LEVEL: 'info',
        SCHEDULER_ENABLED: 'false',
        RATE_LIMIT_PER_MINUTE: '100000000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    services.push({ entry, schema, port, child, rps: [], cpu: [] });
  }
  for (const service of services) {
    const base = `http://127.0.0.1:${service.port}`;
    for (let deadline = Date.now() + 120_000; ;) {
      const up = await fetch(`${base}/health/ready`).then(
        (r) => r.status < 500,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`${service.entry} not ready`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const token = await fetch(`${base}/v1/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
    }).then((r) => r.json());
    const headers = { authorization: `Bearer ${token.result.accessToken}` };
    const accounts = await fetch(`${base}/v1/api/accounts?limit=200`, { headers }).then((r) => r.json());
    for (const account of accounts.result.accounts.filter((a) => a.syncStatus === 'synced')) {
      const url = `${base}/v1/api/account/${account.accountId}/balances`;
      if ((await fetch(url, { headers })).status === 200) {
        service.request = { url, headers };
        break;
      }
    }
    if (!service.request) throw new Error(`${service.entry}: no sandbox account with balances`);
    await new Promise((resolve) => autocannon({ ...service.request, connections: 50, duration: 3 }, resolve));
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const service of services) {
      const before = cpuMicros(service.child.pid);
      const result = await new Promise((resolve, reject) =>
        autocannon({ ...service.request, connections: 50, duration: SECONDS }, (e, r) =>
          e ? reject(e) : resolve(r),
        ),
      );
      const spent = cpuMicros(service.child.pid) - before;
      if (result.non2xx || result.errors)
        throw new Error(`${service.entry}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      service.rps.push(result.requests.average);
      service.cpu.push(spent / result.requests.total);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  for (const { entry, rps, cpu } of services) {
    console.log(
      `${entry}: ${Math.round(median(rps))} req/s, ${median(cpu).toFixed(1)} µs CPU/req (rounds: ${cpu.map((c) => c.toFixed(1)).join(', ')})`,
    );
  }
  const [a, b] = services;
  console.log(
    `B/A by req/s ${((100 * median(b.rps)) / median(a.rps)).toFixed(1)}%, CPU per request B/A ${((100 * median(b.cpu)) / median(a.cpu)).toFixed(1)}%`,
  );
} finally {
  for (const service of services) service.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  for (const service of services) await admin.query(`DROP SCHEMA IF EXISTS ${service.schema} CASCADE`);
  await admin.end();
}
