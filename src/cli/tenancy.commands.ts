/**
 * npm run cli -- tenant create <slug> [--name <name>] [--operator] | tenant list | tenant get <slug>
 * npm run cli -- client create --tenant <slug> [--scopes partner,admin] [--client-id <id>]
 * npm run cli -- client list [--tenant <slug>]
 * npm run cli -- client rotate|disable|enable <clientId> [--tenant <slug>]
 * Every command takes --json (one JSON object per line) or --table; without either, a table on a
 * terminal and JSON lines otherwise (output.ts). The commands call the services the admin API
 * calls (TenantsService, ClientsService), so both refuse and allow the same things.
 */
import { Module, type INestApplicationContext } from '@nestjs/common';
import {
  ClientsService,
  TenancyModule,
  TenantsService,
  type ClientScope,
  type ClientSummary,
  type IssuedSecret,
  type TenantEntity,
} from '../modules/tenancy/index.js';
import { outputFormat, printRows, type Columns, type OutputOptions } from './output.js';
import type { CommandName } from './program.js';

const SECRET_NOTICE = 'Store the clientSecret now: it is not shown again.';

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

/** A command's work, given the running application, its operands and its options (program.ts). */
export type CommandAction = (app: INestApplicationContext, args: string[], options: never) => Promise<void>;

type TenantOptions = OutputOptions & { name?: string; operator?: boolean };
type ClientOptions = OutputOptions & { tenant?: string };
type CreateClientOptions = OutputOptions & { tenant: string; scopes?: ClientScope[]; clientId?: string };

async function tenantCreate(app: INestApplicationContext, [slug]: string[], options: TenantOptions) {
  const format = outputFormat(options);
  const tenant = await app
    .get(TenantsService)
    .createTenant(slug!, options.name ?? slug!, options.operator ? 'operator' : 'partner');
  printRows(
    format,
    [tenant],
    (t) => ({ tenantId: t.id, slug: t.slug, name: t.name, kind: t.kind }),
    TENANT_COLUMNS,
  );
}

async function tenantList(app: INestApplicationContext, _args: string[], options: OutputOptions) {
  const format = outputFormat(options);
  printRows(format, await app.get(TenantsService).list(), tenantJson, TENANT_COLUMNS);
}

async function tenantGet(app: INestApplicationContext, [slug]: string[], options: OutputOptions) {
  const format = outputFormat(options);
  printRows(format, [await app.get(TenantsService).get(slug!)], tenantJson, TENANT_COLUMNS);
}

async function clientCreate(app: INestApplicationContext, _args: string[], options: CreateClientOptions) {
  const format = outputFormat(options);
  const issued = await app.get(ClientsService).createClient(options.tenant, options.scopes, options.clientId);
  printRows(format, [issued], (i) => i, ISSUED_COLUMNS);
  console.error(SECRET_NOTICE);
}

async function clientList(app: INestApplicationContext, _args: string[], options: ClientOptions) {
  const format = outputFormat(options);
  printRows(format, await app.get(ClientsService).listClients(options.tenant), clientJson, CLIENT_COLUMNS);
}

async function clientRotate(app: INestApplicationContext, [clientId]: string[], options: ClientOptions) {
  const format = outputFormat(options);
  const issued = await app.get(ClientsService).rotateSecret(clientId!, { tenant: options.tenant });
  printRows(format, [issued], (i) => i, ISSUED_COLUMNS);
  console.error(`${SECRET_NOTICE} The old secret no longer works.`);
}

function setDisabled(disabled: boolean) {
  return async (app: INestApplicationContext, [clientId]: string[], options: ClientOptions) => {
    const format = outputFormat(options);
    const client = await app.get(ClientsService).setDisabled(clientId!, disabled, { tenant: options.tenant });
    printRows(format, [client], (c) => ({ clientId: c.clientId, disabled: c.disabled }), CLIENT_COLUMNS);
  };
}

/** The tenant and client commands (their arguments and options: program.ts). */
export const COMMANDS: Partial<Record<CommandName, CommandAction>> = {
  'tenant create': tenantCreate,
  'tenant list': tenantList,
  'tenant get': tenantGet,
  'client create': clientCreate,
  'client list': clientList,
  'client rotate': clientRotate,
  'client disable': setDisabled(true),
  'client enable': setDisabled(false),
};

/** What the tenant and client commands need besides the configuration and the database. */
@Module({ imports: [TenancyModule] })
export class CommandsModule {}
