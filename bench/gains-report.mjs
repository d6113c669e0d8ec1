#!/usr/bin/env node
/**
 * Gains-report benchmark: one account with 100,000 transactions on Postgres, inserted directly
 * with multi-row INSERTs into a schema of its own (dropped afterwards), then
 * GET /taip/gains-report?tax_year=…&account_id=… timed over HTTP (p50 of N runs after a warm-up),
 * with the split between loading the ledger and the cost-basis engine, and Form 8949 as CSV.
 *
 * The floor (issue 16): reading the account's ledger rows, timed in the same run as the reports,
 * both as a bare `pg` SELECT of the same rows and through the service's own ledger read. Each
 * report's p50 is printed as a ratio to them (target ≤ 3× the rows' read). `sha256` of each body
 * (the account id replaced) shows that no computed figure changed between two builds.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/gains-report.mjs \
 *     [--transactions 100000] [--runs 10] [--year 2024]
 */
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { history, insertAccount } from './harness.mjs';

const { values: args } = parseArgs({
  options: {
    transactions: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '10' },
    year: { type: 'string', default: '2024' },
  },
});
const COUNT = Number(args.transactions);
const RUNS = Number(args.runs);
const YEAR = Number(args.year);
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  console.error('DATABASE_URL (a Postgres server) is required, e.g. postgres://postgres@127.0.0.1:5432/test');
  process.exit(2);
}
const SCHEMA = `bench_gains_${randomBytes(4).toString('hex')}`;

const { createApp } = await import('../dist/src/app.factory.js');
const { loadConfig } = await import('../dist/src/config/app-config.js');
const { LedgerService } = await import('../dist/src/modules/ledger/index.js');
const { computeCostBasis } = await import('../dist/src/domain/cost-basis/index.js');
const { SeededRandom } = await import('../dist/src/domain/random/seeded-random.js');
const { sandboxTenantId } = await import('../dist/src/modules/sandbox/sandbox-ids.js');

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

  // The account and its history, straight into the schema the service runs on.
  const tenantId = sandboxTenantId('sandbox');
  await admin.query(`SET search_path TO ${SCHEMA}`);
  const started = performance.now();
  const accountId = await insertAccount((sql, params) => admin.query(sql, params), {
    tenantId,
    identity: `bench-gains-${COUNT}`,
    rows: history(SeededRandom, COUNT),
  });
  const insertMs = Math.round(performance.now() - started);

  const token = (
    await (
      await fetch(`${base}/v1/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
      })
    ).json()
  ).result.accessToken;

  async function time(path) {
    const t0 = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
    return { ms, body };
  }
  /** The floor: the account's ledger rows read with a bare `pg` SELECT (no parsing beyond pg's own). */
  async function readRows() {
    const t0 = performance.now();
    const { rows } = await admin.query(
      `SELECT account_id, transaction_id, symbol, direction, amount, price_usd, fee_usd, occurred_at, transfer_id
       FROM "transaction" WHERE tenant_id = $1 AND account_id = $2`,
      [tenantId, accountId],
    );
    if (rows.length !== COUNT) throw new Error(`read ${rows.length} rows`);
    return performance.now() - t0;
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  /**
   * Each run reads the rows, then asks for the report: the host's speed drifts from minute to
   * minute, so each report is divided by the floor measured right before it, and the ratio is
   * the median of those pairs.
   */
  async function measure(path, runs) {
    const { body } = await time(path); // warm-up
    const times = [];
    const floors = [];
    const ratios = [];
    for (let i = 0; i < runs; i++) {
      const floorMs = await readRows();
      const { ms } = await time(path);
      times.push(ms);
      floors.push(floorMs);
      ratios.push(ms / floorMs);
    }
    const round = (ms) => Math.round(ms);
    return {
      runs,
      p50Ms: round(median(times)),
      minMs: round(Math.min(...times)),
      maxMs: round(Math.max(...times)),
      rowsReadP50Ms: round(median(floors)),
      ratioToRowsRead: `${median(ratios).toFixed(2)}x (target <= 3x; runs ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
      body,
    };
  }

  const report = await measure(`/taip/gains-report?tax_year=${YEAR}&account_id=${accountId}`, RUNS);
  const hifo = await measure(
    `/taip/gains-report?tax_year=${YEAR}&account_id=${accountId}&method=hifo`,
    Math.ceil(RUNS / 2),
  );
  const csv = await measure(
    `/taip/form-8949?tax_year=${YEAR}&account_id=${accountId}&format=csv`,
    Math.ceil(RUNS / 2),
  );

  // Where the time goes: loading the ledger, then the engine (p50 of a few runs each).
  const p50 = async (runs, action) => {
    const times = [];
    let value;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      value = await action();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { ms: Math.round(times[Math.floor((times.length - 1) / 2)]), value };
  };
  const FLOOR_RUNS = Math.max(3, Math.ceil(RUNS / 2));
  const floorTimes = [];
  for (let i = 0; i < FLOOR_RUNS; i++) floorTimes.push(await readRows());
  const rawRead = { ms: Math.round(median(floorTimes)), value: COUNT };
  const ledgerRead = await p50(FLOOR_RUNS, () =>
    app.get(LedgerService).ledgerForAccount(tenantId, { id: accountId }),
  );
  const { entries } = ledgerRead.value;
  const engine = await p50(FLOOR_RUNS, async () => computeCostBasis(entries, { method: 'fifo' }));
  const result = engine.value;
  const engineHifo = await p50(FLOOR_RUNS, async () => computeCostBasis(entries, { method: 'hifo' }));
  const ledgerMs = ledgerRead.ms;
  const engineMs = engine.ms;
  const bodyHash = (body) =>
    createHash('sha256').update(body.replaceAll(accountId, '<account>')).digest('hex');
  const ratio = (run) => ({
    vsRowsReadBeforeEachRun: run.ratioToRowsRead,
    vsServiceLedgerRead: `${(run.p50Ms / ledgerRead.ms).toFixed(2)}x`,
  });

  const gains = JSON.parse(report.body);
  console.log(
    JSON.stringify(
      {
        database: 'postgres',
        transactions: entries.length,
        disposalRowsAllYears: result.disposals.length,
        insertMs,
        gainsReport: {
          path: `/taip/gains-report?tax_year=${YEAR}&account_id=…`,
          runs: report.runs,
          p50Ms: report.p50Ms,
          minMs: report.minMs,
          maxMs: report.maxMs,
          result: {
            net_gains: gains.net_gains,
            transactions: gains.transactions,
            lines: gains.short_term_totals.lines + gains.long_term_totals.lines,
            form_8949: gains.form_8949,
          },
        },
        gainsReportHifo: { runs: hifo.runs, p50Ms: hifo.p50Ms, minMs: hifo.minMs, maxMs: hifo.maxMs },
        form8949Csv: {
          runs: csv.runs,
          p50Ms: csv.p50Ms,
          minMs: csv.minMs,
          maxMs: csv.maxMs,
          bytes: Buffer.byteLength(csv.body),
        },
        split: { loadLedgerMs: ledgerMs, costBasisEngineMs: engineMs, costBasisEngineHifoMs: engineHifo.ms },
        floor: {
          rowsReadMs: rawRead.ms,
          rows: rawRead.value,
          serviceLedgerReadMs: ledgerRead.ms,
          runs: FLOOR_RUNS,
        },
        ratios: {
          target: '<= 3x the rows read',
          gainsReport: ratio(report),
          gainsReportHifo: ratio(hifo),
          form8949Csv: ratio(csv),
        },
        sha256: {
          gainsReport: bodyHash(report.body),
          gainsReportHifo: bodyHash(hifo.body),
          form8949Csv: bodyHash(csv.body),
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
