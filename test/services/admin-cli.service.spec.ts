/**
 * Service tier: the admin CLI's commands in-process, on a real database, as `cli.ts` runs them
 * (the same command tree from program.ts, the same actions and module groups, a failure printed
 * by the same describeError with the same exit status) but without a process and an application
 * start per command. What needs processes stays in test/admin-cli.e2e-spec.ts: the DATA_DIR lock
 * beside a running service, exit statuses and streams of the built CLI, and the service seeing
 * what the CLI wrote.
 *
 * - tenants and clients: the admin scope only for clients of an operator tenant, no accounts in
 *   one (issue 13 item 13); tables for people and JSON lines for scripts, `--tenant` on a command
 *   for one client as the admin API's `?tenant=` (issue 17 item 4);
 * - a client's secret printed once, rotate / disable / enable;
 * - accounts: create, import a CSV all-or-nothing (errors by line), list with state;
 * - a missing import file is one plain sentence naming the file.
 */
import { jest } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../src/common/clock/clock.js';
import {
  COMMANDS as ACCOUNT_COMMANDS,
  CommandsModule as AccountCommands,
} from '../../src/cli/accounts.commands.js';
import { describeError, exitCodeOf } from '../../src/cli/errors.js';
import { buildProgram, type CommandName } from '../../src/cli/program.js';
import {
  COMMANDS as TENANCY_COMMANDS,
  CommandsModule as TenancyCommands,
} from '../../src/cli/tenancy.commands.js';
import { ClientsService } from '../../src/modules/tenancy/index.js';
import { csvOf, simpleHistory } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('admin CLI commands in-process (service tier)', () => {
  let s: ServiceModule;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cli-service-'));
    s = await startServiceModule({
      imports: [TenancyCommands, AccountCommands],
      clock: new Clock(),
      prices: new FixedMarketPrices({}),
    });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One command line, as `node dist/src/cli.js ...args` would run it (stdout is not a terminal). */
  async function cli(...args: string[]): Promise<CliResult> {
    const out = { stdout: '', stderr: '' };
    const capture = [
      jest
        .spyOn(process.stdout, 'write')
        .mockImplementation((chunk) => ((out.stdout += String(chunk)), true)),
      jest
        .spyOn(process.stderr, 'write')
        .mockImplementation((chunk) => ((out.stderr += String(chunk)), true)),
      jest.spyOn(console, 'log').mockImplementation((...v: unknown[]) => (out.stdout += `${v.join(' ')}\n`)),
      jest
        .spyOn(console, 'error')
        .mockImplementation((...v: unknown[]) => (out.stderr += `${v.join(' ')}\n`)),
    ];
    const commands = { ...TENANCY_COMMANDS, ...ACCOUNT_COMMANDS };
    const program = buildProgram({
      version: 'test',
      run: (name: CommandName, commandArgs, options) =>
        commands[name]!(s.module, commandArgs, options as never),
    });
    const quiet = (command: typeof program) => {
      command.exitOverride().configureOutput({
        writeOut: (text) => (out.stdout += text),
        writeErr: (text) => (out.stderr += text),
      });
      command.commands.forEach(quiet);
    };
    quiet(program);
    let code = 0;
    try {
      await program.parseAsync(['node', 'cli.js', ...args]);
    } catch (error) {
      // cli.ts: a command's failure is one message on stderr and its status.
      console.error(describeError(error));
      code = exitCodeOf(error);
    } finally {
      for (const spy of capture) spy.mockRestore();
    }
    return { code, ...out };
  }

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

    const account = await cli(...createAccount('ops', 'ops-1'));
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
  });

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
  });

  it('creates a tenant and a client whose secret is printed once; refuses a duplicate tenant and an unknown scope; rotates, disables and enables', async () => {
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

    const duplicate = await cli('tenant', 'create', 'acme');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/already exists/);
    const badScope = await cli('client', 'create', '--tenant', 'acme', '--scopes', 'root');
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toMatch(/Unknown scope/);

    const rotated = await cli('client', 'rotate', 'acme-app');
    const secret = JSON.parse(rotated.stdout).clientSecret as string;
    expect(secret).not.toBe(issued.clientSecret);
    // What the token endpoint asks: the old secret is dead, the new one alive until disabled.
    const clients = s.get(ClientsService);
    expect(await clients.verifyCredentials('acme-app', issued.clientSecret)).toBeNull();
    expect(await clients.verifyCredentials('acme-app', secret)).not.toBeNull();
    expect(await cli('client', 'disable', 'acme-app')).toMatchObject({ code: 0 });
    expect(await clients.verifyCredentials('acme-app', secret)).toBeNull();
    expect(await cli('client', 'enable', 'acme-app')).toMatchObject({ code: 0 });
    expect(await clients.verifyCredentials('acme-app', secret)).not.toBeNull();
  });

  it('creates an account, imports a CSV all-or-nothing, and lists it as synced', async () => {
    expect(await cli('accounts', 'list', '--tenant', 'acme')).toMatchObject({ code: 0, stdout: '' });
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

    const lines = (await cli('accounts', 'list', '--tenant', 'acme')).stdout
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

  it('a missing import file is one plain sentence naming the file', async () => {
    const missing = join(dir, 'missing.csv');
    const result = await cli('accounts', 'import', '0b7c4b8e-8f3a-4f57-9a57-3c1b1f8f2a10', missing);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `Cannot read ${missing}: no such file.\n` });
  });
});
