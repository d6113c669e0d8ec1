/**
 * The admin CLI (npm run cli -- ...) as real processes (dist/src/cli.js), on one database of this
 * file's own and beside the built service (dist/src/main.js) on that database:
 * - the service sees what the CLI wrote (a client created by the CLI gets a token);
 * - one process per embedded PGlite data directory (issue 13 item 4): two processes on one
 *   directory would each keep their own copy of the database in memory and lose each other's
 *   writes, so the service and the CLI take an exclusive lock on DATA_DIR: a second process is
 *   refused with one sentence naming the directory and exits 75, and a lock left by a killed
 *   process does not block. With DATABASE_URL there is no lock.
 * Then the CLI's own surface (issue 13 item 5): help, version and usage errors without a database.
 *
 * What the commands do (tenants, clients, tables and JSON lines, secrets printed once, rotate /
 * disable / enable, accounts create / import / list) runs in-process on a real database in
 * test/services/admin-cli.service.spec.ts: every CLI command here is a process that loads the
 * application and opens the database (2-4 s on a loaded 2-core host).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSION } from '../src/version.js';
import { databaseEnv, DIST_CLI, DIST_MAIN, freeFixedPort, run, startService } from './support/process.js';
import { usingPostgres } from './support/test-database.js';

const onPGlite = usingPostgres() ? it.skip : it;

describe('admin CLI on one database, beside the service (e2e)', () => {
  let db: Awaited<ReturnType<typeof databaseEnv>>;
  beforeAll(async () => {
    db = await databaseEnv();
  });
  afterAll(() => db.cleanup());

  const cli = (...args: string[]) =>
    run(DIST_CLI, args, { ...db.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', SANDBOX: 'false' });
  const serviceEnv = () => ({ ...db.env, SANDBOX: 'false', LOG_LEVEL: 'silent' });
  const token = (base: string, clientId: string, secret: string) =>
    fetch(`${base}/v1/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId, clientSecret: secret }),
    }).then((r) => r.status);
  const createAccount = (tenant: string, identity: string) => [
    'accounts',
    'create',
    '--tenant',
    tenant,
    '--platform',
    'robinhood',
    '--identity',
    identity,
    '--source',
    'csv',
  ];

  it('the service sees what the CLI wrote; beside it a CLI command and a second service are refused on PGlite and write nothing, and work with DATABASE_URL', async () => {
    expect((await cli('tenant', 'create', 'acme', '--name', 'Acme Advisors')).code).toBe(0);
    const created = await cli('client', 'create', '--tenant', 'acme', '--client-id', 'acme-app');
    expect(created.code).toBe(0);
    const secret = JSON.parse(created.stdout).clientSecret as string;

    const up = await startService(serviceEnv());
    try {
      expect(await token(up.base, 'acme-app', secret)).toBe(200);
      expect(await token(up.base, 'acme-app', `${secret}x`)).toBe(401);

      if (usingPostgres()) {
        // No lock with DATABASE_URL: the CLI works beside the running service.
        const beside = await cli(...createAccount('acme', 'while-up'));
        expect(beside.code).toBe(0);
        expect(JSON.parse(beside.stdout)).toMatchObject({ tenant: 'acme', identity: 'while-up' });
      } else {
        const dataDir = db.env.DATA_DIR!;
        const refused = await cli(...createAccount('acme', 'while-up'));
        expect(refused.code).toBe(75);
        expect(refused.stdout).toBe('');
        expect(refused.stderr.trim().split('\n')).toEqual([
          `DATA_DIR ${dataDir} is in use by another process (pid ${up.child.pid}): stop it first, ` +
            "use the running service's admin API (/admin/accounts) instead, or run both against one PostgreSQL with DATABASE_URL.",
        ]);

        // A second service on the same directory is refused the same way (and never listens).
        const second = await run(
          DIST_MAIN,
          [],
          { ...serviceEnv(), PORT: String(await freeFixedPort()) },
          30_000,
        );
        expect(second.code).toBe(75);
        expect(second.stderr).toContain(`DATA_DIR ${dataDir} is in use by another process`);
        expect(second.stdout).toBe('');
      }
      up.child.kill('SIGTERM');
      await up.exited;
    } finally {
      up.child.kill('SIGKILL');
    }
    // The refused command wrote nothing; the directory is free again and the CLI works.
    const listed = await cli('accounts', 'list', '--tenant', 'acme');
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n').filter(Boolean)).toHaveLength(usingPostgres() ? 1 : 0);
  }, 180_000);

  onPGlite(
    'a lock left by a killed service (SIGKILL) does not block the next process',
    async () => {
      const service = await startService(serviceEnv());
      service.child.kill('SIGKILL');
      expect(await service.exited).toBe('SIGKILL');
      // The dead holder's lock file is still there: the next process must see it is stale.
      expect(existsSync(join(db.env.DATA_DIR!, 'pglite.lock'))).toBe(true);

      const tenant = await cli('tenant', 'create', 'after-crash');
      expect(tenant.code).toBe(0);
      expect(JSON.parse(tenant.stdout)).toMatchObject({ slug: 'after-crash' });
      // The CLI released the lock on exit: the service starts again.
      const again = await startService(serviceEnv());
      again.child.kill('SIGTERM');
      await again.exited;
    },
    180_000,
  );
});

/**
 * The CLI's own surface (issue 13, item 5): help and version answer without a database, a
 * malformed id names the argument (never SQL), a missing file is one sentence; exit codes are
 * 0 for success and non-zero for errors (README, Admin CLI). src/cli/program.spec.ts holds the
 * parsing itself, in-process; a missing import file: test/services/admin-cli.service.spec.ts.
 */
describe('CLI usage and errors (e2e)', () => {
  let dir: string;
  // The API's spelling, as /api/status and the OpenAPI document say it (issue 31 item 1).
  const version = API_VERSION;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cli-usage-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Embedded database in a directory that does not exist yet: a command that opens the database
  // creates it, one that must not leaves it absent.
  const cli = (...args: string[]) =>
    run(DIST_CLI, args, { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: join(dir, 'data') });

  it('--help (of the CLI and of a command) and --version exit 0 and create no database', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cli \[options\] \[command\]/);
    expect(help.stdout).toMatch(/accounts +Manage linked accounts/);
    expect(help.stderr).toBe('');

    const accountsHelp = await cli('accounts', 'import', '--help');
    expect(accountsHelp.code).toBe(0);
    expect(accountsHelp.stdout).toMatch(/^Usage: cli accounts import \[options\] <accountId> <file>/);

    const shown = await cli('--version');
    expect(shown).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(version).toBe('2026.04.1');

    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('an unknown command, or a command group without its subcommand, is a usage error (exit 1) without a database', async () => {
    const unknown = await cli('bogus');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe("error: unknown command 'bogus'");
    const group = await cli('accounts');
    expect(group.code).toBe(1);
    expect(group.stdout).toBe('');
    expect(group.stderr).toMatch(/^Usage: cli accounts \[options\] \[command\]/);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('a non-UUID account id is an error naming the argument, without SQL on stdout or stderr', async () => {
    for (const args of [
      ['accounts', 'import', 'not-a-uuid', join(dir, 'any.csv')],
      ['accounts', 'refresh', '123'],
    ]) {
      const result = await cli(...args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim()).toBe(`accountId must be a UUID (got "${args[2]}").`);
    }
    // Refused before the database is opened.
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });
});
