#!/usr/bin/env node
// GET /api/crypto-data/bitcoin,ethereum,solana against the built service on an in-memory
// embedded database (sandbox market seeded at start-up, scheduler off): latency p50/p99 and req/s.
// The market-data and per-client rate limits are raised so the bench measures the service, not 429s.
// Usage: npx tsc -p tsconfig.build.json && node bench/crypto-data.mjs [--connections 10] [--duration 10]
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    path: { type: 'string', default: '/api/crypto-data/bitcoin,ethereum,solana' },
  },
});

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const base = `http://127.0.0.1:${port}`;
const started = performance.now();
const child = spawn(process.execPath, ['dist/src/main.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: 'memory',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    SCHEDULER_ENABLED: 'false',
    MARKET_PROVIDER: 'sandbox',
    MARKET_RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function until(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const result = await check();
      if (result) return result;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('timed out waiting for the service');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

try {
  const token = await until(async () => {
    const res = await fetch(`${base}/v1/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
    });
    return res.status === 200 ? (await res.json()).result.accessToken : undefined;
  }, 60_000);
  const readyMs = performance.now() - started;
  const headers = { authorization: `Bearer ${token}` };

  const probe = await fetch(`${base}${args.path}`, { headers });
  const records = await probe.json();
  if (probe.status !== 200 || (args.path.startsWith('/api/crypto-data') && records.length !== 3)) {
    throw new Error(`unexpected probe answer ${probe.status}: ${JSON.stringify(records).slice(0, 300)}`);
  }
  // Warm-up (JIT, caches), then the measured run.
  await autocannon({
    url: `${base}${args.path}`,
    headers,
    connections: Number(args.connections),
    duration: 2,
  });
  const result = await autocannon({
    url: `${base}${args.path}`,
    headers,
    connections: Number(args.connections),
    duration: Number(args.duration),
  });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  console.log(`service ready (migrations + sandbox seed + token) in ${readyMs.toFixed(0)} ms`);
  console.log(
    `GET ${args.path} — ${args.connections} connections, ${args.duration} s, embedded PGlite (in memory)`,
  );
  console.log(
    `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
      `throughput ${result.requests.average.toFixed(0)} req/s (total ${result.requests.total}); non-2xx/errors ${non2xx}`,
  );
  if (non2xx > 0) process.exitCode = 1;
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
