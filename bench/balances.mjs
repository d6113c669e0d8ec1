#!/usr/bin/env node
/**
 * Balances benchmark: one account with 10,000 transactions.
 *  - cold compute: the first refresh (connector → upsert 10,000 rows → cost-basis engine →
 *    snapshot, one transaction), and the engine alone on the same ledger;
 *  - cached reads: GET /v1/api/account/{id}/balances under autocannon (p50 / p99 latency).
 *
 *   npm run build && node bench/balances.mjs [--transactions 10000] [--duration 10] [--connections 10]
 *   Embedded PGlite in memory by default; with DATABASE_URL, a Postgres schema bench_balances.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    transactions: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const COUNT = Number(args.transactions);
const DATABASE_URL = process.env.DATABASE_URL;
const SCHEMA = 'bench_balances';

const { createApp } = await import('../dist/src/app.factory.js');
const { loadConfig } = await import('../dist/src/config/app-config.js');
const { ConnectorRegistry } = await import('../dist/src/modules/sources/index.js');
const { AccountsService } = await import('../dist/src/modules/accounts/index.js');
const { RefreshService } = await import('../dist/src/modules/sources/index.js');
const { LedgerService } = await import('../dist/src/modules/ledger/index.js');
const { computeCostBasis, summarizeByAccountAndSymbol } =
  await import('../dist/src/domain/cost-basis/index.js');
const { SeededRandom } = await import('../dist/src/domain/random/seeded-random.js');
const { sandboxTenantId } = await import('../dist/src/modules/sandbox/sandbox-ids.js');

async function schema(action) {
  if (!DATABASE_URL) return;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  if (action === 'create') await client.query(`CREATE SCHEMA ${SCHEMA}`);
  await client.end();
}

/** 10,000 realistic trades since 2020: weekly-ish buys, sales of part of the holding, fees. */
function history(count) {
  const random = new SeededRandom('bench:balances');
  const held = { BTC: 0, ETH: 0, SOL: 0 };
  const price = { BTC: 9_000, ETH: 180, SOL: 2 };
  const start = Date.parse('2020-01-01T00:00:00Z');
  const step = Math.floor((Date.parse('2026-01-01T00:00:00Z') - start) / count);
  const txs = [];
  for (let i = 0; i < count; i++) {
    const symbol = ['BTC', 'ETH', 'SOL'][random.int(0, 2)];
    price[symbol] = Math.max(0.5, price[symbol] * Math.exp(0.03 * random.normal()));
    const priceUsd = price[symbol].toFixed(2);
    const sell = held[symbol] > 0 && random.next() < 0.3;
    const amount = sell
      ? Math.floor(held[symbol] * (0.1 + 0.4 * random.next()) * 1e8) / 1e8
      : Math.floor(((100 + 2_000 * random.next()) / price[symbol]) * 1e8) / 1e8;
    if (amount <= 0) {
      i--;
      continue;
    }
    held[symbol] += sell ? -amount : amount;
    held[symbol] = Math.round(held[symbol] * 1e8) / 1e8;
    txs.push({
      transactionId: `bench-${String(i).padStart(6, '0')}`,
      symbol,
      direction: sell ? 'sell' : 'buy',
      amount: amount.toFixed(8),
      priceUsd,
      feeUsd: (Number(priceUsd) * amount * 0.0026).toFixed(2),
      occurredAt: new Date(start + i * step),
      transferId: null,
    });
  }
  return txs;
}

await schema('create');
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  SCHEDULER_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '100000000',
  DATABASE_TIMEOUT_MS: '30000',
  ...(DATABASE_URL ? { DATABASE_URL, DATABASE_SCHEMA: SCHEMA } : { DATA_DIR: 'memory' }),
});
const app = await createApp(config, { logs: false });
await app.listen(0, '127.0.0.1');
const port = app.getHttpServer().address().port;

const transactions = history(COUNT);
app.get(ConnectorRegistry).register('bench', {
  fetch: async () => ({
    status: 'ready',
    mode: 'full',
    pages: (async function* () {
      yield transactions;
    })(),
    reportedBalances: null,
  }),
});
const tenantId = sandboxTenantId('sandbox');
const account = await app
  .get(AccountsService)
  .create(tenantId, { platform: 'kraken', identity: `bench-${COUNT}`, source: 'bench' }, true);

const refresher = app.get(RefreshService);
let started = performance.now();
const cold = await refresher.refresh(tenantId, account.id, 'admin');
const coldMs = Math.round(performance.now() - started);
if (cold.status !== 'refreshed') throw new Error(`cold refresh: ${JSON.stringify(cold)}`);

started = performance.now();
const again = await refresher.refresh(tenantId, account.id, 'admin');
const unchangedRefreshMs = Math.round(performance.now() - started);

const { entries } = await app.get(LedgerService).ledgerForAccount(tenantId, account);
started = performance.now();
summarizeByAccountAndSymbol(computeCostBasis(entries, { method: 'fifo' }));
const engineMs = Math.round(performance.now() - started);

const base = `http://127.0.0.1:${port}`;
const tokenResponse = await fetch(`${base}/v1/api/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
});
const token = (await tokenResponse.json()).result.accessToken;
const url = `${base}/v1/api/account/${account.id}/balances`;
started = performance.now();
const first = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
const firstReadMs = Math.round(performance.now() - started);
const firstBody = await first.json();
if (first.status !== 200) throw new Error(`balances: ${first.status} ${JSON.stringify(firstBody)}`);

const load = await autocannon({
  url,
  headers: { authorization: `Bearer ${token}` },
  connections: Number(args.connections),
  duration: Number(args.duration),
});
// autocannon stops counting at the deadline; let its last in-flight requests finish first.
await new Promise((resolve) => setTimeout(resolve, 1_000));
await app.close();
await schema('drop');

console.log(
  JSON.stringify(
    {
      database: DATABASE_URL ? 'postgres' : 'pglite (embedded, in memory)',
      transactions: COUNT,
      coldRefreshMs: coldMs,
      coldRefresh: cold,
      unchangedRefreshMs,
      unchangedRefresh: again.status,
      costBasisEngineOnlyMs: engineMs,
      firstCachedReadMs: firstReadMs,
      balances: firstBody.result.balances.map((b) => `${b.symbol} ${b.balance}`),
      cachedReads: {
        connections: Number(args.connections),
        durationSeconds: Number(args.duration),
        requests: load.requests.total,
        non2xx: load.non2xx,
        requestsPerSecond: load.requests.average,
        latencyMs: {
          p50: load.latency.p50,
          p90: load.latency.p90,
          p99: load.latency.p99,
          max: load.latency.max,
        },
      },
    },
    null,
    2,
  ),
);
process.exit(0);
