#!/usr/bin/env node
/**
 * Load benchmark (issue 6). Starts, in one run, on this machine only (127.0.0.1):
 *   - the service (dist/) on PostgreSQL, in a schema of its own,
 *   - a bare node:http server and a bare NestJS app answering the same bytes as a cached
 *     balances response (bench/reference-servers.mjs), each in its own process.
 * For each endpoint: requests/s at 50 connections, then p50/p99 at a fixed 500 requests/s, and the
 * ratios to both references.
 *
 *   npm run build && node bench/load.mjs                 full run (figures for bench/README.md)
 *   node bench/load.mjs --short                          CI: a few seconds each, fails on any error
 *   node bench/load.mjs --cpu-prof                       also writes a CPU profile of the service
 *                                                        during the balances run and summarises it
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/test.
 */
import autocannon from 'autocannon';
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const args = new Set(process.argv.slice(2));
const SHORT = args.has('--short');
const CPU_PROF = args.has('--cpu-prof');
const DURATION = SHORT ? 2 : 10;
const CONNECTIONS = 50;
const FIXED_RATE = 500;
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function waitFor(url, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Requests/s at 50 connections, then latency at a fixed 500 requests/s. */
async function measure(name, request) {
  const saturated = await cannon({ ...request });
  const fixed = await cannon({ ...request, connections: 20, overallRate: FIXED_RATE });
  const errors = saturated.errors + saturated.timeouts + saturated.non2xx + fixed.errors + fixed.timeouts + fixed.non2xx;
  return {
    name,
    rps: saturated.requests.average,
    p50: fixed.latency.p50,
    p99: fixed.latency.p99,
    errors,
    statusCodes: { ...saturated.statusCodeStats },
  };
}

const schema = `bench_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);

const children = [];
const profileDir = CPU_PROF ? mkdtempSync(join(tmpdir(), 'cass-prof-')) : undefined;
let exitCode = 0;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = spawn(process.execPath, [...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), 'dist/src/main.js'], {
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
      MARKET_RATE_LIMIT_PER_MINUTE: '100000000',
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(service);
  await waitFor(`${base}/health/ready`);

  const tokenResponse = await fetch(`${base}/v1/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
  }).then((r) => r.json());
  const auth = { authorization: `Bearer ${tokenResponse.result.accessToken}` };
  const get = (path) => fetch(`${base}${path}`, { headers: auth }).then(async (r) => ({ status: r.status, text: await r.text() }));

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
    const child = fork('bench/reference-servers.mjs', [kind, String(refPort), bodyFile], { stdio: 'ignore' });
    children.push(child);
    await new Promise((resolve) => child.once('message', resolve));
    references[kind] = `http://127.0.0.1:${refPort}`;
  }

  const results = [];
  results.push(await measure('reference: bare node:http', { url: `${references.http}/` }));
  results.push(await measure('reference: bare NestJS app', { url: `${references.nest}/reference` }));
  const endpoints = [
    ['POST /v1/api/token', { url: `${base}/v1/api/token`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }) }],
    ['GET /api/status', { url: `${base}/api/status`, headers: auth }],
    ['GET balances (cached)', { url: `${base}/v1/api/account/${accountId}/balances`, headers: auth }],
    ['GET transactions (page of 100)', { url: `${base}/v1/api/account/${accountId}/transactions?limit=100`, headers: auth }],
    ['GET /api/crypto-data/bitcoin,ethereum,solana', { url: `${base}/api/crypto-data/bitcoin,ethereum,solana`, headers: auth }],
    ['GET /api/portfolios', { url: `${base}/api/portfolios`, headers: auth }],
  ];
  // With --cpu-prof only the cached balances run is measured, so the profile is about that path.
  for (const [name, request] of endpoints) {
    if (CPU_PROF && !name.startsWith('GET balances')) continue;
    results.push(await measure(name, request));
  }

  const [http, nest] = results;
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
  console.log(`\nLoad benchmark: ${DURATION}s per run, ${CONNECTIONS} connections for req/s, fixed ${FIXED_RATE} req/s for latency, PostgreSQL, LOG_LEVEL=info\n`);
  console.log('| endpoint | req/s @50 conn | p50 ms @500/s | p99 ms @500/s | vs node:http | vs bare Nest | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${pct(r.rps, http.rps)} | ${pct(r.rps, nest.rps)} | ${r.errors} |`);
    if (r.errors > 0) exitCode = 1;
  }
  const balances = results.find((r) => r.name.startsWith('GET balances'));
  console.log(`\nbalances (cached): ${pct(balances.rps, nest.rps)} of the bare NestJS app (target ≥ 70%), p99 ${balances.p99} ms at ${FIXED_RATE}/s (target < 10 ms)`);
  console.log(`${results.length} passed, ${exitCode} failed`);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  await admin.end();
  if (profileDir) {
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const { summarizeProfile } = await import('./cpu-profile-summary.mjs');
      console.log(summarizeProfile(JSON.parse(readFileSync(join(profileDir, file), 'utf8'))));
    }
    rmSync(profileDir, { recursive: true, force: true });
  }
}
process.exit(exitCode);
