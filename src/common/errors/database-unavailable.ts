/** Recognises "the database is unreachable or overloaded" so callers answer 503, not 500 or 401. */
const DATABASE_UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout|the database system is (starting up|shutting down)|terminating connection|Client has encountered a connection error|PGlite is closed/i;

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
  if (
    typeof code === 'string' &&
    ['57P01', '57P02', '57P03', '57014', '08000', '08001', '08003', '08006', 'ECONNREFUSED'].includes(code)
  )
    return true;
  return (
    (typeof message === 'string' && DATABASE_UNAVAILABLE.test(message)) ||
    (driverError !== undefined && driverError !== error && isDatabaseUnavailable(driverError))
  );
}
