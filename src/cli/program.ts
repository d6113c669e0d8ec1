/**
 * The CLI's commands, arguments and options, and nothing else: commander alone, no Nest, no
 * database, no configuration. `--help`, `--version` and usage errors are answered from this tree
 * (commander exits before any action runs), so they never load the application; a command that
 * parses hands its name, arguments and options to `run`, which loads what that command needs
 * (src/cli/run-command.ts, imported only then).
 *
 * Flags, descriptions and the order of the options are those the CLI always had, so its help reads
 * the same. Argument and option values are checked here, while parsing: a malformed account id, an
 * unknown scope or format, bad --credentials-json stop the command before the database is opened.
 */
import { Argument, Command, Option } from 'commander';

/** Leaf commands by their path: `tenant create`, `client list`, `accounts import`, … */
export type CommandName =
  | 'tenant create'
  | 'tenant list'
  | 'tenant get'
  | 'client create'
  | 'client list'
  | 'client rotate'
  | 'client disable'
  | 'client enable'
  | 'accounts list'
  | 'accounts create'
  | 'accounts import'
  | 'accounts refresh';

/** Parsed options of a command: commander's `opts()`. */
export type CommandOptions = Record<string, unknown>;

/** Runs a parsed command (commander's `args`: the operands as typed, and its options). */
export type RunCommand = (name: CommandName, args: string[], options: CommandOptions) => Promise<void>;

/**
 * The scopes a client may hold and the import formats, as the tenancy and sources modules define
 * them (CLIENT_SCOPES, IMPORT_FORMATS). Written out here so that parsing and help load neither
 * module; src/cli/program.spec.ts fails when either list changes without this one.
 */
export const CLI_CLIENT_SCOPES = ['partner', 'admin'] as const;
export const CLI_IMPORT_FORMATS = [
  'csv',
  'coinbase',
  'kraken-ledgers',
  'kraken-trades',
  'gemini',
  'bitstamp',
] as const;

interface OptionSpec {
  flags: string;
  description: string;
  required?: boolean;
  /** Checks or converts the value while parsing; a throw ends the command with its message. */
  parse?: (value: string) => unknown;
}

interface CommandSpec {
  name: string;
  arguments?: string;
  description: string;
  options?: readonly OptionSpec[];
}

/** --json and --table, on every tenant and client command (after the command's own options). */
const OUTPUT_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '--json',
    description: 'One JSON object per line (the default when stdout is not a terminal)',
  },
  { flags: '--table', description: 'An aligned table (the default on a terminal)' },
];

/** `--tenant` on a command for one client: a client of another tenant is "not found", as the API does. */
const ONE_CLIENT_OPTIONS: readonly OptionSpec[] = [
  { flags: '--tenant <slug>', description: 'Only if the client belongs to this tenant' },
  ...OUTPUT_OPTIONS,
];

function parseScopes(value: string): string[] {
  const scopes = value.split(',').map((s) => s.trim());
  const allowed: readonly string[] = CLI_CLIENT_SCOPES;
  const unknown = scopes.filter((s) => !allowed.includes(s));
  if (unknown.length)
    throw new Error(`Unknown scope(s): ${unknown.join(', ')}; allowed: ${CLI_CLIENT_SCOPES.join(', ')}`);
  return scopes;
}

function parseCredentials(value: string): Record<string, string> {
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

function parseFormat(value: string): string {
  if (!(CLI_IMPORT_FORMATS as readonly string[]).includes(value))
    throw new Error(`--format must be one of ${CLI_IMPORT_FORMATS.join(', ')}`);
  return value;
}

/**
 * A UUID as class-validator's `isUUID(value, 'all')` (validator.js) accepts it: versions 1-8 with
 * the RFC variant, the nil and the max UUID, any case. program.spec.ts holds the two together.
 */
const UUID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** Positional arguments checked by name in every command, while parsing (before the database). */
const ARGUMENT_PARSERS: Record<string, (value: string) => string> = {
  accountId: (value) => {
    if (!isUuid(value)) throw new Error(`accountId must be a UUID (got "${value}").`);
    return value.toLowerCase();
  },
};

const GROUPS: ReadonlyArray<{ name: string; description: string; commands: readonly CommandSpec[] }> = [
  {
    name: 'tenant',
    description: 'Manage tenants',
    commands: [
      {
        name: 'create',
        arguments: '<slug>',
        description: 'Create a tenant (an advisory firm)',
        options: [
          { flags: '--name <name>', description: 'Display name' },
          {
            flags: '--operator',
            description: "The operator's own tenant: holds the admin clients, never partner data",
          },
          ...OUTPUT_OPTIONS,
        ],
      },
      { name: 'list', description: 'List tenants', options: OUTPUT_OPTIONS },
      { name: 'get', arguments: '<slug>', description: 'Show one tenant', options: OUTPUT_OPTIONS },
    ],
  },
  {
    name: 'client',
    description: 'Manage API clients',
    commands: [
      {
        name: 'create',
        description: 'Create an API client; prints its secret once',
        options: [
          { flags: '--tenant <slug>', description: 'Tenant slug', required: true },
          {
            flags: '--scopes <list>',
            description:
              'Comma-separated: partner,admin (default: admin in an operator tenant, partner elsewhere; admin only in an operator tenant)',
            parse: parseScopes,
          },
          { flags: '--client-id <id>', description: 'Client id (default: generated)' },
          ...OUTPUT_OPTIONS,
        ],
      },
      {
        name: 'list',
        description: 'List API clients (one tenant or all); never a secret',
        options: [
          { flags: '--tenant <slug>', description: 'Tenant slug (default: all tenants)' },
          ...OUTPUT_OPTIONS,
        ],
      },
      {
        name: 'rotate',
        arguments: '<clientId>',
        description: 'Rotate a client secret; prints the new secret once',
        options: ONE_CLIENT_OPTIONS,
      },
      {
        name: 'disable',
        arguments: '<clientId>',
        description: 'Disable a client; its live tokens stop working',
        options: ONE_CLIENT_OPTIONS,
      },
      {
        name: 'enable',
        arguments: '<clientId>',
        description: 'Re-enable a disabled client',
        options: ONE_CLIENT_OPTIONS,
      },
    ],
  },
  {
    name: 'accounts',
    description: 'Manage linked accounts',
    commands: [
      {
        name: 'list',
        description: 'List accounts with their state (one tenant or all)',
        options: [{ flags: '--tenant <slug>', description: 'Tenant slug (default: all tenants)' }],
      },
      {
        name: 'create',
        description: 'Link an account for a tenant (starts syncing)',
        options: [
          { flags: '--tenant <slug>', description: 'Tenant slug', required: true },
          { flags: '--platform <platform>', description: 'Source platform, e.g. coinbase', required: true },
          {
            flags: '--identity <identity>',
            description: "The partner's identifier for the account",
            required: true,
          },
          { flags: '--source <source>', description: 'csv, or sandbox outside production', required: true },
          { flags: '--address <address>', description: 'On-chain address (with --chain)' },
          {
            flags: '--chain <chain>',
            description: 'Chain of the address: bitcoin, ethereum, base, arbitrum, optimism, polygon, solana',
          },
          {
            flags: '--credentials-json <json>',
            description: 'Connector credentials as a JSON object of strings (stored encrypted)',
            parse: parseCredentials,
          },
        ],
      },
      {
        name: 'import',
        arguments: '<accountId> <file>',
        description:
          'Import a CSV file (docs/csv-format.md) or an exchange export (docs/sources.md, "Export files") into a csv account: all rows or none',
        options: [
          {
            flags: '--format <format>',
            description: `The file's format (${CLI_IMPORT_FORMATS.join(', ')}); default: detected from its header row`,
            parse: parseFormat,
          },
        ],
      },
      {
        name: 'refresh',
        arguments: '<accountId>',
        description: 'Refresh an account from its source now',
      },
    ],
  },
];

function leaf(group: string, spec: CommandSpec, run: RunCommand): Command {
  const command = new Command(spec.name);
  for (const name of spec.arguments?.split(' ') ?? []) {
    const argument = new Argument(name, '');
    const parse = ARGUMENT_PARSERS[argument.name()];
    if (parse) argument.argParser(parse);
    command.addArgument(argument);
  }
  command.description(spec.description);
  for (const option of spec.options ?? []) {
    const added = new Option(option.flags, option.description)
      .default(undefined)
      .preset(undefined)
      .makeOptionMandatory(option.required ?? false);
    // A flag without a value is `true`; a value is kept as typed unless the option checks it.
    added.argParser(option.parse ?? ((value: string | undefined) => value ?? true));
    command.addOption(added);
  }
  command.action(() => run(`${group} ${spec.name}` as CommandName, command.args, command.opts()));
  return command;
}

/**
 * The whole command tree. `run` is called for a command that parsed; commander itself prints help
 * and version (status 0) and usage errors (status 1) and exits. A command group without its
 * subcommand prints the group's help to stderr with status 1.
 */
export function buildProgram(options: { version: string; run: RunCommand }): Command {
  const program = new Command();
  for (const group of GROUPS) {
    const command = new Command(group.name).description(group.description);
    for (const spec of group.commands) command.addCommand(leaf(group.name, spec, options.run));
    command.action(() => command.help({ error: true }));
    program.addCommand(command);
  }
  program.version(options.version);
  return program;
}
