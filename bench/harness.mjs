/**
 * What several benchmarks share: a free port, waiting for a URL, the paced open-loop sender, the
 * built service in a process of its own, and a trading history inserted straight into the
 * database (no HTTP). Imported by bench/load.mjs, bench/gains-report.mjs and bench/mix.mjs.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export async function waitFor(url, timeoutMs = 120_000) {
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

/**
 * Open loop at a fixed rate: request i is due at start + i/rate and is sent then (over up to 50
 * keep-alive connections); its latency runs from when it was due to the end of its response
 * (wrk2's method: queueing counts). Non-2xx answers and socket errors are counted, not timed.
 */
export function paced({ url, method = 'GET', headers = {}, body }, rate, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  const target = new URL(url);
  const total = Math.round(rate * seconds);
  const latencies = [];
  /** Non-2xx statuses and socket errors, each with its count. */
  const failures = {};
  const fail = (what) => {
    failures[what] = (failures[what] ?? 0) + 1;
    errors++;
  };
  let errors = 0;
  let settled = 0;
  return new Promise((resolve) => {
    const start = performance.now();
    let sent = 0;
    const send = (dueAt) => {
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method,
          headers,
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode >= 200 && res.statusCode < 300) latencies.push(performance.now() - dueAt);
            else fail(String(res.statusCode));
            finish();
          });
        },
      );
      req.on('error', (error) => {
        fail(error.code ?? error.message);
        finish();
      });
      req.end(body);
    };
    const finish = () => {
      if (++settled === total) {
        agent.destroy();
        latencies.sort((a, b) => a - b);
        const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
        resolve({
          p50: at(0.5),
          p99: at(0.99),
          max: latencies[latencies.length - 1] ?? NaN,
          errors,
          failures,
        });
      }
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) send(start + (sent++ * 1000) / rate);
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
}

/**
 * The built service (dist/src/main.js unless `entry`) in a process of its own on 127.0.0.1, with
 * the rate limits out of the way and the scheduler off; `env` adds to or overrides that. Resolves
 * once /health/ready answers. `stop()` ends it with SIGTERM and waits for its exit (the embedded
 * database's lock is released then).
 */
export async function startService({ env = {}, entry = 'dist/src/main.js', command, stdio } = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const [file, args] = command ?? [process.execPath, [entry]];
  const child = spawn(file, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      SCHEDULER_ENABLED: 'false',
      RATE_LIMIT_PER_MINUTE: '100000000',
      MARKET_RATE_LIMIT_PER_MINUTE: '100000000',
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: stdio ?? ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([
    waitFor(`${base}/health/ready`),
    exited.then((code) => {
      throw new Error(`the service exited (${code}) before it was ready`);
    }),
  ]);
  return {
    base,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A bearer token of a client (the sandbox's by default). */
export async function token(base, clientId = 'sandbox-client', clientSecret = 'sandbox-secret') {
  const response = await fetch(`${base}/v1/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, clientSecret }),
  });
  if (response.status !== 200) throw new Error(`token of ${clientId}: ${response.status}`);
  return (await response.json()).result.accessToken;
}

/**
 * Realistic trading since 2020 (`SeededRandom` of dist/src/domain/random/seeded-random.js):
 * buys, sales of part of a holding (never more than held), fees.
 */
export function* history(SeededRandom, count) {
  const random = new SeededRandom('bench:gains-report');
  const held = { BTC: 0, ETH: 0, SOL: 0 };
  const price = { BTC: 9_000, ETH: 180, SOL: 2 };
  const start = Date.parse('2020-01-01T00:00:00Z');
  const step = Math.floor((Date.parse('2026-01-01T00:00:00Z') - start) / count);
  for (let i = 0; i < count;) {
    const symbol = ['BTC', 'ETH', 'SOL'][random.int(0, 2)];
    price[symbol] = Math.max(0.5, price[symbol] * Math.exp(0.03 * random.normal()));
    const priceUsd = price[symbol].toFixed(2);
    const sell = held[symbol] > 0 && random.next() < 0.3;
    const amount = sell
      ? Math.floor(held[symbol] * (0.1 + 0.4 * random.next()) * 1e8) / 1e8
      : Math.floor(((100 + 2_000 * random.next()) / price[symbol]) * 1e8) / 1e8;
    if (amount <= 0) continue;
    held[symbol] = Math.round((held[symbol] + (sell ? -amount : amount)) * 1e8) / 1e8;
    yield [
      `bench-${String(i).padStart(6, '0')}`,
      symbol,
      sell ? 'sell' : 'buy',
      amount.toFixed(8),
      priceUsd,
      (Number(priceUsd) * amount * 0.0026).toFixed(2),
      new Date(start + i * step),
    ];
    i++;
  }
}

/**
 * A synced CSV account of `tenantId` holding `rows` (from `history`), inserted with multi-row
 * INSERTs through `query(sql, params)` (a `pg` client on the service's schema, or PGlite on its
 * data directory while the service is stopped). Returns the account's id.
 */
export async function insertAccount(query, { tenantId, identity, rows }) {
  const accountId = randomUUID();
  await query(
    `INSERT INTO account (id, tenant_id, collection_id, identity, platform, source, sync_status, connection_status,
       balance_source, last_synced_at, created_on)
     VALUES ($1, $2, $3, $4, 'kraken', 'csv', 'synced', 'connected', 'calculated', now(), now())`,
    [accountId, tenantId, randomUUID(), identity],
  );
  let batch = [];
  const flush = async () => {
    const params = [tenantId, accountId];
    const values = batch.map((row) => {
      const at = params.length;
      params.push(...row);
      const p = (i) => `$${at + i}`;
      return `($1, $2, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}::numeric, ${p(5)}::numeric, ${p(6)}::numeric, ${p(7)}::timestamptz, NULL)`;
    });
    await query(
      `INSERT INTO "transaction" (tenant_id, account_id, transaction_id, symbol, direction, amount, price_usd, fee_usd, occurred_at, transfer_id)
       VALUES ${values.join(', ')}`,
      params,
    );
    batch = [];
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length === 1_000) await flush();
  }
  if (batch.length) await flush();
  await query('ANALYZE "transaction"');
  return accountId;
}

/** The longest gap between 1 ms timer ticks while `action` runs: how long the loop was held. */
export async function longestStall(action) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  const value = await action();
  const ms = performance.now() - t0;
  clearInterval(timer);
  longest = Math.max(longest, performance.now() - last);
  return { ms, longest, value };
}
