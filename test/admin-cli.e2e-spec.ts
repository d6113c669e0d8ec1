/**
 * The accounts CLI (npm run cli -- accounts ...), run as a real process against its own
 * database: create an account, import a CSV (all or nothing, errors by line), list with state.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { csvOf, simpleHistory } from './factories/accounts.factory.js';
import { databaseEnv, DIST_CLI, run } from './support/process.js';

describe('accounts CLI (e2e)', () => {
  let dir: string;
  let db: Awaited<ReturnType<typeof databaseEnv>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'accounts-cli-'));
    db = await databaseEnv();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.cleanup();
  });

  const cli = (...args: string[]) =>
    run(DIST_CLI, args, { ...db.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' });

  it('creates an account, imports a CSV all-or-nothing, and lists it as synced', async () => {
    expect((await cli('tenant', 'create', 'cli-firm', '--name', 'CLI Firm')).code).toBe(0);
    const created = await cli(
      'accounts',
      'create',
      '--tenant',
      'cli-firm',
      '--platform',
      'robinhood',
      '--identity',
      'cli-1',
      '--source',
      'csv',
    );
    expect(created.code).toBe(0);
    const account = JSON.parse(created.stdout);
    expect(account).toMatchObject({ tenant: 'cli-firm', syncStatus: 'syncing', source: 'csv' });

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

    const listed = await cli('accounts', 'list', '--tenant', 'cli-firm');
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
    // Five CLI processes, each starting Nest and PGlite: 57 s measured on a loaded 2-core machine.
  }, 180_000);
});

/**
 * The CLI's own surface (issue 13, item 5): help and version answer without a database, a
 * malformed id names the argument (never SQL), a missing file is one sentence; exit codes are
 * 0 for success and non-zero for errors (README, Admin CLI).
 */
describe('CLI usage and errors (e2e)', () => {
  let dir: string;
  const version = (
    JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as {
      version: string;
    }
  ).version;

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
    expect(version).toMatch(/^\d+\.\d+\.\d+/);

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
