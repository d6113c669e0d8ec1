/**
 * npm run cli -- accounts list [--tenant <slug>]
 * npm run cli -- accounts create --tenant <slug> --platform <p> --identity <id> --source csv [--address <a> --chain <c>] [--credentials-json '{...}']
 * npm run cli -- accounts import <accountId> <file.csv>      (progress bar on stderr, summary on stdout)
 * npm run cli -- accounts refresh <accountId>
 * Output: one JSON object per line on stdout; messages and progress on stderr. <accountId> must be
 * a UUID (checked while parsing, program.ts).
 */
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import cliProgress from 'cli-progress';
import { readFile } from 'node:fs/promises';
import { ClockModule } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { AccountsModule, AccountsService, toAdminAccount } from '../modules/accounts/index.js';
import { SandboxSeedRegistry } from '../modules/sandbox/index.js';
import type { CommandName } from './program.js';
import type { CommandAction } from './tenancy.commands.js';

async function accountsList(app: INestApplicationContext, _args: string[], options: { tenant?: string }) {
  const accounts = app.get(AccountsService);
  let cursor: string | undefined;
  do {
    const page = await accounts.adminList(options.tenant, 200, cursor);
    for (const account of page.accounts)
      console.log(
        JSON.stringify(toAdminAccount(account, page.tenants.get(account.tenantId) ?? account.tenantId)),
      );
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

interface CreateOptions {
  tenant: string;
  platform: string;
  identity: string;
  source: string;
  address?: string;
  chain?: string;
  /** `--credentials-json`, parsed (commander names an option's value after its long flag). */
  credentialsJson?: Record<string, string>;
}

async function accountsCreate(app: INestApplicationContext, _args: string[], options: CreateOptions) {
  const accounts = app.get(AccountsService);
  const tenantId = await accounts.partnerTenantIdOf(options.tenant);
  const account = await accounts.create(
    tenantId,
    {
      platform: options.platform,
      identity: options.identity,
      source: options.source,
      address: options.address,
      chain: options.chain,
      credentials: options.credentialsJson,
    },
    app.get(AppConfig).sandboxEnabled,
  );
  console.log(JSON.stringify(toAdminAccount(account, options.tenant)));
}

/** The file's text, or one sentence naming the file and why it cannot be read. */
async function readInputFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (error as Error).message;
    throw new Error(`Cannot read ${file}: ${reason}.`);
  }
}

async function accountsImport(
  app: INestApplicationContext,
  [accountId, file]: string[],
  options: { format?: string } = {},
) {
  const accounts = app.get(AccountsService);
  const csv = await readInputFile(file!);
  const account = await accounts.adminFind(accountId!);
  const estimatedRows = Math.max(0, csv.split('\n').filter((line) => line.trim() !== '').length - 1);
  const bar = new cliProgress.SingleBar(
    {
      format: '{phase} [{bar}] {value}/{total} rows',
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(estimatedRows, 0, { phase: 'checking' });
  try {
    const summary = await accounts.importCsv(
      account.tenantId,
      account.id,
      csv,
      {
        parsed: (rows) => bar.update(Math.min(rows, estimatedRows)),
        written: (rows, total) => {
          if (rows === 0 || bar.getTotal() !== total) bar.setTotal(total);
          bar.update(rows, { phase: 'writing ' });
        },
      },
      options.format,
    );
    bar.update(summary.rows, { phase: 'done    ' });
    bar.stop();
    console.log(JSON.stringify({ accountId: account.id, ...summary }));
  } catch (error) {
    bar.stop();
    throw error;
  }
}

async function accountsRefresh(app: INestApplicationContext, [accountId]: string[]) {
  const accounts = app.get(AccountsService);
  const { account, outcome } = await accounts.adminRefresh(accountId!);
  console.log(
    JSON.stringify({
      ...outcome,
      account: toAdminAccount(account, await accounts.tenantSlugOf(account.tenantId)),
    }),
  );
}

/** The account commands (their arguments and options: program.ts). */
export const COMMANDS: Partial<Record<CommandName, CommandAction>> = {
  'accounts list': accountsList,
  'accounts create': accountsCreate,
  'accounts import': accountsImport,
  'accounts refresh': accountsRefresh,
};

/**
 * What the API's modules expect from the application shell, without its background work: the
 * CLI never seeds the sandbox (seed steps register, nobody runs them) and never runs schedulers
 * (SchedulerRegistry without ScheduleModule's explorer, and SCHEDULER_ENABLED off for this
 * process, so schedulers that register jobs themselves skip it).
 */
@Global()
@Module({
  providers: [
    SandboxSeedRegistry,
    {
      provide: SchedulerRegistry,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        config.SCHEDULER_ENABLED = false;
        return new SchedulerRegistry();
      },
    },
  ],
  exports: [SandboxSeedRegistry, SchedulerRegistry],
})
class CliShellModule {}

/** What the account commands need besides the configuration and the database. */
@Module({ imports: [ClockModule.forRoot(), CliShellModule, AccountsModule] })
export class CommandsModule {}
