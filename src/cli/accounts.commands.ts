/**
 * npm run cli -- accounts list [--tenant <slug>]
 * npm run cli -- accounts create --tenant <slug> --platform <p> --identity <id> --source csv [--address <a> --chain <c>] [--credentials-json '{...}']
 * npm run cli -- accounts import <accountId> <file.csv>      (progress bar on stderr, summary on stdout)
 * npm run cli -- accounts refresh <accountId>
 * Output: one JSON object per line on stdout; messages and progress on stderr. <accountId> must be
 * a UUID (checked while parsing, command-lifecycle.ts).
 */
import { Global, Module } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import cliProgress from 'cli-progress';
import { readFile } from 'node:fs/promises';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { ClockModule } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { AccountsModule, AccountsService, toAdminAccount } from '../modules/accounts/index.js';
import { SandboxSeedRegistry } from '../modules/sandbox/index.js';
import { IMPORT_FORMATS } from '../modules/sources/index.js';

@SubCommand({ name: 'list', description: 'List accounts with their state (one tenant or all)' })
export class AccountsListCommand extends CommandRunner {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  async run(_args: string[], options: { tenant?: string }): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = await this.accounts.adminList(options.tenant, 200, cursor);
      for (const account of page.accounts)
        console.log(
          JSON.stringify(toAdminAccount(account, page.tenants.get(account.tenantId) ?? account.tenantId)),
        );
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  @Option({ flags: '--tenant <slug>', description: 'Tenant slug (default: all tenants)' })
  parseTenant(value: string): string {
    return value;
  }
}

interface CreateOptions {
  tenant: string;
  platform: string;
  identity: string;
  source: string;
  address?: string;
  chain?: string;
  credentials?: Record<string, string>;
}

@SubCommand({ name: 'create', description: 'Link an account for a tenant (starts syncing)' })
export class AccountsCreateCommand extends CommandRunner {
  constructor(
    private readonly accounts: AccountsService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_args: string[], options: CreateOptions): Promise<void> {
    const tenantId = await this.accounts.partnerTenantIdOf(options.tenant);
    const account = await this.accounts.create(
      tenantId,
      {
        platform: options.platform,
        identity: options.identity,
        source: options.source,
        address: options.address,
        chain: options.chain,
        credentials: options.credentials,
      },
      this.config.sandboxEnabled,
    );
    console.log(JSON.stringify(toAdminAccount(account, options.tenant)));
  }

  @Option({ flags: '--tenant <slug>', description: 'Tenant slug', required: true })
  parseTenant(value: string): string {
    return value;
  }

  @Option({ flags: '--platform <platform>', description: 'Source platform, e.g. coinbase', required: true })
  parsePlatform(value: string): string {
    return value;
  }

  @Option({
    flags: '--identity <identity>',
    description: "The partner's identifier for the account",
    required: true,
  })
  parseIdentity(value: string): string {
    return value;
  }

  @Option({ flags: '--source <source>', description: 'csv, or sandbox outside production', required: true })
  parseSource(value: string): string {
    return value;
  }

  @Option({ flags: '--address <address>', description: 'On-chain address (with --chain)' })
  parseAddress(value: string): string {
    return value;
  }

  @Option({ flags: '--chain <chain>', description: 'Chain of the address: bitcoin, ethereum' })
  parseChain(value: string): string {
    return value;
  }

  @Option({
    flags: '--credentials-json <json>',
    description: 'Connector credentials as a JSON object of strings (stored encrypted)',
  })
  parseCredentials(value: string): Record<string, string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error('--credentials-json must be a JSON object of strings');
    }
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      !Object.values(parsed).every((v) => typeof v === 'string')
    )
      throw new Error('--credentials-json must be a JSON object of strings');
    return parsed as Record<string, string>;
  }
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

@SubCommand({
  name: 'import',
  arguments: '<accountId> <file>',
  description:
    'Import a CSV file (docs/csv-format.md) or an exchange export (docs/sources.md, "Export files") into a csv account: all rows or none',
})
export class AccountsImportCommand extends CommandRunner {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  @Option({
    flags: '--format <format>',
    description: `The file's format (${IMPORT_FORMATS.join(', ')}); default: detected from its header row`,
  })
  parseFormat(value: string): string {
    if (!(IMPORT_FORMATS as readonly string[]).includes(value))
      throw new Error(`--format must be one of ${IMPORT_FORMATS.join(', ')}`);
    return value;
  }

  async run([accountId, file]: string[], options: { format?: string } = {}): Promise<void> {
    const csv = await readInputFile(file!);
    const account = await this.accounts.adminFind(accountId!);
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
      const summary = await this.accounts.importCsv(
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
}

@SubCommand({
  name: 'refresh',
  arguments: '<accountId>',
  description: 'Refresh an account from its source now',
})
export class AccountsRefreshCommand extends CommandRunner {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  async run([accountId]: string[]): Promise<void> {
    const { account, outcome } = await this.accounts.adminRefresh(accountId!);
    console.log(
      JSON.stringify({
        ...outcome,
        account: toAdminAccount(account, await this.accounts.tenantSlugOf(account.tenantId)),
      }),
    );
  }
}

@Command({
  name: 'accounts',
  description: 'Manage linked accounts',
  subCommands: [AccountsListCommand, AccountsCreateCommand, AccountsImportCommand, AccountsRefreshCommand],
})
export class AccountsCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help({ error: true }); // a group without a subcommand is a usage error (exit 1)
  }
}

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

/** Everything the account commands need, for CliModule's imports. */
@Module({
  imports: [ClockModule.forRoot(), CliShellModule, AccountsModule],
  providers: [
    AccountsCommand,
    AccountsListCommand,
    AccountsCreateCommand,
    AccountsImportCommand,
    AccountsRefreshCommand,
  ],
})
export class AccountsCliModule {}
