/**
 * The one data-source definition, shared by Nest (DatabaseModule), the migration CLI and tests:
 * PGlite in DATA_DIR (or in memory) when DATABASE_URL is unset, a Postgres server otherwise.
 * Schema changes happen only through migrations; synchronize is never on.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { createPGliteDriverModule } from './pglite-driver.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

// node-postgres parses DATE into a local-midnight Date; keep the calendar date as text instead.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

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
        ...(searchPath ? { options: searchPath } : {}),
      },
    };
  }
  const inMemory = config.DATA_DIR === 'memory';
  const dataDir = inMemory ? undefined : resolve(config.DATA_DIR, 'pglite');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const { Pool } = createPGliteDriverModule(dataDir);
  return { ...common, driver: { Pool } };
}
