import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { ClientsService } from '../modules/tenancy/clients.service.js';
import { TenantsService } from '../modules/tenancy/tenants.service.js';
import type { ClientScope } from '../modules/tenancy/entities/api-client.entity.js';

const SCOPES: readonly ClientScope[] = ['partner', 'admin'];

@SubCommand({ name: 'create', arguments: '<slug>', description: 'Create a tenant (an advisory firm)' })
export class TenantCreateCommand extends CommandRunner {
  constructor(private readonly tenants: TenantsService) {
    super();
  }

  async run([slug]: string[], options: { name?: string; operator?: boolean }): Promise<void> {
    const tenant = await this.tenants.createTenant(
      slug!,
      options.name ?? slug!,
      options.operator ? 'operator' : 'partner',
    );
    console.log(
      JSON.stringify({ tenantId: tenant.id, slug: tenant.slug, name: tenant.name, kind: tenant.kind }),
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
export class TenantListCommand extends CommandRunner {
  constructor(private readonly tenants: TenantsService) {
    super();
  }

  async run(): Promise<void> {
    for (const t of await this.tenants.list())
      console.log(
        JSON.stringify({ tenantId: t.id, slug: t.slug, name: t.name, kind: t.kind, sandbox: t.isSandbox }),
      );
  }
}

@Command({
  name: 'tenant',
  description: 'Manage tenants',
  subCommands: [TenantCreateCommand, TenantListCommand],
})
export class TenantCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help({ error: true }); // a group without a subcommand is a usage error (exit 1)
  }
}

@SubCommand({ name: 'create', description: 'Create an API client; prints its secret once' })
export class ClientCreateCommand extends CommandRunner {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run(
    _args: string[],
    options: { tenant: string; scopes?: ClientScope[]; clientId?: string },
  ): Promise<void> {
    const issued = await this.clients.createClient(options.tenant, options.scopes, options.clientId);
    console.log(JSON.stringify(issued));
    console.error('Store the clientSecret now: it is not shown again.');
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
    const unknown = scopes.filter((s) => !SCOPES.includes(s as ClientScope));
    if (unknown.length)
      throw new Error(`Unknown scope(s): ${unknown.join(', ')}; allowed: ${SCOPES.join(', ')}`);
    return scopes as ClientScope[];
  }

  @Option({ flags: '--client-id <id>', description: 'Client id (default: generated)' })
  parseClientId(value: string): string {
    return value;
  }
}

@SubCommand({
  name: 'rotate',
  arguments: '<clientId>',
  description: 'Rotate a client secret; prints the new secret once',
})
export class ClientRotateCommand extends CommandRunner {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run([clientId]: string[]): Promise<void> {
    console.log(JSON.stringify(await this.clients.rotateSecret(clientId!)));
    console.error('Store the clientSecret now: it is not shown again. The old secret no longer works.');
  }
}

@SubCommand({
  name: 'disable',
  arguments: '<clientId>',
  description: 'Disable a client; its live tokens stop working',
})
export class ClientDisableCommand extends CommandRunner {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run([clientId]: string[]): Promise<void> {
    await this.clients.setDisabled(clientId!, true);
    console.log(JSON.stringify({ clientId, disabled: true }));
  }
}

@SubCommand({ name: 'enable', arguments: '<clientId>', description: 'Re-enable a disabled client' })
export class ClientEnableCommand extends CommandRunner {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  async run([clientId]: string[]): Promise<void> {
    await this.clients.setDisabled(clientId!, false);
    console.log(JSON.stringify({ clientId, disabled: false }));
  }
}

@Command({
  name: 'client',
  description: 'Manage API clients',
  subCommands: [ClientCreateCommand, ClientRotateCommand, ClientDisableCommand, ClientEnableCommand],
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
  ClientCommand,
  ClientCreateCommand,
  ClientRotateCommand,
  ClientDisableCommand,
  ClientEnableCommand,
];
