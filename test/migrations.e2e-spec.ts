import 'reflect-metadata';
import { diffEntitiesAgainstMigrations } from '../src/database/schema-diff.js';
import { createTestSchema, testConfig, usingPostgres } from './support/test-app.js';

describe('migrations', () => {
  it('agree with the entities: generating a migration would yield nothing', async () => {
    const schema = usingPostgres() ? await createTestSchema() : undefined;
    try {
      const diff = await diffEntitiesAgainstMigrations(testConfig({}, schema?.schema));
      expect(diff.up).toEqual([]);
    } finally {
      await schema?.drop();
    }
  });
});
