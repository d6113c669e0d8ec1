/**
 * What an operator sees and runs: structured logs, security headers, token keys and their
 * rotation, the audit trail, metrics, the database going away, the admin API and the job queue's
 * admin view. One application for all of these suites (test/e2e/README.md), seeded at
 * 2026-03-15T12:00Z (admin-api's market refresh expects the store current on its clock's day),
 * logging at info into `logs` from its first line, with the configuration the suites asked for
 * each on an app of their own: two JWT keys (hardening-tokens), a 20 ms audit read flush (audit),
 * a simulation pool of 2 + 3 (metrics), request limits out of the way (database-unavailable,
 * admin-api). None of these changes what another suite here checks.
 *
 * Order matters: logging first (it counts the seed's log lines and checks every line so far);
 * security-headers before any other suite reads coinbase-main's balances (its first read must take
 * the route, the second the fast path); audit before the suites that make many requests (it reads
 * the whole audit table, under its 1000-entry page, and prunes it all in the end).
 */
import { useE2eWorld } from '../support/e2e-world.js';
import { logs } from './operations/log-capture.js';
import './operations/logging.cases.js';
import './operations/security-headers.cases.js';
import { JWT_PRIVATE_KEYS } from './operations/hardening-tokens.cases.js';
import './operations/audit.cases.js';
import './operations/metrics.cases.js';
import './operations/database-unavailable.cases.js';
import './operations/admin-api.cases.js';
import './operations/admin-queues.cases.js';

useE2eWorld({
  sandbox: true,
  startAt: new Date('2026-03-15T12:00:00.000Z'),
  logs,
  overrides: {
    LOG_LEVEL: 'info',
    JWT_PRIVATE_KEYS,
    AUDIT_READ_FLUSH_MS: '20',
    SIMULATION_WORKERS: '2',
    SIMULATION_QUEUE: '3',
    RATE_LIMIT_PER_MINUTE: '100000',
  },
});
