import { isUUID } from 'class-validator';
import type { CommanderError } from 'commander';
import { IMPORT_FORMATS } from '../modules/sources/index.js';
import { CLIENT_SCOPES } from '../modules/tenancy/index.js';
import {
  buildProgram,
  CLI_CLIENT_SCOPES,
  CLI_IMPORT_FORMATS,
  isUuid,
  type CommandName,
  type CommandOptions,
} from './program.js';

/**
 * The CLI's command tree in-process (no child process, no application): what a command line
 * parses into, and the values refused while parsing. test/admin-cli.e2e-spec.ts runs the built
 * CLI for the same surface as a process (exit codes, streams, no database created).
 */
async function parse(...argv: string[]) {
  const calls: [CommandName, string[], CommandOptions][] = [];
  let stdout = '';
  let stderr = '';
  const program = buildProgram({
    version: '1.2.3',
    run: async (name, args, options) => {
      calls.push([name, args, options]);
    },
  });
  // Commander throws instead of exiting, on every command of the tree.
  const quiet = (command: typeof program) => {
    command
      .exitOverride()
      .configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
    command.commands.forEach(quiet);
  };
  quiet(program);
  let error: unknown;
  await program.parseAsync(['node', '/app/dist/src/cli.js', ...argv]).catch((e: unknown) => (error = e));
  return { calls, stdout, stderr, error: error as (Error & Partial<CommanderError>) | undefined };
}

describe('CLI program (arguments, no application)', () => {
  it('lists the scopes and import formats the tenancy and sources modules define', () => {
    expect(CLI_CLIENT_SCOPES).toEqual(CLIENT_SCOPES);
    expect(CLI_IMPORT_FORMATS).toEqual(IMPORT_FORMATS);
  });

  it('takes the account ids class-validator takes (isUUID, all versions)', () => {
    const samples = [
      '0b7c4b8e-8f3a-4f57-9a57-3c1b1f8f2a10',
      '0B7C4B8E-8F3A-4F57-9A57-3C1B1F8F2A10',
      '6ba7b810-9dad-11d1-80b4-00c04fd430c8', // v1
      '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', // v7
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '0b7c4b8e-8f3a-0f57-9a57-3c1b1f8f2a10', // version 0
      '0b7c4b8e-8f3a-4f57-7a57-3c1b1f8f2a10', // not the RFC variant
      '0b7c4b8e8f3a4f579a573c1b1f8f2a10',
      '0b7c4b8e-8f3a-4f57-9a57-3c1b1f8f2a1',
      ' 0b7c4b8e-8f3a-4f57-9a57-3c1b1f8f2a10',
      'not-a-uuid',
      '123',
      '',
    ];
    for (const value of samples) expect([value, isUuid(value)]).toEqual([value, isUUID(value, 'all')]);
  });

  it('hands a parsed command its name, operands as typed and options to run', async () => {
    expect(
      (await parse('client', 'create', '--tenant', 'acme', '--scopes', 'partner, admin', '--client-id', 'a1'))
        .calls,
    ).toEqual([['client create', [], { tenant: 'acme', scopes: ['partner', 'admin'], clientId: 'a1' }]]);
    expect((await parse('tenant', 'create', 'ops', '--operator', '--json')).calls).toEqual([
      ['tenant create', ['ops'], { operator: true, json: true }],
    ]);
    const id = '0B7C4B8E-8F3A-4F57-9A57-3C1B1F8F2A10';
    expect((await parse('accounts', 'import', id, 'f.csv', '--format', 'kraken-ledgers')).calls).toEqual([
      ['accounts import', [id, 'f.csv'], { format: 'kraken-ledgers' }],
    ]);
    expect(
      (
        await parse(
          ...['accounts', 'create', '--tenant', 't', '--platform', 'p', '--identity', 'i', '--source', 'csv'],
          ...['--credentials-json', '{"apiKey":"k"}'],
        )
      ).calls,
    ).toEqual([
      [
        'accounts create',
        [],
        { tenant: 't', platform: 'p', identity: 'i', source: 'csv', credentialsJson: { apiKey: 'k' } },
      ],
    ]);
  });

  it('refuses a bad value while parsing, with one sentence, and runs nothing', async () => {
    const refused = async (argv: string[], message: string) => {
      const result = await parse(...argv);
      expect(result.calls).toEqual([]);
      expect(result.error?.message).toBe(message);
    };
    await refused(
      ['client', 'create', '--tenant', 'acme', '--scopes', 'root'],
      'Unknown scope(s): root; allowed: partner, admin',
    );
    await refused(['accounts', 'refresh', '123'], 'accountId must be a UUID (got "123").');
    await refused(
      ['accounts', 'import', '0b7c4b8e-8f3a-4f57-9a57-3c1b1f8f2a10', 'f.csv', '--format', 'xls'],
      '--format must be one of csv, coinbase, kraken-ledgers, kraken-trades, gemini, bitstamp',
    );
    const create = ['accounts', 'create', '--tenant', 't', '--platform', 'p', '--identity', 'i'];
    for (const json of ['nope', '[1]', '{"a":1}'])
      await refused(
        [...create, '--source', 'csv', '--credentials-json', json],
        '--credentials-json must be a JSON object of strings',
      );
  });

  it('leaves help, version and usage errors to commander, with their statuses, and runs nothing', async () => {
    const help = await parse('--help');
    expect([help.error?.exitCode, help.calls]).toEqual([0, []]);
    expect(help.stdout).toMatch(/^Usage: cli \[options\] \[command\]\n/);
    expect(help.stdout).toMatch(
      /\n {2}tenant +Manage tenants\n {2}client +Manage API clients\n {2}accounts +Manage linked accounts\n/,
    );
    const version = await parse('--version');
    expect([version.error?.exitCode, version.stdout, version.calls]).toEqual([0, '1.2.3\n', []]);
    const unknown = await parse('bogus');
    expect([unknown.error?.exitCode, unknown.stderr, unknown.calls]).toEqual([
      1,
      "error: unknown command 'bogus'\n",
      [],
    ]);
    const missing = await parse('client', 'create');
    expect([missing.error?.exitCode, missing.stderr]).toEqual([
      1,
      "error: required option '--tenant <slug>' not specified\n",
    ]);
    const group = await parse('tenant');
    expect([group.error?.exitCode, group.stdout, group.calls]).toEqual([1, '', []]);
    expect(group.stderr).toMatch(/^Usage: cli tenant \[options\] \[command\]\n/);
  });
});
