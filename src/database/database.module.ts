import { Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions, configuredSchemaOf } from './data-source-options.js';
import { InstanceSecretEntity } from './instance-secret.entity.js';
import { InstanceSecretsService } from './instance-secrets.service.js';
import { openWithRetries, START_ATTEMPTS, START_RETRY_DELAY_MS } from './database-startup.js';
import { ensureSchema } from './ensure-schema.js';

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
    await ensureSchema(lock, configuredSchemaOf(dataSource.options), logger);
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
        // The factory retries itself (openWithRetries): one line with the cause per failed
        // attempt, and none for credentials the server refuses; TypeORM's own retries log only
        // "Unable to connect" with the cause in a stack trace.
        toRetry: () => false,
        // The CLI reports failures itself; TypeORM's own log would put SQL on its stdout.
        ...(onDemand ? { manualInitialization: true, logging: false } : {}),
      }),
      dataSourceFactory: async (options) => {
        if ((options as { manualInitialization?: boolean }).manualInitialization) {
          return new DataSource(options!);
        }
        const logger = new Logger('Database');
        return openWithRetries(
          async () => {
            const dataSource = new DataSource(options!);
            try {
              return await openDatabase(dataSource);
            } catch (error) {
              if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
              throw error;
            }
          },
          {
            attempts: START_ATTEMPTS,
            delayMs: START_RETRY_DELAY_MS,
            log: { warn: (f, m) => logger.warn(f, m), error: (f, m) => logger.error(f, m) },
          },
        );
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
