/**
 * npm run cli -- tenant create <slug> [--name <name>] [--operator] | tenant list | tenant get <slug>
 * npm run cli -- client create --tenant <slug> [--scopes partner,admin] [--client-id <id>]
 * npm run cli -- client list [--tenant <slug>]
 * npm run cli -- client rotate|disable|enable <clientId> [--tenant <slug>]
 * Every command takes --json (one JSON object per line) or --table; without either, a table on a
 * terminal and JSON lines otherwise (output.ts). The commands call the services the admin API
 * calls (TenantsService, ClientsService), so both refuse and allow the same things.
 */
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import {
  CLIENT_SCOPES,
  ClientsService,
  type ClientSummary,
  type IssuedSecret,
} from '../modules/tenancy/index.js';
import type { ClientScope } from '../modules/tenancy/index.js';
import type { TenantEntity } from '../modules/tenancy/index.js';
import { TenantsService } from '../modules/tenancy/index.js';
import { outputFormat, printRows, type Columns, type OutputOptions } from './output.js';

const SECRET_NOTICE = 'Store the clientSecret now: it is not shown again.';

/** --json and --table, on every tenant and client command. */
abstract class OutputCommand extends CommandRunner {
  @Option({
    flags: '--json',
    description: 'One JSON object per line (the default when stdout is not a terminal)',
  })
  parseJson(): boolean {
    return true;
  }

  @Option({ flags: '--table', description: 'An aligned table (the default on a terminal)' })
  parseTable(): boolean {
    return true;
  }
}

const TENANT_COLUMNS: Columns<TenantEntity> = [
  ['slug', (t) => t.slug],
  ['name', (t) => t.name],
  ['kind', (t) => t.kind],
  ['sandbox', (t) => t.isSandbox],
  ['tenantId', (t) => t.id],
  ['created', (t) => t.createdAt],
];

const tenantJson = (t: TenantEntity) => ({
  tenantId: t.id,
  slug: t.slug,
  name: t.name,
  kind: t.kind,
  sandbox: t.isSandbox,
});

const CLIENT_COLUMNS: Columns<ClientSummary> = [
  ['clientId', (c) => c.clientId],
  ['tenant', (c) => c.tenant],
  ['scopes', (c) => c.scopes],
  ['disabled', (c) => c.disabled],
  ['lastUsed', (c) => c.lastUsedAt],
  ['rotated', (c) => c.secretRotatedAt],
  ['created', (c) => c.createdAt],
];

const clientJson = (c: ClientSummary) => ({
  clientId: c.clientId,
  tenant: c.tenant,
  tenantId: c.tenantId,
  scopes: c.scopes,
  disabled: c.disabled,
  createdAt: c.createdAt.toISOString(),
  lastUsedAt: c.lastUsedAt?.toISOString() ?? null,
  secretRotatedAt: c.secretRotatedAt?.toISOString() ?? null,
});

const ISSUED_COLUMNS: Columns<IssuedSecret> = [
  ['clientId', (i) => i.clientId],
  ['scopes', (i) => i.scopes],
  ['clientSecret', (i) => i.clientSecret],
];

@SubCommand({ name: 'create', arguments: '<slug>', description: 'Create a tenant (an advisory firm)' })
export class TenantCreateCommand extends OutputCommand {
  constructor(private readonly tenants: TenantsService) {
    super();
  }

  async run([slug]: string[], options: OutputOptions & { name?: string; operator?: boolean }): Promise<void> {
    const format = outputFormat(options);
    const tenant = await this.tenants.createTenant(
      slug!,
      options.name ?? slug!,
      options.operator ? 'operator' : 'partner',
    );
    printRows(
      format,
      [tenant],
      (t) => ({ tenantId: t.id, slug: t.slug, name: t.name, kind: t.kind }),
      TENANT_COLUMNS,
    );
  }

  @Option({ flags: '--name <name>', description: 'Display name' })
  parseName(value: string): string {
    return value;
  }

  @Option({
    flags: '--operator',
    description: "The operator's own tenant: holds the admin clients, never partner data",
  })
  parseOperator(): boolean {
    return true;
  }
}

@SubCommand({ name: 'list', description: 'List tenants' })
export class TenantListCommand extends OutputCommand {
  constructor(private readonly tenants: TenantsService) {
    super();
  }

  async run(_args: string[], options: OutputOptions): Promise<void> {
    const format = outputFormat(options);
    printRows(format, await this.tenants.list(), tenantJson, TENANT_COLUMNS);
  }
}

@SubCommand({ name: 'get', arguments: '<slug>', description: 'Show one tenant' })
export class TenantGetCommand extends OutputCommand {
  constructor(private readonly tenants: TenantsService) {
    super();
  }

  async run([slug]: string[], options: OutputOptions): Promise<void> {
    const format = outputFormat(options);
    printRows(format, [await this.tenants.get(slug!)], tenantJson, TENANT_COLUMNS);
  }
}

@Command({
  name: 'tenant',
  description: 'Manage tenants',
  subCommands: [TenantCreateCommand, TenantListCommand, TenantGetCommand],
})
export class TenantCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help({ error: true }); // a group without a subcommand is a usage error (exit 1)
  }
}

@SubCommand({ name: 'create', description: 'Create an API client; prints its secret once' })
export class ClientCreateCommand extends OutputCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run(
    _args: string[],
    options: OutputOptions & { tenant: string; scopes?: ClientScope[]; clientId?: string },
  ): Promise<void> {
    const format = outputFormat(options);
    const issued = await this.clients.createClient(options.tenant, options.scopes, options.clientId);
    printRows(format, [issued], (i) => i, ISSUED_COLUMNS);
    console.error(SECRET_NOTICE);
  }

  @Option({ flags: '--tenant <slug>', description: 'Tenant slug', required: true })
  parseTenant(value: string): string {
    return value;
  }

  @Option({
    flags: '--scopes <list>',
    description:
      'Comma-separated: partner,admin (default: admin in an operator tenant, partner elsewhere; admin only in an operator tenant)',
  })
  parseScopes(value: string): ClientScope[] {
    const scopes = value.split(',').map((s) => s.trim());
    const unknown = scopes.filter((s) => !CLIENT_SCOPES.includes(s as ClientScope));
    if (unknown.length)
      throw new Error(`Unknown scope(s): ${unknown.join(', ')}; allowed: ${CLIENT_SCOPES.join(', ')}`);
    return scopes as ClientScope[];
  }

  @Option({ flags: '--client-id <id>', description: 'Client id (default: generated)' })
  parseClientId(value: string): string {
    return value;
  }
}

@SubCommand({ name: 'list', description: 'List API clients (one tenant or all); never a secret' })
export class ClientListCommand extends OutputCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run(_args: string[], options: OutputOptions & { tenant?: string }): Promise<void> {
    const format = outputFormat(options);
    printRows(format, await this.clients.listClients(options.tenant), clientJson, CLIENT_COLUMNS);
  }

  @Option({ flags: '--tenant <slug>', description: 'Tenant slug (default: all tenants)' })
  parseTenant(value: string): string {
    return value;
  }
}

/** A command on one client: `--tenant` makes a client of another tenant "not found", as the API does. */
abstract class OneClientCommand extends OutputCommand {
  @Option({ flags: '--tenant <slug>', description: 'Only if the client belongs to this tenant' })
  parseTenant(value: string): string {
    return value;
  }
}

@SubCommand({
  name: 'rotate',
  arguments: '<clientId>',
  description: 'Rotate a client secret; prints the new secret once',
})
export class ClientRotateCommand extends OneClientCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run([clientId]: string[], options: OutputOptions & { tenant?: string }): Promise<void> {
    const format = outputFormat(options);
    const issued = await this.clients.rotateSecret(clientId!, { tenant: options.tenant });
    printRows(format, [issued], (i) => i, ISSUED_COLUMNS);
    console.error(`${SECRET_NOTICE} The old secret no longer works.`);
  }
}

@SubCommand({
  name: 'disable',
  arguments: '<clientId>',
  description: 'Disable a client; its live tokens stop working',
})
export class ClientDisableCommand extends OneClientCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run([clientId]: string[], options: OutputOptions & { tenant?: string }): Promise<void> {
    const format = outputFormat(options);
    const client = await this.clients.setDisabled(clientId!, true, { tenant: options.tenant });
    printRows(format, [client], (c) => ({ clientId: c.clientId, disabled: c.disabled }), CLIENT_COLUMNS);
  }
}

@SubCommand({ name: 'enable', arguments: '<clientId>', description: 'Re-enable a disabled client' })
export class ClientEnableCommand extends OneClientCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run([clientId]: string[], options: OutputOptions & { tenant?: string }): Promise<void> {
    const format = outputFormat(options);
    const client = await this.clients.setDisabled(clientId!, false, { tenant: options.tenant });
    printRows(format, [client], (c) => ({ clientId: c.clientId, disabled: c.disabled }), CLIENT_COLUMNS);
  }
}

@Command({
  name: 'client',
  description: 'Manage API clients',
  subCommands: [
    ClientCreateCommand,
    ClientListCommand,
    ClientRotateCommand,
    ClientDisableCommand,
    ClientEnableCommand,
  ],
})
export class ClientCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help({ error: true }); // a group without a subcommand is a usage error (exit 1)
  }
}

export const TENANCY_COMMANDS = [
  TenantCommand,
  TenantCreateCommand,
  TenantListCommand,
  TenantGetCommand,
  ClientCommand,
  ClientCreateCommand,
  ClientListCommand,
  ClientRotateCommand,
  ClientDisableCommand,
  ClientEnableCommand,
];
