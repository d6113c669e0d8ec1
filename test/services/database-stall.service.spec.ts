/**
 * An event loop that stalls (a request that computes for seconds) must not make the database look
 * unavailable (issue 27 item 17): the replies that arrived meanwhile are read when the loop turns
 * again, and no "timeout" that is only the stall may fail a query, its wait for a pool connection
 * or the opening of one: those failures are answered 503 "The database is unavailable", which is
 * for a database that does not answer. test/faults-database.e2e-spec.ts checks that a database
 * that really does not answer still fails fast.
 *
 * The timers live in node-postgres' pool and in FailFastClient's watchdog (PostgreSQL); PGlite has
 * none, and there the test only shows that nothing fails either.
 */
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../../src/common/errors/database-unavailable.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { createTestSchema, prepareEmbeddedDatabase, testConfig, usingPostgres } from '../support/test-app.js';

/** DATABASE_TIMEOUT_MS: the pool's connection wait; the read watchdog fires at this + 1 s. */
const TIMEOUT_MS = 400;
/**
 * Longer than every timeout above (the watchdog's included) on PostgreSQL. PGlite has no timers
 * to outlast (see above): there a stall longer than the pool's wait shows nothing fails, and the
 * file costs ~1.5 s of busy loop instead of ~7.5 s.
 */
const STALL_MS = usingPostgres() ? 2_500 : 600;

/**
 * Holds the loop for `ms` from a check-phase callback, as a request computing in a handler does
 * from an I/O callback: when it ends, the loop's next turn runs the expired timers first and only
 * then reads the sockets, where the database's answers have been waiting.
 */
function stallEventLoop(ms: number): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // a request computing, holding the loop
      }
      resolve();
    }),
  );
}

/** 'ok' per query, or its error's message, marked (503) when the service would answer so. */
const settle = (queries: Promise<unknown>[]) =>
  Promise.allSettled(queries).then((results) =>
    results.map((r) =>
      r.status === 'fulfilled'
        ? 'ok'
        : `${(r.reason as Error).message}${isDatabaseUnavailable(r.reason) ? ' (503)' : ''}`,
    ),
  );

describe('database while the event loop stalls (service)', () => {
  let dataSource: DataSource;
  let schema: { drop: () => Promise<void> } | undefined;

  // On PostgreSQL a fresh pool (and schema) per test: the tests are about the pool's connections
  // and timers. PGlite has neither: one database for the file (an instance costs ~2 s).
  const perTest = usingPostgres();
  (perTest ? beforeEach : beforeAll)(async () => {
    const own = usingPostgres() ? await createTestSchema() : undefined;
    schema = own;
    await prepareEmbeddedDatabase();
    const config = testConfig(
      { DATABASE_TIMEOUT_MS: String(TIMEOUT_MS), DATABASE_POOL_SIZE: '2' },
      own?.schema,
    );
    dataSource = new DataSource({ ...buildDataSourceOptions(config), migrations: [] });
    await dataSource.initialize();
  });
  (perTest ? afterEach : afterAll)(async () => {
    await dataSource?.destroy();
    await schema?.drop();
  });

  it('queries in flight and queries waiting for a connection all answer after a stall', async () => {
    // Two connections open and idle, then six queries: two sent, four waiting for a connection.
    await Promise.all([dataSource.query('SELECT 1'), dataSource.query('SELECT 1')]);
    // Each takes 200 ms in the server: two are on the wire during the stall, answered within it.
    const queries = Array.from({ length: 6 }, (_, i) =>
      dataSource.query('SELECT $1::int AS n, pg_sleep(0.2)', [i]),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await stallEventLoop(STALL_MS);
    expect(await settle(queries)).toEqual(Array(6).fill('ok'));
  });

  it('a query answered during a stall is read, not timed out', async () => {
    await dataSource.query('SELECT 1');
    const query = dataSource.query('SELECT pg_sleep(0.2)');
    await new Promise((resolve) => setTimeout(resolve, 20)); // on the wire
    await stallEventLoop(STALL_MS);
    expect(await settle([query])).toEqual(['ok']);
  });

  it('a connection being opened during a stall is kept', async () => {
    // The pool holds one idle connection after initialize(); the second query opens another.
    const queries = [dataSource.query('SELECT 1'), dataSource.query('SELECT 2')];
    await stallEventLoop(STALL_MS);
    expect(await settle(queries)).toEqual(['ok', 'ok']);
  });
});

const describeWithPostgres = usingPostgres() ? describe : describe.skip;

describeWithPostgres('a database that does not answer still fails fast (service, PostgreSQL)', () => {
  it('is answered "unavailable" within the timeouts, stall or not', async () => {
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const schema = await createTestSchema();
    const url = new URL(process.env.DATABASE_URL!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const config = testConfig(
      { DATABASE_URL: url.toString(), DATABASE_TIMEOUT_MS: String(TIMEOUT_MS), DATABASE_POOL_SIZE: '2' },
      schema.schema,
    );
    const dataSource = new DataSource({ ...buildDataSourceOptions(config), migrations: [] });
    await dataSource.initialize();
    try {
      await dataSource.query('SELECT 1');
      proxy.stall(); // open connections freeze, new ones are accepted and never answered
      const startedAt = performance.now();
      const queries = [
        dataSource.query('SELECT 1'),
        dataSource.query('SELECT 2'),
        dataSource.query('SELECT 3'),
      ];
      expect(await settle(queries)).toEqual([
        expect.stringMatching(/\(503\)$/),
        expect.stringMatching(/\(503\)$/),
        expect.stringMatching(/\(503\)$/),
      ]);
      // The read watchdog: DATABASE_TIMEOUT_MS + 1 s, checked every 200 ms; no stall to forgive.
      expect(performance.now() - startedAt).toBeLessThan(TIMEOUT_MS + 1_000 + 200 + 500);

      // A stall during the outage changes nothing but the wait: still "unavailable".
      const late = dataSource.query('SELECT 4');
      await stallEventLoop(STALL_MS);
      expect(await settle([late])).toEqual([expect.stringMatching(/\(503\)$/)]);
    } finally {
      await proxy.stop();
      await dataSource.destroy().catch(() => undefined);
      await schema.drop();
    }
  });
});
