/**
 * `accounts create --credentials-json` hands the credentials to the service (it read a member
 * commander never sets, so they were dropped: a CLI-created exchange account had no credentials).
 */
import { AppConfig } from '../config/app-config.js';
import { AccountsService } from '../modules/accounts/index.js';
import { COMMANDS } from './accounts.commands.js';
import { buildProgram } from './program.js';

describe('accounts create (CLI)', () => {
  it('passes the parsed --credentials-json to AccountsService.create', async () => {
    const created: unknown[] = [];
    const app = {
      get(token: unknown) {
        if (token === AccountsService)
          return {
            partnerTenantIdOf: async () => 'tenant-1',
            create: async (_tenantId: string, input: unknown) => {
              created.push(input);
              return { id: 'a1' };
            },
          };
        if (token === AppConfig) return { sandboxEnabled: true };
        throw new Error(`unexpected ${String(token)}`);
      },
    };
    let parsed: Record<string, unknown> | undefined;
    const program = buildProgram({
      version: 'test',
      run: async (_name, _args, options) => {
        parsed = options as Record<string, unknown>;
      },
    });
    await program.parseAsync(
      [
        ...['accounts', 'create', '--tenant', 't', '--platform', 'kraken', '--identity', 'i'],
        ...['--source', 'exchange', '--credentials-json', '{"apiKey":"k","apiSecret":"s"}'],
      ],
      { from: 'user' },
    );
    // The fake's account is no full record: the printed mapping after create() may fail here; what
    // this test checks is what create() was given.
    await COMMANDS['accounts create']!(app as never, [], parsed as never).catch(() => undefined);
    expect(created).toEqual([expect.objectContaining({ credentials: { apiKey: 'k', apiSecret: 's' } })]);
  });
});
