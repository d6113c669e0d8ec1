import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions, type DatabaseConfig } from './data-source-options.js';

type EntityList = NonNullable<DataSourceOptions['entities']>;

export interface SchemaDiff {
  up: string[];
  down: string[];
}

/**
 * Applies every migration to a scratch database and asks TypeORM what the entities still need.
 * An empty diff means entities and migrations agree.
 */
export async function diffEntitiesAgainstMigrations(
  config: DatabaseConfig,
  entities?: EntityList,
): Promise<SchemaDiff> {
  const dataSource = new DataSource(buildDataSourceOptions(config, entities));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const sql = await dataSource.driver.createSchemaBuilder().log();
    return {
      up: sql.upQueries.map((q) => q.query),
      down: sql.downQueries.map((q) => q.query).reverse(),
    };
  } finally {
    await dataSource.destroy();
  }
}
