/**
 * TypeORM's postgres driver talks to a `pg`-shaped module: `new Pool()`, `pool.connect(cb)`,
 * `client.query()`, `pool.end()`. This adapter gives it one embedded PGlite database.
 *
 * Why not typeorm-pglite's pool: it hands the same PGlite session to every caller at once, so two
 * concurrent TypeORM transactions interleave their statements inside one backend transaction. A
 * PGlite database is a single session; here `connect` is a mutex and a second caller waits until
 * the first releases, exactly like a pg pool of size one, except that a bulk read waits behind
 * short queries (bulk-lane.ts). Results and type parsing match `pg`, so
 * entities and SQL behave the same on PGlite and on a Postgres server.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { PGlite, types, type PGliteOptions, type Results } from '@electric-sql/pglite';
import { inBulkRead } from './bulk-lane.js';
import { lockDataDirectory, unlockDataDirectory } from './data-dir-lock.js';
import { templateFor } from './pglite-template.js';

type QueryCallback = (error: Error | null, result?: unknown) => void;
type ReleaseCallback = (error?: unknown) => void;

/** Same representations as node-postgres: int8 and numeric as text, date as 'YYYY-MM-DD'. */
const PG_COMPATIBLE_PARSERS = {
  [types.INT8]: (value: string) => value,
  [types.NUMERIC]: (value: string) => value,
  [types.DATE]: (value: string) => value,
};

/** How many waiting short connections go ahead of a waiting bulk one, at most, in a row. */
export const BULK_WAITS_AT_MOST = 16;

/**
 * The one session's lock, with two lanes (bulk-lane.ts): a waiting bulk read goes after every
 * waiting short query, but after BULK_WAITS_AT_MOST of them in a row it goes next, so it is
 * never starved. Within a lane, first come first served.
 */
class LaneMutex {
  private held = false;
  private readonly short: Array<() => void> = [];
  private readonly bulk: Array<() => void> = [];
  /** Short connections granted in a row while a bulk one waited. */
  private shortInARow = 0;

  acquire(bulk: boolean): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => resolve(this.releaser());
      if (!this.held) {
        this.held = true;
        grant();
      } else (bulk ? this.bulk : this.short).push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.next();
    };
  }

  private next(): void {
    const bulkTurn =
      this.bulk.length > 0 && (this.short.length === 0 || this.shortInARow >= BULK_WAITS_AT_MOST);
    const grant = bulkTurn ? this.bulk.shift() : this.short.shift();
    if (!grant) {
      this.held = false;
      return;
    }
    // Counts the short queries that went ahead of a waiting bulk read.
    this.shortInARow = !bulkTurn && this.bulk.length > 0 ? this.shortInARow + 1 : 0;
    grant();
  }
}

/**
 * A turn of the event loop (issue 28 item 3). PGlite runs each statement synchronously on the
 * request thread, and a chain of statements (a transaction, or requests queued on the mutex one
 * after another) continues in promise callbacks alone: without a turn between statements, the
 * loop accepted no connection and answered nothing, however cheap (`/health/live`, cached
 * balances from memory), until the whole chain ended. Waiting for `setImmediate` lets the HTTP
 * server's I/O and timers run between any two statements; one costs ~10 µs on an idle loop.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

class PGliteClient extends EventEmitter {
  /** Statements sent and not yet settled: closing waits for them (each waits a turn first). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly db: PGlite) {
    super();
  }

  /** Until every statement sent so far has settled. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  query(
    sql: string,
    paramsOrCallback?: unknown[] | QueryCallback,
    maybeCallback?: QueryCallback,
  ): Promise<unknown> {
    const callback = typeof paramsOrCallback === 'function' ? paramsOrCallback : maybeCallback;
    const params = Array.isArray(paramsOrCallback) ? paramsOrCallback : undefined;
    const run: Promise<Results> = nextTurn().then(() =>
      params && params.length > 0
        ? this.db.query(sql, params, { parsers: PG_COMPATIBLE_PARSERS })
        : // Migrations send several statements in one string; only the simple protocol takes those.
          this.db
            .exec(sql, { parsers: PG_COMPATIBLE_PARSERS })
            .then((all) => all[all.length - 1] ?? { rows: [], fields: [] }),
    );
    this.pending.add(run);
    const forget = () => this.pending.delete(run);
    run.then(forget, forget);
    const shaped = run.then((result) => ({
      rows: result.rows,
      fields: result.fields,
      rowCount: result.affectedRows ?? result.rows.length,
      command: (result as { command?: string }).command,
    }));
    if (callback) {
      shaped.then(
        (r) => callback(null, r),
        (e: Error) => callback(e),
      );
    }
    return shaped;
  }
}

/**
 * Where a host that opens many embedded databases one after another may put an already compiled
 * pglite.wasm for every one of them to use: the test runner's workers do
 * (test/jest/pglite-environment.cjs), since each test file would otherwise compile its own copy
 * and V8 free the last one, a churn of wasm code that crashed a worker once (nodejs/node#64500).
 * A service opens one database and leaves it unset; PGlite then compiles and caches the module itself.
 */
export const SHARED_WASM_MODULE = Symbol.for('crypto-asset-service.pglite.wasmModule');

/**
 * Builds the `driver` module TypeORM expects, bound to one PGlite database. Nothing is opened
 * until TypeORM creates the pool (DataSource.initialize): then the data directory is locked for
 * this process (data-dir-lock.ts), created if missing (from the build's template when there is
 * one: pglite-template.ts), and opened; closing the pool closes the
 * database and releases the lock.
 */
export function createPGliteDriverModule(
  dataDir: string | undefined,
  options: PGliteOptions = {},
  lockDirectory?: string,
) {
  class Pool extends EventEmitter {
    private readonly db: PGlite;
    private readonly mutex = new LaneMutex();
    private readonly client: PGliteClient;

    constructor() {
      super();
      if (lockDirectory) lockDataDirectory(lockDirectory);
      if (dataDir) mkdirSync(dataDir, { recursive: true });
      // A directory without a cluster yet, or a database in memory, starts from the build's
      // template (pglite-template.ts).
      const template = options.loadDataDir ? undefined : templateFor(dataDir);
      // Everything in the options object: `new PGlite(undefined, options)` (an in-memory database)
      // ignores its options, and so the template; every in-memory start ran initdb and every
      // migration instead (3-5 s a test file).
      const shared = (globalThis as { [SHARED_WASM_MODULE]?: PGliteOptions['pgliteWasmModule'] })[
        SHARED_WASM_MODULE
      ];
      this.db = new PGlite({
        ...(shared ? { pgliteWasmModule: shared } : {}),
        ...options,
        ...(dataDir ? { dataDir } : {}),
        ...(template ? { loadDataDir: template } : {}),
      });
      this.client = new PGliteClient(this.db);
    }

    connect(callback: (error: Error | null, client?: PGliteClient, release?: ReleaseCallback) => void): void {
      const bulk = inBulkRead(); // asked now, in the caller's context
      this.db.waitReady
        .then(() => this.mutex.acquire(bulk))
        .then(
          (unlock) => {
            let released = false;
            callback(null, this.client, () => {
              if (!released) {
                released = true;
                unlock();
              }
            });
          },
          (error: Error) => callback(error),
        );
    }

    query(sql: string, params?: unknown[] | QueryCallback, cb?: QueryCallback): Promise<unknown> {
      return this.client.query(sql, params, cb);
    }

    /**
     * Runs `fn` on the raw PGlite session while holding the connection, like any pool client: no
     * TypeORM transaction can be open meanwhile and none starts until `fn` settles (the job queue's
     * adapter, src/modules/jobs/job-queue-db.ts, sends pg-boss's multi-statement blocks this way).
     */
    async exclusive<T>(fn: (db: PGlite) => Promise<T>): Promise<T> {
      await this.db.waitReady;
      const unlock = await this.mutex.acquire(inBulkRead());
      try {
        return await fn(this.db);
      } finally {
        unlock();
      }
    }

    end(callback?: (error?: Error | null) => void): void {
      // A statement sent before the pool ends still runs (it waits a turn of the event loop first,
      // and PGlite refuses anything once closed).
      this.client
        .settled()
        .then(() => this.db.close())
        .then(
          () => {
            if (lockDirectory) unlockDataDirectory(lockDirectory);
            callback?.(null);
          },
          (error: Error) => callback?.(error),
        );
    }
  }

  return { Pool };
}
