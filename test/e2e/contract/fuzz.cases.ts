/**
 * Fuzzing (issue 6, item 3): fast-check over every operation of the OpenAPI document the app
 * serves at /docs-json — path, query, header and body parameters built from the schemas, mixed
 * with real sandbox ids, ids of nobody and junk (test/support/fuzz-openapi.ts).
 *
 * Every response must satisfy:
 * - never 5xx;
 * - every 4xx has the documented body (design §4): the envelope under /v1/api, RFC 6749 §5.2
 *   under /oauth/token, application/problem+json elsewhere; `status` equals the HTTP status and
 *   `traceId` the X-Request-Id header; 400s name at least one field in `errors` (malformed JSON
 *   names `body`); no stack trace or SQL text in any error body;
 * - a valid token of the right scope is never answered 401/403;
 * - a rejected write (non-GET answered 4xx/5xx) leaves the database unchanged.
 *
 * Database fingerprint: per table of the current schema, `count(*)` and
 * `md5(string_agg(row::text, '|' ORDER BY row::text))`, all tables in one UNION ALL query.
 * It is only computed when needed: each baseline also records the next transaction id to be
 * assigned (`pg_snapshot_xmax(pg_current_snapshot())`); only a transaction that writes takes an
 * id, so when that marker has not moved after a rejected request nothing was written and the
 * contents need no hashing. When it has moved (the audit entry of most refused requests; on a
 * shared Postgres server, other schemas' suites every time), one scan of the tables finds those
 * that may differ from the baseline: rows whose `xmin` (the writing transaction) is not older
 * than the baseline's oldest running transaction, or another row count. Only those tables are
 * hashed again and compared; the others hold exactly the rows they held. A new baseline likewise
 * hashes only the tables changed since the last contents taken.
 * - The audit trail (`audit_entry`, `audit_chain`) is left out: it records refused requests too,
 *   by design (docs/audit.md), so a rejected write appends an entry and changes nothing else.
 * - `api_client.last_used_at` is left out: it is written fire-and-forget after a token is issued
 *   (so after the 2xx that re-baselined) and would race with the next comparison.
 * - Tables of more than BIG_TABLE_ROWS rows (the market price history, ~75k rows, ~0.3 s to
 *   hash on PGlite) are hashed once before and once after the whole run instead of per request:
 *   no operation writes them (only the scheduled market refresh, which is off in tests).
 * - The baseline is taken before a non-GET request whenever anything else ran since the last
 *   fingerprint (a GET may legitimately write: forceRefresh, cached state; an accepted write
 *   re-baselines); after each non-GET answered ≥ 400 the fingerprint is compared.
 *
 * Size: FUZZ_TOTAL (default 2,400) requests spread over the operations, the credential
 * endpoints at half weight (argon2 per attempt). FUZZ_SEED replays a run.
 */
import fc from 'fast-check';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';
import {
  operationsOf,
  poolFor,
  requestFor,
  type OpenApiDoc,
  type Operation,
  type Pools,
  type RequestSpec,
} from '../../support/fuzz-openapi.js';

const TOTAL = Number(process.env.FUZZ_TOTAL ?? 2400);
/**
 * CI runs a fixed seed so a red run is reproducible and never a lottery; `FUZZ_SEED=random`
 * explores new cases locally (new findings become regression tests, as year 0000 did).
 */
const SEED = process.env.FUZZ_SEED === 'random' ? undefined : Number(process.env.FUZZ_SEED ?? 20_260_421);
/** FUZZ_EXPLORE=1: record every distinct failure and print them at the end instead of failing. */
const EXPLORE = process.env.FUZZ_EXPLORE === '1';
const BIG_TABLE_ROWS = 20_000;
/** Columns written as a side effect of reads or of accepted requests, after the response. */
/** Tables that record every attempt, refused ones included (docs/audit.md): not part of the fingerprint. */
const RECORD_TABLES = new Set(['audit_entry', 'audit_chain']);
const VOLATILE_COLUMNS: Record<string, string[]> = { api_client: ['last_used_at'] };
const CREDENTIAL_PATHS = new Set(['/v1/api/token', '/oauth/token']);

/** GETs first, then writes, deletes last: valid ids stay valid for as long as possible. */
function order(ops: Operation[]): Operation[] {
  const rank = (op: Operation) => (op.method === 'get' ? 0 : op.method === 'delete' ? 2 : 1);
  return [...ops].sort((a, b) => rank(a) - rank(b));
}

function planRuns(ops: Operation[]): Map<Operation, number> {
  const weight = (op: Operation) => (CREDENTIAL_PATHS.has(op.path) ? 0.5 : 1);
  const sum = ops.reduce((s, op) => s + weight(op), 0);
  return new Map(ops.map((op) => [op, Math.ceil((TOTAL * weight(op)) / sum)]));
}

async function fetchPools(): Promise<Pools> {
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const accounts = async (token: string) =>
    (await t.http.get('/v1/api/accounts?limit=200').set(auth(token)).expect(200)).body.result.accounts as {
      accountId: string;
      collectionId: string;
      identity: string;
    }[];
  const portfolios = async (token: string) =>
    ((await t.http.get('/api/portfolios').set(auth(token)).expect(200)).body as { id: string }[]).map(
      (p) => p.id,
    );
  const mine = await accounts(tokens.partner);
  const theirs = await accounts(tokens.tenantB);
  const assets = (await t.app
    .get(DataSource)
    .query('SELECT coingecko_id, symbol FROM asset ORDER BY id')) as {
    coingecko_id: string;
    symbol: string;
  }[];
  return {
    accountIds: mine.map((a) => a.accountId),
    collectionIds: mine.map((a) => a.collectionId),
    identities: mine.map((a) => a.identity),
    portfolioIds: await portfolios(tokens.partner),
    foreignIds: [
      ...theirs.flatMap((a) => [a.accountId, a.collectionId, a.identity]),
      ...(await portfolios(tokens.tenantB)),
    ],
    coingeckoIds: assets.map((a) => a.coingecko_id),
    symbols: assets.map((a) => a.symbol),
    cursors: [],
  };
}

/** Paging cursors anywhere in a response body (nextCursor, next_cursor…), kept for the generators. */
function harvestCursors(body: unknown): void {
  if (Array.isArray(body)) return body.slice(0, 3).forEach(harvestCursors);
  if (!isObject(body)) return;
  for (const [key, value] of Object.entries(body)) {
    if (/cursor/i.test(key) && typeof value === 'string' && !pools.cursors.includes(value)) {
      if (pools.cursors.length >= 50) pools.cursors.shift();
      pools.cursors.push(value);
    } else if (typeof value === 'object') harvestCursors(value);
  }
}

/** One page of size 1 from every GET operation that pages with a cursor, so real cursors exist. */
async function warmUpCursors(): Promise<void> {
  for (const op of operations) {
    const query = op.parameters.filter((p) => p.in === 'query');
    if (op.method !== 'get' || !query.some((p) => /cursor/i.test(p.name))) continue;
    const path = op.parameters
      .filter((p) => p.in === 'path')
      .reduce((built, p) => built.replace(`{${p.name}}`, poolFor(p.name, pools)[0] ?? 'x'), op.path);
    const limit = query.find((p) => p.name === 'limit');
    const url = limit ? `${path}?limit=${limit.schema.minimum ?? 1}` : path;
    const token = op.path.startsWith('/admin/') ? tokens.admin : tokens.partner;
    for (const auth of [token, tokens.tenantB]) {
      harvestCursors((await t.http.get(url).set('Authorization', `Bearer ${auth}`)).body);
    }
  }
}

/** Per table, `count:md5` of its rows; and from which transaction on a change would be new. */
interface TablesState {
  /** The oldest transaction id (xid8) that may not be in `tables`: running or not yet started. */
  since: string;
  tables: Map<string, string>;
}

class Fingerprint {
  private constructor(
    private readonly dataSource: DataSource,
    /** Per small table: the SELECT of its `count:md5` (as a row `t`, `h`). */
    private readonly selects: Map<string, string>,
    private readonly big: string,
  ) {}

  static async create(dataSource: DataSource): Promise<Fingerprint> {
    const tables = (await dataSource.query(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    )) as { table_name: string }[];
    const small = new Map<string, string>();
    const big: string[] = [];
    for (const { table_name: name } of tables) {
      if (RECORD_TABLES.has(name)) continue;
      const [{ n }] = (await dataSource.query(`SELECT count(*)::int AS n FROM "${name}"`)) as { n: number }[];
      const row = VOLATILE_COLUMNS[name]
        ? `(to_jsonb(r) - ARRAY[${VOLATILE_COLUMNS[name].map((c) => `'${c}'`).join(', ')}]::text[])::text`
        : 'r::text';
      const select = `SELECT '${name}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(${row}, '|' ORDER BY ${row})), '') AS h FROM "${name}" r`;
      if (n > BIG_TABLE_ROWS) big.push(select);
      else small.set(name, select);
    }
    return new Fingerprint(dataSource, small, big.join(' UNION ALL '));
  }

  /**
   * The next transaction id to be assigned. A transaction that writes gets an id, a read-only one
   * does not: while the marker stands still, nothing was written anywhere in the database.
   */
  async marker(): Promise<string> {
    this.markers++;
    const [{ x }] = (await this.dataSource.query(
      'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x',
    )) as { x: string }[];
    return x;
  }

  /** The marker first: a write landing in between makes the next comparison look at contents. */
  async baseline(previous?: TablesState): Promise<{ marker: string; state: TablesState }> {
    const marker = await this.marker();
    return { marker, state: await this.take(previous) };
  }

  /**
   * The small tables' contents now. Given an earlier state, only the tables that may differ from
   * it are hashed again: the others provably hold what they held then (see \`touched\`).
   */
  async take(previous?: TablesState): Promise<TablesState> {
    const [{ since }] = (await this.dataSource.query(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS since',
    )) as { since: string }[];
    if (!previous) return { since, tables: await this.run([...this.selects.values()].join(' UNION ALL ')) };
    const touched = await this.touched(previous);
    const tables = new Map(previous.tables);
    if (touched.length) {
      const rehashed = await this.run(touched.map((name) => this.selects.get(name)!).join(' UNION ALL '));
      for (const [name, hash] of rehashed) tables.set(name, hash);
    }
    return { since, tables };
  }

  /**
   * The small tables that may have changed since \`previous\`: those with a row written by a
   * transaction that was running or not yet started when \`previous\` was taken (every insert and
   * update leaves its writer's id in the row's \`xmin\`), or with another number of rows (a
   * delete). A table with neither holds exactly the rows it held then: only those are skipped.
   * One scan of each table, no hashing: most rejected requests write nothing but their audit
   * entry (not fingerprinted), and this is what tells so.
   */
  private async touched(previous: TablesState): Promise<string[]> {
    this.probes++;
    const start = Date.now();
    // age(xmin): transactions between the row's writer and the next id to be assigned.
    const window = `(SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint - ${BigInt(previous.since)})`;
    const sql = [...this.selects.keys()]
      .map(
        (name) =>
          `SELECT '${name}' AS t, count(*)::int AS n, count(*) FILTER (WHERE age(r.xmin) <= ${window})::int AS fresh FROM "${name}" r`,
      )
      .join(' UNION ALL ');
    const rows = (await this.dataSource.query(sql)) as { t: string; n: number; fresh: number }[];
    this.ms += Date.now() - start;
    return rows
      .filter((row) => row.fresh > 0 || `${row.n}` !== previous.tables.get(row.t)?.split(':')[0])
      .map((row) => row.t);
  }

  takeBig(): Promise<Map<string, string>> {
    return this.run(this.big);
  }

  /** How many tables were hashed, probes made and how long both took, for the summary line. */
  count = 0;
  probes = 0;
  ms = 0;
  markers = 0;

  private async run(sql: string): Promise<Map<string, string>> {
    if (!sql) return new Map();
    const start = Date.now();
    const rows = (await this.dataSource.query(sql)) as { t: string; h: string }[];
    this.count += rows.length;
    this.ms += Date.now() - start;
    return new Map(rows.map((r) => [r.t, r.h]));
  }
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((table) => before.get(table) !== after.get(table));
}

function tokenFor(spec: RequestSpec): string {
  return spec.template.startsWith('/admin/') ? tokens.admin : tokens.partner;
}

async function send(spec: RequestSpec): Promise<Response> {
  const url = spec.query ? `${spec.path}?${spec.query}` : spec.path;
  const request = t.http[spec.method](url);
  for (const [name, value] of Object.entries(spec.headers)) request.set(name, value);
  if (spec.auth === 'token') request.set('Authorization', `Bearer ${tokenFor(spec)}`);
  if (spec.auth === 'garbage') request.set('Authorization', 'Bearer eyJhbGciOiJub25lIn0.e30.');
  if (spec.body) {
    // A string with an explicit Content-Type is sent as is; without one, a Buffer (superagent
    // would otherwise label a string form-urlencoded).
    if (spec.body.contentType) request.set('Content-Type', spec.body.contentType).send(spec.body.text);
    else request.send(Buffer.from(spec.body.text));
  }
  sent++;
  return request.ok(() => true);
}

const LEAK =
  /QueryFailedError|\n\s+at .+:\d+:\d+|node_modules|duplicate key value|violates .+ constraint|syntax error at or near|relation ".+" does not exist/i;

/** The path and query as they went over the wire (superagent percent-encodes what must be). */
const wireUrl = (res: Response): string => (res as unknown as { req: { path: string } }).req.path;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parse(res: Response): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    return undefined;
  }
}

/** What is wrong with one response; empty when it is fine. */
function problemsOf(spec: RequestSpec, res: Response): string[] {
  const problems: string[] = [];
  const status = res.status;
  const wirePath = wireUrl(res).split('?')[0];
  const requestId = res.headers['x-request-id'];
  if (status >= 500) problems.push(`server error ${status}`);
  if (spec.auth === 'token' && (status === 401 || status === 403)) {
    problems.push(`${status} for a valid token of the right scope`);
  }
  if (status >= 400 && LEAK.test(res.text)) problems.push('stack trace or SQL text in the error body');
  if (status < 400 || status >= 500) return problems;

  const body = parse(res);
  if (!isObject(body)) return [...problems, 'error body is not a JSON object'];
  const checkProblem = (problem: unknown, where: string) => {
    if (!isObject(problem)) return problems.push(`${where} is not an object`);
    if (typeof problem.type !== 'string' || !problem.type) problems.push(`${where}.type missing`);
    if (typeof problem.title !== 'string' || !problem.title) problems.push(`${where}.title missing`);
    if (problem.status !== status)
      problems.push(`${where}.status ${String(problem.status)} ≠ HTTP ${status}`);
    if (typeof problem.traceId !== 'string' || !problem.traceId) problems.push(`${where}.traceId missing`);
    else if (problem.traceId !== requestId) problems.push(`${where}.traceId ≠ X-Request-Id (${requestId})`);
    if (status === 400) {
      const errors = problem.errors;
      const named = isObject(errors) ? Object.keys(errors) : [];
      if (named.length === 0) problems.push(`400 without ${where}.errors naming a field`);
      else if (
        !Object.values(errors as object).every(
          (m) => Array.isArray(m) && m.every((s) => typeof s === 'string'),
        )
      )
        problems.push(`${where}.errors values are not lists of messages`);
      if (
        spec.body?.kind === 'malformed-json' &&
        spec.body.contentType === 'application/json' &&
        !named.includes('body')
      )
        problems.push(`malformed JSON answered 400 without ${where}.errors.body`);
    }
    return undefined;
  };

  if (wirePath === '/v1/api' || wirePath.startsWith('/v1/api/')) {
    if (!/application\/json/.test(res.headers['content-type'] ?? ''))
      problems.push(`content-type ${res.headers['content-type']} (expected application/json envelope)`);
    if (body.isError !== true) problems.push('envelope.isError is not true');
    if (body.statusCode !== status)
      problems.push(`envelope.statusCode ${String(body.statusCode)} ≠ HTTP ${status}`);
    if (typeof body.message !== 'string') problems.push('envelope.message missing');
    if (body.result !== null) problems.push('envelope.result is not null');
    const exception = isObject(body.responseException) ? body.responseException.exceptionMessage : undefined;
    checkProblem(exception, 'responseException.exceptionMessage');
  } else if (wirePath === '/oauth/token') {
    if (typeof body.error !== 'string' || !body.error) problems.push('oauth error body without error');
    if (typeof body.error_description !== 'string')
      problems.push('oauth error body without error_description');
  } else {
    if (!/^application\/problem\+json/.test(res.headers['content-type'] ?? ''))
      problems.push(`content-type ${res.headers['content-type']} (expected application/problem+json)`);
    checkProblem(body, 'problem');
  }
  return problems;
}

const clip = (text: string | undefined, max = 1500) =>
  text === undefined ? '' : text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

function describeFailure(spec: RequestSpec, res: Response | undefined, problems: string[]): string {
  const headers = {
    ...spec.headers,
    ...(spec.auth === 'token'
      ? { authorization: `Bearer <${tokenFor(spec) === tokens.admin ? 'admin' : 'partner'} token>` }
      : {}),
    ...(spec.auth === 'garbage' ? { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' } : {}),
    ...(spec.body?.contentType ? { 'content-type': spec.body.contentType } : {}),
  };
  const wire = res ? wireUrl(res) : `${spec.path}?${spec.query}`;
  return [
    problems.join('; '),
    `  request:  ${spec.method.toUpperCase()} ${wire}   (operation ${spec.method.toUpperCase()} ${spec.template})`,
    `  query:    ${spec.query || '(none)'}`,
    `  headers:  ${JSON.stringify(headers)}`,
    `  body:     ${spec.body ? clip(JSON.stringify(spec.body.text)) : '(none)'}`,
    `  response: ${res ? `${res.status} ${res.headers['content-type'] ?? ''}` : '(none)'}`,
    `  response body: ${clip(res?.text)}`,
  ].join('\n');
}

async function check(spec: RequestSpec): Promise<void> {
  const write = spec.method !== 'get';
  if (write && !baseline) baseline = await fingerprint.baseline(known);
  const res = await send(spec);
  const problems = problemsOf(spec, res);
  if (res.status >= 200 && res.status < 300) harvestCursors(parse(res));
  if (EXPLORE) tally(spec, res);
  if (!write || (res.status >= 200 && res.status < 400)) {
    // A GET may write legitimately (forceRefresh); an accepted write changes the database.
    if (baseline) known = baseline.state;
    baseline = undefined;
  } else {
    const marker = await fingerprint.marker();
    if (marker !== baseline!.marker) {
      // Some transaction wrote since the baseline: compare the contents.
      const state = await fingerprint.take(baseline!.state);
      const changed = changedTables(baseline!.state.tables, state.tables);
      known = state;
      if (changed.length) {
        problems.push(`database changed by a rejected request: ${changed.join(', ')}`);
        baseline = undefined;
      } else baseline = { marker, state };
    }
  }
  if (!problems.length) return;
  const message = describeFailure(spec, res, problems);
  if (!EXPLORE) throw new Error(message);
  const key = `${spec.method} ${spec.template} ${res.status} ${problems.map((p) => p.replace(/\(.*?\)|\d+/g, '')).join('; ')}`;
  if (!explored.has(key)) explored.set(key, message);
}

const explored = new Map<string, string>();
const statuses = new Map<string, Record<string, number>>();

/** FUZZ_EXPLORE: statuses per operation, and which fields the 400s/422s named (coverage at a glance). */
function tally(spec: RequestSpec, res: Response): void {
  const key = `${spec.method.toUpperCase()} ${spec.template}`;
  const counts = statuses.get(key) ?? {};
  const bump = (name: string) => (counts[name] = (counts[name] ?? 0) + 1);
  bump(String(res.status));
  if (res.status === 400 || res.status === 422) {
    const body = parse(res) as Record<string, Record<string, Record<string, unknown>>> | undefined;
    const problem = body?.responseException?.exceptionMessage ?? body;
    const named = problem?.errors
      ? Object.keys(problem.errors).join(',')
      : String(problem?.reason ?? problem?.error);
    bump(`${res.status}:${named.slice(0, 60)}`);
  }
  statuses.set(key, counts);
}

/** The suite's handle on the file's app, and what the run needs of it (set up in beforeAll). */
let t: SuiteApp;
let operations: Operation[];
let tokens: { partner: string; admin: string; tenantB: string };
let pools: Pools;
let fingerprint: Fingerprint;
let bigTablesBefore: Map<string, string>;
const credentials = Object.values(SANDBOX).map((c) => [c.clientId, c.secret]);

let sent = 0;
let failedOperations = 0;
let baseline: { marker: string; state: TablesState } | undefined;
/** The last contents taken: a new baseline hashes again only the tables changed since. */
let known: TablesState | undefined;

/**
 * The fuzz suite, one test per operation of `doc`: the document the file's app serves, fetched
 * while the file loads (test/e2e/contract.e2e-spec.ts), since jest wants the tests then. The
 * rest (tokens, the sandbox's ids, cursors, the fingerprint) is read when the suite starts, after
 * the file's other suites: it fuzzes the sandbox as they left it, and must come last, since it
 * writes anything anywhere (deletes last).
 */
export function describeFuzz(doc: OpenApiDoc): void {
  operations = order(operationsOf(doc));
  const runsPerOperation = planRuns(operations);
  let started = 0;

  describe('fuzzing every OpenAPI operation (e2e)', () => {
    beforeAll(async () => {
      started = Date.now();
      t = await startSuite({
        RATE_LIMIT_PER_MINUTE: '1000000',
        MARKET_RATE_LIMIT_PER_MINUTE: '1000000',
        TOKEN_RATE_LIMIT_PER_MINUTE: '1000000',
      });
      // Listening once, not per request as supertest does otherwise: ~0.3 ms a request.
      await t.app.listen(0, '127.0.0.1');
      tokens = {
        partner: await t.token(SANDBOX.partner.clientId, SANDBOX.partner.secret),
        admin: await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
        tenantB: await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
      };
      pools = await fetchPools();
      await warmUpCursors();
      fingerprint = await Fingerprint.create(t.app.get(DataSource));
      bigTablesBefore = await fingerprint.takeBig();
    });
    afterAll(async () => {
      process.stdout.write(
        `fuzz: ${operations.length} operations, ${sent} requests, ${fingerprint.markers} markers, ${fingerprint.probes} probes, ${fingerprint.count} tables hashed ` +
          `(${(fingerprint.ms / 1000).toFixed(1)} s), ${((Date.now() - started) / 1000).toFixed(1)} s in all\n`,
      );
      if (EXPLORE) {
        process.stdout.write(`${[...explored.values()].join('\n\n')}\n`);
        for (const [op, counts] of statuses) process.stdout.write(`${op} ${JSON.stringify(counts)}\n`);
      }
      // The app is the file's and stays up: stop listening; supertest listens per request again.
      const server = t.app.getHttpServer();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await t.close();
    });

    it('finds the operations in the served document', () => {
      expect(operations.length).toBeGreaterThan(20);
      expect([...runsPerOperation.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(TOTAL);
    });

    it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
      '%s',
      async (_name, operation) => {
        failedOperations++;
        await fc.assert(fc.asyncProperty(requestFor(operation, pools, credentials), check), {
          numRuns: runsPerOperation.get(operation)!,
          seed: SEED,
        });
        failedOperations--;
      },
      180_000,
    );

    it('leaves the large tables (market history) untouched', async () => {
      const after = await fingerprint.takeBig();
      expect(changedTables(bigTablesBefore, after)).toEqual([]);
    });

    it(`sent at least ${TOTAL} requests`, () => {
      // A failing property stops at its first counterexample (after shrinking): fewer requests then.
      if (failedOperations === 0) expect(sent).toBeGreaterThanOrEqual(TOTAL);
    });
  });
}
