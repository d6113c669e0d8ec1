/**
 * Opening the database at start-up: a server that cannot be reached yet (starting, restarting,
 * a network not up) is retried, each failed attempt logged in one line with its cause; a server
 * that refuses the configured credentials is a configuration error: said once, not retried
 * (the same DATABASE_URL is refused the same way ten times), and the service exits 78.
 */
import { DataDirectoryLockedError } from './data-dir-lock.js';

/**
 * SQLSTATEs that retrying cannot cure (PostgreSQL appendix A): class 28, invalid authorization
 * (28000: the role does not exist or pg_hba.conf has no entry for it; 28P01: wrong password), and
 * 42501, insufficient privilege (no CONNECT on the database, no rights on the schema). 3D000 (the
 * database does not exist) is not among them: during a restore or a first deployment it appears
 * a little later, which is what the retries are for.
 */
const CONFIGURATION_SQLSTATES = new Set(['42501']);

/** node-postgres refuses locally when the server asks for a password DATABASE_URL does not give. */
const MISSING_PASSWORD = /^SASL: .*client password must be a string/;

export function isConfigurationRefusal(error: unknown): boolean {
  const { code, message } = fieldsOf(error);
  if (code !== undefined && (code.startsWith('28') || CONFIGURATION_SQLSTATES.has(code))) return true;
  return MISSING_PASSWORD.test(message);
}

/** The credentials or rights in DATABASE_URL are refused: the service exits 78 (EX_CONFIG). */
export class DatabaseConfigurationError extends Error {
  override name = 'DatabaseConfigurationError';

  constructor(
    readonly code: string | undefined,
    readonly reason: string,
  ) {
    super(`DATABASE_URL: the database refused the connection: ${withCode(reason, code)}.`);
    // The sentence is the whole story; where it was thrown from says nothing more.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Where the lines go (Nest's Logger in the service; a recorder in tests). */
export interface StartupLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly attempts: number;
  readonly delayMs: number;
  readonly log: StartupLog;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Start-up's policy: ten attempts three seconds apart (TypeORM's own defaults, kept). */
export const START_ATTEMPTS = 10;
export const START_RETRY_DELAY_MS = 3_000;

/**
 * Runs `open` until it succeeds, at most `attempts` times. Every failure is one line naming its
 * cause (the driver's message and code, never only a stack trace); a configuration refusal stops
 * at once with DatabaseConfigurationError; a held data directory passes through untouched (it
 * does not free itself, and its own error says who holds it).
 */
export async function openWithRetries<T>(open: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const sleep = policy.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await open();
    } catch (error) {
      if (error instanceof DataDirectoryLockedError) throw error;
      const { code, message } = fieldsOf(error);
      const fields = { cause: { ...(code !== undefined ? { code } : {}), message } };
      if (isConfigurationRefusal(error)) {
        policy.log.error(
          fields,
          `The database refused the connection: ${withCode(message, code)}. A configuration error (check the role, password and database in DATABASE_URL): not retried.`,
        );
        throw new DatabaseConfigurationError(code, message);
      }
      const cause = code && !message.includes(code) ? `${message} (${code})` : message;
      const where = `Cannot open the database (attempt ${attempt} of ${policy.attempts}): ${cause}`;
      if (attempt >= policy.attempts) {
        policy.log.error(fields, `${where}; giving up.`);
        throw error;
      }
      policy.log.warn(fields, `${where}; retrying in ${Math.round(policy.delayMs / 1000)} s.`);
      await sleep(policy.delayMs);
    }
  }
}

function withCode(message: string, code: string | undefined): string {
  return code ? `${message} (SQLSTATE ${code})` : message;
}

/** Duck-typed: socket errors come from Node's realm, pg errors carry `code` (a SQLSTATE or errno name). */
function fieldsOf(error: unknown): { code: string | undefined; message: string } {
  if (typeof error !== 'object' || error === null) return { code: undefined, message: String(error) };
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  // Node's AggregateError (every address of a host refused) has an empty message; its parts say why.
  if ((typeof message !== 'string' || message === '') && Array.isArray(errors) && errors.length > 0) {
    return fieldsOf(errors[0]);
  }
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' && message !== '' ? message : String(error),
  };
}
