import {
  DatabaseConfigurationError,
  isConfigurationRefusal,
  openWithRetries,
  type StartupLog,
} from './database-startup.js';
import { DataDirectoryLockedError } from './data-dir-lock.js';

/** A pg error as node-postgres makes it from the server's ErrorResponse. */
const pgError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: 'FATAL' });
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function recorder() {
  const lines: { level: 'warn' | 'error'; fields: Record<string, unknown>; msg: string }[] = [];
  const log: StartupLog = {
    warn: (fields, msg) => lines.push({ level: 'warn', fields, msg }),
    error: (fields, msg) => lines.push({ level: 'error', fields, msg }),
  };
  return { lines, log };
}

describe('isConfigurationRefusal', () => {
  it.each([
    ['28000', 'role "nosuchrole" does not exist'],
    ['28P01', 'password authentication failed for user "app"'],
    ['42501', 'permission denied for database "app"'],
  ])('SQLSTATE %s (%s) is a configuration error', (code, message) => {
    expect(isConfigurationRefusal(pgError(code, message))).toBe(true);
  });

  it('a password the server asks for and DATABASE_URL lacks is one too', () => {
    expect(
      isConfigurationRefusal(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string')),
    ).toBe(true);
  });

  it.each([
    ['an unreachable server', refused()],
    ['a server starting up', pgError('57P03', 'the database system is starting up')],
    ['a missing database (being created or restored)', pgError('3D000', 'database "app" does not exist')],
    ['too many connections', pgError('53300', 'sorry, too many clients already')],
  ])('%s is not: it may pass', (_name, error) => {
    expect(isConfigurationRefusal(error)).toBe(false);
  });
});

describe('openWithRetries', () => {
  const sleep = () => Promise.resolve();

  it('names the cause in one line at each failed attempt, and retries until it opens', async () => {
    const { lines, log } = recorder();
    let calls = 0;
    const opened = await openWithRetries(
      () => (++calls < 3 ? Promise.reject(refused()) : Promise.resolve('open')),
      { attempts: 10, delayMs: 3000, log, sleep },
    );
    expect(opened).toBe('open');
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' } },
        msg: 'Cannot open the database (attempt 1 of 10): connect ECONNREFUSED 127.0.0.1:5432; retrying in 3 s.',
      },
      {
        level: 'warn',
        fields: { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' } },
        msg: 'Cannot open the database (attempt 2 of 10): connect ECONNREFUSED 127.0.0.1:5432; retrying in 3 s.',
      },
    ]);
  });

  it('gives up after the last attempt with the cause', async () => {
    const { lines, log } = recorder();
    await expect(
      openWithRetries(() => Promise.reject(refused()), { attempts: 3, delayMs: 10, log, sleep }),
    ).rejects.toThrow('connect ECONNREFUSED');
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn', 'error']);
    expect(lines[2]!.msg).toBe(
      'Cannot open the database (attempt 3 of 3): connect ECONNREFUSED 127.0.0.1:5432; giving up.',
    );
  });

  it('stops at the first refusal of the role, a configuration error (exit 78)', async () => {
    const { lines, log } = recorder();
    let calls = 0;
    const open = () => {
      calls += 1;
      return Promise.reject(pgError('28000', 'role "nosuchrole" does not exist'));
    };
    const failure = await openWithRetries(open, { attempts: 10, delayMs: 3000, log, sleep }).catch(
      (e: unknown) => e,
    );
    expect(calls).toBe(1);
    expect(failure).toBeInstanceOf(DatabaseConfigurationError);
    expect((failure as Error).message).toBe(
      'DATABASE_URL: the database refused the connection: role "nosuchrole" does not exist (SQLSTATE 28000).',
    );
    expect(lines).toEqual([
      {
        level: 'error',
        fields: { cause: { code: '28000', message: 'role "nosuchrole" does not exist' } },
        msg: 'The database refused the connection: role "nosuchrole" does not exist (SQLSTATE 28000). A configuration error (check the role, password and database in DATABASE_URL): not retried.',
      },
    ]);
  });

  it('passes a held data directory through at once (it does not free itself)', async () => {
    const { lines, log } = recorder();
    const held = new DataDirectoryLockedError('./data', undefined, './data/.lock');
    await expect(
      openWithRetries(() => Promise.reject(held), { attempts: 10, delayMs: 1, log, sleep }),
    ).rejects.toBe(held);
    expect(lines).toEqual([]);
  });
});
