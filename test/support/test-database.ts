/**
 * The test databases' plain facts, without the application: which backend a run uses, a private
 * Postgres schema, the sandbox's credentials. Process tests (test/support/process.ts and the files
 * that spawn dist/) import these from here, so that Jest does not load the whole application into
 * each of them only to read an environment variable; test-app.ts re-exports them.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const SANDBOX = {
  partner: { clientId: 'sandbox-client', secret: 'sandbox-secret' },
  admin: { clientId: 'sandbox-admin', secret: 'sandbox-admin-secret' },
  tenantB: { clientId: 'sandbox-b-client', secret: 'sandbox-b-secret' },
} as const;

export const usingPostgres = (): boolean => !!process.env.DATABASE_URL;

/** A private schema on the Postgres server, created now and dropped by the returned function. */
export async function createTestSchema(): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      // The job queue's tables (AppConfig.jobsSchema), when the suite used it.
      await client.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
      await client.end();
    },
  };
}
