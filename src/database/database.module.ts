import { Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { InstanceSecretEntity } from './instance-secret.entity.js';
import { InstanceSecretsService } from './instance-secrets.service.js';
import { DataDirectoryLockedError } from './data-dir-lock.js';

/** Any fixed 64-bit number: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 7_204_119_001;

/** Runs pending migrations; on a Postgres server under an advisory lock so N instances can start at once. */
export async function migrate(dataSource: DataSource, embedded: boolean): Promise<void> {
  const logger = new Logger('Migrations');
  if (embedded) {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (applied.length) logger.log(`Applied ${applied.map((m) => m.name).join(', ')}`);
    return;
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (applied.length) logger.log(`Applied ${applied.map((m) => m.name).join(', ')}`);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}

/** Opens the data source and applies pending migrations; a no-op once open. */
export async function openDatabase(dataSource: DataSource): Promise<DataSource> {
  if (dataSource.isInitialized) return dataSource;
  await dataSource.initialize();
  await migrate(dataSource, !(dataSource.options as { url?: string }).url);
  return dataSource;
}

/**
 * Provided (true) by the CLI, which opens the database only when a command runs (openDatabase),
 * so `--help`, `--version` and usage errors never create, lock or migrate anything. Without it
 * the database is opened, and migrated, while the application starts.
 */
export const OPEN_DATABASE_ON_DEMAND = Symbol('OPEN_DATABASE_ON_DEMAND');

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, { token: OPEN_DATABASE_ON_DEMAND, optional: true }],
      useFactory: (config: AppConfig, onDemand?: boolean) => ({
        ...buildDataSourceOptions(config),
        // A data directory held by another process does not free itself within the retries.
        toRetry: (error: unknown) => !(error instanceof DataDirectoryLockedError),
        // The CLI reports failures itself; TypeORM's own log would put SQL on its stdout.
        ...(onDemand ? { manualInitialization: true, logging: false } : {}),
      }),
      dataSourceFactory: async (options) => {
        const dataSource = new DataSource(options!);
        return (options as { manualInitialization?: boolean }).manualInitialization
          ? dataSource
          : openDatabase(dataSource);
      },
    }),
    TypeOrmModule.forFeature([InstanceSecretEntity]),
  ],
  providers: [InstanceSecretsService],
  exports: [InstanceSecretsService],
})
export class DatabaseModule {}

/** Imported beside DatabaseModule by the CLI: see OPEN_DATABASE_ON_DEMAND. */
@Global()
@Module({
  providers: [{ provide: OPEN_DATABASE_ON_DEMAND, useValue: true }],
  exports: [OPEN_DATABASE_ON_DEMAND],
})
export class OpenDatabaseOnDemandModule {}
