/**
 * One embedded PGlite data directory, one process (issue 13, item 4). Two processes on one PGlite
 * directory each keep their own copy of the database in memory and lose each other's writes, so
 * the service and the CLI take an exclusive lock on DATA_DIR: a second process is refused with one
 * sentence naming the directory and exits 75, and a lock left by a killed process does not block.
 * Real processes: the built service (dist/src/main.js) and CLI (dist/src/cli.js).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_CLI, DIST_MAIN, freeFixedPort, run, startService, tempDataDir } from './support/process.js';
import { createTestSchema, usingPostgres } from './support/test-database.js';

const onPGlite = usingPostgres() ? it.skip : it;
const onPostgres = usingPostgres() ? it : it.skip;

const createAccount = (identity: string) => [
  'accounts',
  'create',
  '--tenant',
  'lock-firm',
  '--platform',
  'robinhood',
  '--identity',
  identity,
  '--source',
  'csv',
];

describe('one process per embedded data directory (e2e)', () => {
  onPGlite(
    'a CLI command beside the running service is refused and writes nothing; after the service stops it works',
    async () => {
      const data = tempDataDir();
      const env = { DATA_DIR: data.dir, SANDBOX: 'false', LOG_LEVEL: 'silent' };
      const cli = (...args: string[]) => run(DIST_CLI, args, env);
      try {
        expect((await cli('tenant', 'create', 'lock-firm')).code).toBe(0);
        const service = await startService(env);
        try {
          const refused = await cli(...createAccount('while-up'));
          expect(refused.code).toBe(75);
          expect(refused.stdout).toBe('');
          const lines = refused.stderr.trim().split('\n');
          expect(lines).toEqual([
            `DATA_DIR ${data.dir} is in use by another process (pid ${service.child.pid}): stop it first, ` +
              "use the running service's admin API (/admin/accounts) instead, or run both against one PostgreSQL with DATABASE_URL.",
          ]);

          // A second service on the same directory is refused the same way (and never listens).
          const second = await run(DIST_MAIN, [], { ...env, PORT: String(await freeFixedPort()) }, 30_000);
          expect(second.code).toBe(75);
          expect(second.stderr).toContain(`DATA_DIR ${data.dir} is in use by another process`);
          expect(second.stdout).toBe('');

          service.child.kill('SIGTERM');
          await service.exited;
        } finally {
          service.child.kill('SIGKILL');
        }

        // The refused command wrote nothing; now the directory is free and the CLI works.
        const before = await cli('accounts', 'list', '--tenant', 'lock-firm');
        expect(before).toMatchObject({ code: 0, stdout: '' });
        const created = await cli(...createAccount('after-stop'));
        expect(created.code).toBe(0);
        expect(JSON.parse(created.stdout)).toMatchObject({ tenant: 'lock-firm', identity: 'after-stop' });
        const listed = await cli('accounts', 'list', '--tenant', 'lock-firm');
        expect(listed.stdout.trim().split('\n')).toHaveLength(1);
      } finally {
        data.remove();
      }
    },
    180_000,
  );

  onPGlite(
    'a lock left by a killed service (SIGKILL) does not block the next process',
    async () => {
      const data = tempDataDir();
      const env = { DATA_DIR: data.dir, SANDBOX: 'false', LOG_LEVEL: 'silent' };
      try {
        const service = await startService(env);
        service.child.kill('SIGKILL');
        expect(await service.exited).toBe('SIGKILL');
        // The dead holder's lock file is still there: the next process must see it is stale.
        expect(existsSync(join(data.dir, 'pglite.lock'))).toBe(true);

        const tenant = await run(DIST_CLI, ['tenant', 'create', 'after-crash'], env);
        expect(tenant.code).toBe(0);
        expect(JSON.parse(tenant.stdout)).toMatchObject({ slug: 'after-crash' });
        // The CLI released the lock on exit: the service starts again.
        const again = await startService(env);
        again.child.kill('SIGTERM');
        await again.exited;
      } finally {
        data.remove();
      }
    },
    180_000,
  );

  onPostgres(
    'with DATABASE_URL there is no lock: the CLI works beside the running service',
    async () => {
      const schema = await createTestSchema();
      const env = {
        DATABASE_URL: process.env.DATABASE_URL!,
        DATABASE_SCHEMA: schema.schema,
        SANDBOX: 'false',
        LOG_LEVEL: 'silent',
      };
      try {
        expect((await run(DIST_CLI, ['tenant', 'create', 'lock-firm'], env)).code).toBe(0);
        const service = await startService(env);
        try {
          const created = await run(DIST_CLI, createAccount('while-up'), env);
          expect(created.code).toBe(0);
          expect(JSON.parse(created.stdout)).toMatchObject({ tenant: 'lock-firm', identity: 'while-up' });
        } finally {
          service.child.kill('SIGTERM');
          await service.exited;
        }
      } finally {
        await schema.drop();
      }
    },
    180_000,
  );
});
