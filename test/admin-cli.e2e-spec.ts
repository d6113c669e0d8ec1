/**
 * The accounts CLI (npm run cli -- accounts ...), run as a real process against its own
 * database: create an account, import a CSV (all or nothing, errors by line), list with state.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { csvOf, simpleHistory } from './factories/accounts.factory.js';
import { createTestSchema, usingPostgres } from './support/test-app.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../dist/src/cli.js', import.meta.url));

describe('accounts CLI (e2e)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let dropSchema: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'accounts-cli-'));
    const schema = usingPostgres() ? await createTestSchema() : undefined;
    dropSchema = schema?.drop;
    env = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ...(schema
        ? { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: schema.schema }
        : { DATA_DIR: join(dir, 'data') }),
    };
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropSchema?.();
  });

  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

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
  });
});
