/**
 * The admin CLI (npm run cli -- ...) as real processes (dist/src/cli.js), on one database of this
 * file's own and beside the built service (dist/src/main.js) on that database:
 * - tenants and clients: the admin scope only for clients of an operator tenant, no accounts in
 *   one (issue 13 item 13); tables for people and JSON lines for scripts, `--tenant` on a command
 *   for one client as the admin API's `?tenant=` (issue 17 item 4);
 * - a client's secret printed once, rotate / disable / enable as the service sees them;
 * - accounts: create, import a CSV all-or-nothing (errors by line), list with state;
 * - one process per embedded PGlite data directory (issue 13 item 4): two processes on one
 *   directory would each keep their own copy of the database in memory and lose each other's
 *   writes, so the service and the CLI take an exclusive lock on DATA_DIR: a second process is
 *   refused with one sentence naming the directory and exits 75, and a lock left by a killed
 *   process does not block. With DATABASE_URL there is no lock.
 * Then the CLI's own surface (issue 13 item 5): help, version and usage errors without a database.
 *
 * Every CLI command that runs is a process that loads the application and opens the database
 * (2-4 s on a loaded 2-core host), so the tests of the first describe share one database and run
 * in order, each on what the ones before it left: the operator tenant's test first (it lists every
 * tenant), the service started by the enable test is the one the lock test kills.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSION } from '../src/version.js';
import { csvOf, simpleHistory } from './factories/accounts.factory.js';
import {
  databaseEnv,
  DIST_CLI,
  DIST_MAIN,
  freeFixedPort,
  run,
  startService,
  type ServiceProcess,
} from './support/process.js';
import { usingPostgres } from './support/test-database.js';

const onPGlite = usingPostgres() ? it.skip : it;

describe('admin CLI on one database, beside the service (e2e)', () => {
  let dir: string;
  let db: Awaited<ReturnType<typeof databaseEnv>>;
  /** Left running by the enable test for the lock test, stopped in afterAll if still up. */
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'accounts-cli-'));
    db = await databaseEnv();
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    rmSync(dir, { recursive: true, force: true });
    await db.cleanup();
  });

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

  it('gives the admin scope only to clients of an operator tenant, and links no account to one', async () => {
    const partner = await cli('tenant', 'create', 'firm-a', '--name', 'Firm A');
    expect(partner.code).toBe(0);
    expect(JSON.parse(partner.stdout)).toMatchObject({ slug: 'firm-a', kind: 'partner' });
    const operator = await cli('tenant', 'create', 'ops', '--name', 'Operations', '--operator');
    expect(operator.code).toBe(0);
    expect(JSON.parse(operator.stdout)).toMatchObject({ slug: 'ops', kind: 'operator' });

    const refused = await cli('client', 'create', '--tenant', 'firm-a', '--scopes', 'partner,admin');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'The admin scope is only for clients of an operator tenant; "firm-a" is a partner tenant (create one with: tenant create <slug> --operator).',
    );

    const admin = await cli('client', 'create', '--tenant', 'ops', '--client-id', 'ops-admin');
    expect(admin.code).toBe(0);
    expect(JSON.parse(admin.stdout)).toMatchObject({ clientId: 'ops-admin', scopes: ['admin'] });
    // A partner tenant's client without --scopes gets partner: the next test (table-app).

    const account = await cli(
      'accounts',
      'create',
      '--tenant',
      'ops',
      '--platform',
      'coinbase',
      '--identity',
      'ops-1',
      '--source',
      'csv',
    );
    expect(account.code).toBe(1);
    expect(account.stderr).toContain('Tenant "ops" is an operator tenant; it holds no partner data.');

    const tenants = (await cli('tenant', 'list')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { slug: string; kind: string });
    expect(tenants.map(({ slug, kind }) => ({ slug, kind }))).toEqual([
      { slug: 'firm-a', kind: 'partner' },
      { slug: 'ops', kind: 'operator' },
    ]);
  }, 120_000);

  it('prints tables with --table, JSON lines with --json, and never a secret in a list', async () => {
    const tenant = await cli('tenant', 'create', 'table-firm', '--name', 'Table Firm', '--table');
    expect(tenant.code).toBe(0);
    const [header, row, ...rest] = tenant.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^SLUG +NAME +KIND +SANDBOX +TENANTID +CREATED$/);
    expect(row).toMatch(/^table-firm +Table Firm +partner +false +[0-9a-f-]{36} +\d{4}-\d\d-\d\dT/);
    expect(rest).toEqual([]);

    const created = await cli(
      'client',
      'create',
      '--tenant',
      'table-firm',
      '--client-id',
      'table-app',
      '--json',
    );
    expect(created.code).toBe(0);
    const issued = JSON.parse(created.stdout);
    expect(issued).toMatchObject({ clientId: 'table-app', scopes: ['partner'] });
    expect(created.stderr).toContain('Store the clientSecret now: it is not shown again.');

    const listed = await cli('client', 'list', '--tenant', 'table-firm', '--table');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CLIENTID +TENANT +SCOPES +DISABLED +LASTUSED +ROTATED +CREATED$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^table-app +table-firm +partner +false +- +- +\d{4}-/),
    ]);
    expect(listed.stdout).not.toContain(issued.clientSecret);

    const wrongTenant = await cli('client', 'rotate', 'table-app', '--tenant', 'no-such-firm');
    expect(wrongTenant.code).toBe(1);
    expect(wrongTenant.stdout).toBe('');
    expect(wrongTenant.stderr.trim()).toBe('tenant: Tenant "no-such-firm" does not exist.');
  }, 120_000);

  /** The acme client's secrets: as created, and after the rotation. */
  const secrets = { issued: '', rotated: '' };

  it('creates a tenant and a client whose secret is printed once; refuses a duplicate tenant and an unknown scope; rotates and disables', async () => {
    const tenant = await cli('tenant', 'create', 'acme', '--name', 'Acme Advisors');
    expect(tenant.code).toBe(0);
    expect(JSON.parse(tenant.stdout)).toMatchObject({
      slug: 'acme',
      name: 'Acme Advisors',
      tenantId: expect.any(String),
    });

    const created = await cli(
      'client',
      'create',
      '--tenant',
      'acme',
      '--scopes',
      'partner',
      '--client-id',
      'acme-app',
    );
    expect(created.code).toBe(0);
    const issued = JSON.parse(created.stdout);
    expect(issued).toMatchObject({
      clientId: 'acme-app',
      scopes: ['partner'],
      clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    secrets.issued = issued.clientSecret;

    const duplicate = await cli('tenant', 'create', 'acme');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/already exists/);
    const badScope = await cli('client', 'create', '--tenant', 'acme', '--scopes', 'root');
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toMatch(/Unknown scope/);

    const rotated = await cli('client', 'rotate', 'acme-app');
    secrets.rotated = JSON.parse(rotated.stdout).clientSecret;
    expect(secrets.rotated).not.toBe(secrets.issued);
    expect((await cli('client', 'disable', 'acme-app')).code).toBe(0);
  }, 120_000);

  it('the service sees what the CLI wrote; beside it a CLI command and a second service are refused on PGlite and write nothing, and work with DATABASE_URL', async () => {
    expect(secrets.rotated).not.toBe('');
    const up = await startService(serviceEnv());
    try {
      // Old secret dead, new one refused while disabled.
      expect(await token(up.base, 'acme-app', secrets.issued)).toBe(401);
      expect(await token(up.base, 'acme-app', secrets.rotated)).toBe(401);

      if (usingPostgres()) {
        // No lock with DATABASE_URL: the CLI works beside the running service.
        const created = await cli(...createAccount('firm-a', 'while-up'));
        expect(created.code).toBe(0);
        expect(JSON.parse(created.stdout)).toMatchObject({ tenant: 'firm-a', identity: 'while-up' });
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
    // The refused command wrote nothing; the directory is free again and the CLI works (next test).
    expect(await cli('accounts', 'list', '--tenant', 'acme')).toMatchObject({ code: 0, stdout: '' });
  }, 180_000);

  it('creates an account, imports a CSV all-or-nothing, and lists it as synced', async () => {
    const created = await cli(...createAccount('acme', 'cli-1'));
    expect(created.code).toBe(0);
    const account = JSON.parse(created.stdout);
    expect(account).toMatchObject({
      tenant: 'acme',
      identity: 'cli-1',
      syncStatus: 'syncing',
      source: 'csv',
    });

    const bad = join(dir, 'bad.csv');
    writeFileSync(
      bad,
      'transactionId,timestamp,symbol,direction,amount,price\nb-1,2024-01-01T00:00:00Z,BTC,buy,1,\nb-2,2024-01-01,BTC,buy,1,100\n',
    );
    const rejected = await cli('accounts', 'import', account.accountId, bad);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/line 2: price is required for buy/);
    expect(rejected.stderr).toMatch(/line 3: timestamp must be an ISO 8601 timestamp/);

    const good = join(dir, 'good.csv');
    const history = simpleHistory('cli');
    writeFileSync(good, csvOf(history));
    const imported = await cli('accounts', 'import', account.accountId, good);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({
      accountId: account.accountId,
      rows: history.length,
      inserted: history.length,
      updated: 0,
      unchanged: 0,
      format: 'csv',
    });

    const listed = await cli('accounts', 'list', '--tenant', 'acme');
    const lines = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      accountId: account.accountId,
      syncStatus: 'synced',
      balanceSource: 'calculated',
    });
    expect(JSON.stringify(lines[0])).not.toMatch(/credentials_encrypted|credentialsEncrypted/);
  }, 120_000);

  it('enable takes effect: the service gives the re-enabled client a token', async () => {
    expect(secrets.rotated).not.toBe('');
    expect((await cli('client', 'enable', 'acme-app')).code).toBe(0);
    service = await startService(serviceEnv());
    expect(await token(service.base, 'acme-app', secrets.rotated)).toBe(200);
  }, 120_000);

  onPGlite(
    'a lock left by a killed service (SIGKILL) does not block the next process',
    async () => {
      expect(service).toBeDefined();
      service!.child.kill('SIGKILL');
      expect(await service!.exited).toBe('SIGKILL');
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
 * parsing itself, in-process.
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

  it('a missing import file is one plain sentence naming the file', async () => {
    const missing = join(dir, 'missing.csv');
    const result = await cli('accounts', 'import', '0b7c4b8e-8f3a-4f57-9a57-3c1b1f8f2a10', missing);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Cannot read ${missing}: no such file.\n`);
  });
});
