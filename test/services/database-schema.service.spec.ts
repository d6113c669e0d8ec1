/**
 * DATABASE_SCHEMA naming a schema that does not exist yet (issue 31 item 4): the start creates it
 * and migrates into it, instead of failing "no schema has been selected to create in" ten times.
 * PostgreSQL only: the embedded database has no DATABASE_SCHEMA.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { openDatabase } from '../../src/database/database.module.js';
import { testConfig, usingPostgres } from '../support/test-app.js';

const describeWithPostgres = usingPostgres() ? describe : describe.skip;

async function adminQuery<T>(sql: string, parameters: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, parameters)).rows as T[];
  } finally {
    await client.end();
  }
}

describeWithPostgres('DATABASE_SCHEMA that does not exist yet (service, PostgreSQL)', () => {
  const schema = `t_new_${randomBytes(5).toString('hex')}`;
  afterAll(async () => {
    await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('is created, and the migrations run into it; a second start finds it and changes nothing', async () => {
    expect(await adminQuery('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).toEqual([]);
    const options = buildDataSourceOptions(testConfig({}, schema));
    const first = await openDatabase(new DataSource(options));
    try {
      const tables = await adminQuery<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1`,
        [schema],
      );
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['migrations', 'account', 'tenant']),
      );
      const [{ count }] = await first.query<{ count: number }[]>(
        'SELECT count(*)::int AS count FROM migrations',
      );
      expect(count).toBeGreaterThan(0);
    } finally {
      await first.destroy();
    }
    const second = await openDatabase(new DataSource(buildDataSourceOptions(testConfig({}, schema))));
    await second.destroy();
    expect(await adminQuery('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).toHaveLength(1);
  });
});
