import { Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { InstanceSecretEntity } from './instance-secret.entity.js';
import { InstanceSecretsService } from './instance-secrets.service.js';

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

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => buildDataSourceOptions(config),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await migrate(dataSource, !('url' in options! && options.url));
        return dataSource;
      },
    }),
    TypeOrmModule.forFeature([InstanceSecretEntity]),
  ],
  providers: [InstanceSecretsService],
  exports: [InstanceSecretsService],
})
export class DatabaseModule {}
