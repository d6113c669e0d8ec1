/** Recognises "the database is unreachable or overloaded" so callers answer 503, not 500 or 401. */
const DATABASE_UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout|the database system is (starting up|shutting down)|terminating connection|Client has encountered a connection error|PGlite is closed/i;

/**
 * SQLSTATEs that say "the server cannot take this now" rather than "this query is wrong"
 * (PostgreSQL, appendix A): class 08 (connection exception), 53000/53300 (insufficient resources,
 * too many connections), 55000 (object not in prerequisite state: what PGlite and pg answer on a
 * closed or not-ready database), 57014 (statement timeout), 57P01-57P05 (shutdown, crash,
 * not accepting connections, database dropped, idle session timeout), 3D000 (database missing,
 * e.g. during a failover or restore).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '53000',
  '53300',
  '55000',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '57P04',
  '57P05',
  '3D000',
]);

/** Socket-level error codes of the driver (Node's own, not SQLSTATEs). */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
]);

function isUnavailableCode(code: string): boolean {
  return (
    UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)
  );
}

/**
 * Duck-typed, not `instanceof Error`: socket errors are created by Node's own realm (a `connect
 * ECONNREFUSED` from a VM context such as Jest's fails `instanceof Error` and became a 500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, driverError } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
  };
  if (typeof code === 'string' && isUnavailableCode(code)) return true;
  return (
    (typeof message === 'string' && DATABASE_UNAVAILABLE.test(message)) ||
    (driverError !== undefined && driverError !== error && isDatabaseUnavailable(driverError))
  );
}
