#!/usr/bin/env node
/**
 * Where the request thread blocks on the heavy endpoints (issue 28 item 1): one account of
 * 30,000 transactions on PostgreSQL (a schema of its own, dropped afterwards). For each heavy
 * endpoint, the longest stall of the event loop while one request runs (a 1 ms timer measures the
 * gaps), next to the request's time; then, in process, the split of a gains report / Form 8949 /
 * lots computation: ledger read (SQL + row hydration), engine, DTO mapping and JSON text, CSV.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/main-thread-split.mjs \
 *     [--transactions 30000] [--runs 3] [--year 2024]
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { history, insertAccount, longestStall, token } from './harness.mjs';

const { values: args } = parseArgs({
  options: {
    transactions: { type: 'string', default: '30000' },
    runs: { type: 'string', default: '3' },
    year: { type: 'string', default: '2024' },
    // Only the HTTP endpoints whose name contains this text (and no in-process split).
    only: { type: 'string' },
  },
});
const COUNT = Number(args.transactions);
const RUNS = Number(args.runs);
const YEAR = Number(args.year);
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  console.error('DATABASE_URL (a Postgres server) is required');
  process.exit(2);
}
const SCHEMA = `bench_split_${randomBytes(4).toString('hex')}`;

const { createApp } = await import('../dist/src/app.factory.js');
const { loadConfig } = await import('../dist/src/config/app-config.js');
const { LedgerService } = await import('../dist/src/modules/ledger/index.js');
const { toGainsReportDto, toForm8949Dto } = await import('../dist/src/modules/tax/index.js');
const { computeCostBasis } = await import('../dist/src/domain/cost-basis/index.js');
const tax = await import('../dist/src/domain/tax/index.js');
const { SeededRandom } = await import('../dist/src/domain/random/seeded-random.js');
const { sandboxTenantId } = await import('../dist/src/modules/sandbox/sandbox-ids.js');

const round = (ms) => Math.round(ms);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`CREATE SCHEMA ${SCHEMA}`);
let app;
try {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DATABASE_TIMEOUT_MS: '60000',
    DATABASE_URL,
    DATABASE_SCHEMA: SCHEMA,
  });
  app = await createApp(config, { logs: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const tenantId = sandboxTenantId('sandbox');
  await admin.query(`SET search_path TO ${SCHEMA}`);
  const accountId = await insertAccount((sql, params) => admin.query(sql, params), {
    tenantId,
    identity: `bench-split-${COUNT}`,
    rows: history(SeededRandom, COUNT),
  });

  const accessToken = await token(base);
  const headers = { authorization: `Bearer ${accessToken}` };

  // A 1099-DA file of the year's lines (every line per lot: the matching's common case), at most 5,000.
  const gainsLines = JSON.parse(
    await (
      await fetch(`${base}/taip/form-8949?tax_year=${YEAR}&account_id=${accountId}`, { headers })
    ).text(),
  ).lines;
  const csv1099 =
    [
      'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference',
      ...gainsLines
        .slice(0, 5_000)
        .map(
          (l, i) =>
            `${l.asset},${l.quantity},${l.date_acquired ?? ''},${l.date_sold},${l.proceeds},${l.cost_basis},${l.term},R-${i}`,
        ),
    ].join('\n') + '\n';

  const q = `account_id=${accountId}`;
  const endpoints = [
    ['gains report', 'GET', `/taip/gains-report?tax_year=${YEAR}&${q}`],
    ['form 8949 JSON', 'GET', `/taip/form-8949?tax_year=${YEAR}&${q}`],
    ['form 8949 CSV', 'GET', `/taip/form-8949?tax_year=${YEAR}&${q}&format=csv`],
    ['lots', 'GET', `/taip/lots?${q}`],
    ['harvesting', 'GET', `/taip/harvesting-candidates?${q}`],
    ['1099-DA 5,000 lines', 'POST', `/taip/form-1099-da/reconciliation?tax_year=${YEAR}&${q}`, csv1099],
    ['checksum', 'GET', `/v1/api/checksum`],
    [
      'report snapshot (gains)',
      'POST',
      '/v1/api/report-snapshots',
      JSON.stringify({ kind: 'gains', taxYear: YEAR, accountId }),
    ],
    // The safe-harbor proposal: the engine twice over the tenant's ledger (universal and per account).
    ['safe harbor (proposal)', 'GET', '/taip/safe-harbor-allocation'],
    // A method election: the account's balances recomputed from its whole history in the write.
    [
      'method election (balances recomputed)',
      'POST',
      '/taip/cost-basis-method',
      JSON.stringify({ method: 'hifo', effective_from: '2099-01-01', account_id: accountId }),
    ],
  ].filter(([name]) => args.only === undefined || name.includes(args.only));
  const http = {};
  for (const [name, method, path, body] of endpoints) {
    const runs = [];
    for (let i = 0; i <= RUNS; i++) {
      const run = await longestStall(async () => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: {
            ...headers,
            ...(body ? { 'content-type': name.startsWith('1099') ? 'text/csv' : 'application/json' } : {}),
          },
          body,
        });
        const text = await res.text();
        if (res.status >= 300) throw new Error(`${name}: ${res.status} ${text.slice(0, 300)}`);
        return text.length;
      });
      if (i > 0) runs.push(run); // the first is a warm-up
    }
    http[name] = {
      requestMs: round(median(runs.map((r) => r.ms))),
      longestStallMs: round(median(runs.map((r) => r.longest))),
      bytes: runs[0].value,
    };
  }

  if (args.only !== undefined) {
    console.log(JSON.stringify({ database: 'postgres', transactions: COUNT, http }, null, 2));
    await app.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await admin.end();
    process.exit(0);
  }
  // In process: the parts of a report on the request thread (p50 of RUNS).
  const ledger = app.get(LedgerService);
  const p50 = async (action) => {
    const times = [];
    let value;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      value = await action();
      times.push(performance.now() - t0);
    }
    return { ms: round(median(times)), value };
  };
  const account = { id: accountId, address: null, chain: null, platform: 'kraken', source: 'csv' };
  const read = await p50(() => ledger.ledgerForAccount(tenantId, { id: accountId }));
  const entries = read.value.entries;
  // What stays on the request thread: the read's longest stall, and the encoding for the pool.
  const { encodeLedger } = await import('../dist/src/domain/cost-basis/index.js');
  const readStall = await longestStall(() => ledger.ledgerForAccount(tenantId, { id: accountId }));
  const encode = await p50(() => encodeLedger(entries));
  // What the heavy endpoints read: the ledger encoded chunk by chunk (LedgerService.encodedLedgerForAccount).
  const encodedRead = await p50(() => ledger.encodedLedgerForAccount(tenantId, { id: accountId }));
  const encodedReadStall = await longestStall(() =>
    ledger.encodedLedgerForAccount(tenantId, { id: accountId }),
  );
  const input = { taxYear: YEAR, method: 'fifo', accounts: [account], entries };
  const year = await p50(() => tax.computeTaxYear(input));
  const summary = await p50(() => tax.summarizeGains(input, year.value));
  const scope = {
    taxYear: YEAR,
    method: 'fifo',
    methodSource: 'default',
    asset: 'ALL',
    account: null,
    accountCount: 1,
    readiness: year.value.readiness,
  };
  const gainsDto = await p50(() => JSON.stringify(toGainsReportDto({ ...scope, ...summary.value })));
  // The lines' mapping runs in the worker (toForm8949LineJson); the request thread maps the totals only.
  const f8949Lines = await p50(() => year.value.lines.map(tax.toForm8949LineJson));
  const f8949 = {
    ...scope,
    lines: f8949Lines.value,
    boxTotals: tax.totalsByBox(year.value.lines),
    totals: tax.termTotals(year.value.lines),
  };
  const f8949Dto = await p50(() => toForm8949Dto(f8949));
  const f8949Json = await p50(() => JSON.stringify(f8949Dto.value));
  const f8949Csv = await p50(() => tax.toForm8949Csv(year.value.lines));
  const lots = await p50(() => computeCostBasis(entries, { method: 'fifo', openLotsAsOf: new Date() }));
  const parse = await p50(() => tax.parseForm1099Da(csv1099));
  const match = await p50(() => tax.reconcileForm1099Da(parse.value.lines, year.value.lines));
  console.log(
    JSON.stringify(
      {
        database: 'postgres',
        transactions: entries.length,
        form8949Lines: year.value.lines.length,
        openLots: lots.value.openLots.length,
        http,
        inProcessP50Ms: {
          ledgerReadSqlAndHydration: read.ms,
          ledgerReadLongestStall: round(readStall.longest),
          encodeLedger: encode.ms,
          encodedLedgerRead: encodedRead.ms,
          encodedLedgerReadLongestStall: round(encodedReadStall.longest),
          computeTaxYear: year.ms,
          summarizeGains: summary.ms,
          gainsDtoAndJson: gainsDto.ms,
          form8949LinesMappingInWorker: f8949Lines.ms,
          form8949DtoMapping: f8949Dto.ms,
          form8949JsonStringify: f8949Json.ms,
          form8949Csv: f8949Csv.ms,
          engineWithOpenLots: lots.ms,
          parse1099Da: parse.ms,
          reconcile1099Da: match.ms,
        },
      },
      null,
      2,
    ),
  );
} finally {
  await app?.close();
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await admin.end();
}
process.exit(0);
