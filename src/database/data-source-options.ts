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
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { createPGliteDriverModule } from './pglite-driver.js';
import { lockDataDirectory } from './data-dir-lock.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

// node-postgres parses DATE into a local-midnight Date; keep the calendar date as text instead.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

/**
 * node-postgres gives up on a query after `query_timeout` but leaves it active on the connection
 * and the client goes back to the pool as if healthy. Behind a silent network (a partition that
 * drops packets, a failover behind the same address) everything queued on that client afterwards,
 * first the ROLLBACK of the failed transaction, waited for the same dead socket: a write took
 * twice the timeout, and clients stuck this way kept failing requests after the database was
 * back. This client closes its connection on a read timeout instead: what is queued behind fails
 * at once ("Connection terminated", a 503) and the pool replaces the client.
 */
export class FailFastClient extends pg.Client {
  override query(...args: unknown[]): never {
    const result: unknown = (super.query as (...a: unknown[]) => unknown).apply(this, args);
    if (isThenable(result)) {
      result.then(undefined, (error: unknown) => {
        if ((error as { message?: unknown } | null)?.message === 'Query read timeout')
          this.connection.stream.destroy();
      });
    }
    return result as never;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

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
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      connectTimeoutMS: config.DATABASE_TIMEOUT_MS,
      extra: {
        // Fail fast when Postgres is gone or slow instead of hanging requests.
        statement_timeout: config.DATABASE_TIMEOUT_MS,
        query_timeout: config.DATABASE_TIMEOUT_MS + 1000,
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
 * Takes this process's exclusive lock on the embedded data directory (data-dir-lock.ts), or throws
 * DataDirectoryLockedError; nothing to lock with DATABASE_URL or in memory. Opening the database
 * takes it anyway; entry points call this first to refuse with one sentence before doing anything.
 */
export function lockEmbeddedDataDirectory(config: DatabaseConfig): void {
  if (!config.DATABASE_URL && config.DATA_DIR !== 'memory') lockDataDirectory(config.DATA_DIR);
}
