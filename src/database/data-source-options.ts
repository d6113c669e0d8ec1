/**
 * The one data-source definition, shared by Nest (DatabaseModule), the migration CLI and tests:
 * PGlite in DATA_DIR (or in memory) when DATABASE_URL is unset, a Postgres server otherwise.
 * An embedded DATA_DIR belongs to one process at a time (data-dir-lock.ts).
 * Schema changes happen only through migrations; synchronize is never on.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { eventLoopStalledMs, LoopTime } from '../common/clock/event-loop-stalls.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { createPGliteDriverModule } from './pglite-driver.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

// node-postgres parses DATE into a local-midnight Date; keep the calendar date as text instead.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

/**
 * node-postgres gives up on a query after `query_timeout` but leaves it active on the connection
 * and the client goes back to the pool as if healthy. Behind a silent network (a partition that
 * drops packets, a failover behind the same address) everything queued on that client afterwards,
 * first the ROLLBACK of the failed transaction, waited for the same dead socket: a write took
 * twice the timeout, and clients stuck this way kept failing requests after the database was
 * back. This client closes its connection instead when its oldest unanswered query was submitted
 * `readTimeoutMillis` ago: that query and what is queued behind it fail at once ("Connection
 * terminated", a 503) and the pool replaces the client.
 *
 * Neither node-postgres' `query_timeout` nor its promise API is used: both set a query's callback
 * after the query object was made (the timeout wraps it), and on Node 24 either made the rows of
 * every query survive young-generation collections. In a bare NestJS + pg bench at 300 req/s each
 * scavenge then copied 12-15 MB and paused for 18-24 ms, against ~0 MB and 0.5 ms with the
 * callback given at the call: the transactions page's p99 (bench/README.md, 2026-11-24). So a
 * promise-style call goes through the callback style here, and the read timeout is a watchdog:
 * the client notes when each query was submitted, and one timer for all clients looks at the
 * oldest every 200 ms (node-postgres answers a client's queries in order).
 */
export class FailFastClient extends pg.Client {
  private readonly readTimeoutMillis: number;
  /** performance.now() at each query submitted and not finished yet, oldest first. */
  private readonly submittedAt: number[] = [];
  /** eventLoopStalledMs() at each of those submissions: the stalls since then are not waiting. */
  private readonly stalledAtSubmit: number[] = [];

  constructor(config?: string | (pg.ClientConfig & { readTimeoutMillis?: number })) {
    super(config);
    this.readTimeoutMillis = typeof config === 'object' ? (config.readTimeoutMillis ?? 0) : 0;
  }

  override query(...args: unknown[]): never {
    const watched = this.readTimeoutMillis > 0;
    if (watched) this.settle();
    const result = this.submit(args);
    if (watched) {
      this.submittedAt.push(performance.now());
      this.stalledAtSubmit.push(eventLoopStalledMs());
      watchdog.add(this);
    }
    return result as never;
  }

  /**
   * Called by the watchdog: closes the connection when its oldest unfinished query was submitted
   * `readTimeoutMillis` ago or more, not counting the time the event loop was held meanwhile
   * (event-loop-stalls.ts): after a stall the watchdog runs before the socket is read, and an
   * answer that came during the stall must not be taken for silence. False once the client has
   * nothing in flight.
   */
  expireIfSilent(now: number): boolean {
    this.settle();
    const oldest = this.submittedAt[0];
    if (oldest === undefined) return false;
    const stalled = eventLoopStalledMs() - this.stalledAtSubmit[0]!;
    if (now - oldest - stalled < this.readTimeoutMillis) return true;
    this.submittedAt.length = 0;
    this.stalledAtSubmit.length = 0;
    this.connection.stream.destroy();
    return false;
  }

  private submit(args: unknown[]): unknown {
    const query = super.query as (...a: unknown[]) => unknown;
    const [config, values] = args;
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === 'function';
    if (submittable || args.some((arg) => typeof arg === 'function')) return query.apply(this, args);
    // Promise style (TypeORM's), through the callback style; the stack of an error leads back to
    // the caller, as node-postgres' own promise does.
    return new Promise((resolve, reject) => {
      query.call(this, config, values, (error: unknown, result: unknown) =>
        error ? reject(error) : resolve(result),
      );
    }).catch((error: unknown) => {
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    });
  }

  /** Forgets the submissions node-postgres is done with: it finishes a client's queries in order. */
  private settle(): void {
    const {
      _activeQuery: active,
      _queryQueue: queued,
      _sentQueryQueue: sent,
    } = this as unknown as {
      _activeQuery?: unknown;
      _queryQueue?: unknown[];
      _sentQueryQueue?: unknown[];
    };
    const inFlight = (active ? 1 : 0) + (queued?.length ?? 0) + (sent?.length ?? 0);
    while (this.submittedAt.length > inFlight) {
      this.submittedAt.shift();
      this.stalledAtSubmit.shift();
    }
  }
}

/** node-postgres' failures to get a connection within `connectionTimeoutMillis` (pool and client). */
const CONNECTION_TIMEOUT =
  /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout|timeout expired)$/;
/** A request gets a fresh wait at most this often, so repeated stalls cannot hold it for ever. */
const STALL_RETRIES = 3;

/**
 * node-postgres' pool, whose connection timeout (`connectionTimeoutMillis`: the wait for a free
 * connection, or the opening of a new one) counts only the time the event loop was free. Its
 * timers fire first thing after a stall, before the loop reads the sockets: a connection released
 * or opened during the stall was there, and the request still got "timeout exceeded when trying
 * to connect" (a 503 "The database is unavailable") from a database that was up. Such a timeout,
 * when the loop was free for less than the timeout, starts a fresh wait instead (at most
 * STALL_RETRIES times); a timeout the loop could have seen through is the database's, as before.
 */
export class StallTolerantPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (
      error: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): void;
  override connect(
    callback?: (
      error: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): Promise<pg.PoolClient> | void {
    if (!callback) {
      return new Promise((resolve, reject) =>
        this.connect((error, client) => (error ? reject(error) : resolve(client!))),
      );
    }
    const timeoutMs = this.options.connectionTimeoutMillis ?? 0;
    let retries = 0;
    const attempt = (): void => {
      const waited = new LoopTime();
      super.connect((error, client, done) => {
        if (
          error &&
          timeoutMs > 0 &&
          retries < STALL_RETRIES &&
          CONNECTION_TIMEOUT.test(error.message) &&
          waited.stalledMs() > 0 &&
          waited.elapsedMs() < timeoutMs
        ) {
          retries += 1;
          attempt();
          return;
        }
        callback(error, client, done);
      });
    };
    attempt();
  }
}

/** The pg module as TypeORM loads it, with the pool above. */
const STALL_TOLERANT_PG: typeof pg = Object.create(pg, { Pool: { value: StallTolerantPool } });

/** The clients with queries in flight, and one timer for all of them while there are any. */
const watchdog = new (class {
  private readonly clients = new Set<FailFastClient>();
  private timer: NodeJS.Timeout | undefined;

  add(client: FailFastClient): void {
    this.clients.add(client);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), 200);
      this.timer.unref();
    }
  }

  private sweep(): void {
    const now = performance.now();
    for (const client of this.clients) if (!client.expireIfSilent(now)) this.clients.delete(client);
    if (this.clients.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
})();

export type DatabaseConfig = Pick<
  AppConfig,
  'DATABASE_URL' | 'DATABASE_SCHEMA' | 'DATA_DIR' | 'DATABASE_POOL_SIZE' | 'DATABASE_TIMEOUT_MS'
>;

export function buildDataSourceOptions(
  config: DatabaseConfig,
  entities: DataSourceOptions['entities'] = ENTITIES,
): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    logging: ['error' as const],
  };
  if (config.DATABASE_URL) {
    const searchPath = config.DATABASE_SCHEMA ? `-c search_path=${config.DATABASE_SCHEMA}` : undefined;
    return {
      ...common,
      driver: STALL_TOLERANT_PG,
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      connectTimeoutMS: config.DATABASE_TIMEOUT_MS,
      extra: {
        // Fail fast when Postgres is gone or slow instead of hanging requests.
        statement_timeout: config.DATABASE_TIMEOUT_MS,
        readTimeoutMillis: config.DATABASE_TIMEOUT_MS + 1000, // FailFastClient's watchdog, not pg's query_timeout
        connectionTimeoutMillis: config.DATABASE_TIMEOUT_MS,
        Client: FailFastClient,
        ...(searchPath ? { options: searchPath } : {}),
      },
    };
  }
  const inMemory = config.DATA_DIR === 'memory';
  const dataDir = inMemory ? undefined : resolve(config.DATA_DIR, 'pglite');
  // Nothing touches the directory until the data source is initialized (the CLI's --help never is).
  const { Pool } = createPGliteDriverModule(dataDir, {}, inMemory ? undefined : config.DATA_DIR);
  return { ...common, driver: { Pool } };
}

/**
 * The schema DATABASE_SCHEMA names on a PostgreSQL server (the `search_path` buildDataSourceOptions
 * sets), or undefined: none set, or the embedded database.
 */
export function configuredSchemaOf(options: DataSourceOptions): string | undefined {
  const extra = (options as { extra?: { options?: string } }).extra;
  return /^-c search_path=([a-z_][a-z0-9_]*)$/.exec(extra?.options ?? '')?.[1];
}
