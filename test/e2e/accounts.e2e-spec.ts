/**
 * Accounts, balances, checksum, reconciliation, isolation, the admin accounts API, CSV imports
 * (admin and partner),
 * export files, audit and idempotency over HTTP: one application for all of these suites
 * (test/e2e/README.md), started (and the sandbox seeded) at the suites' instant. Order matters:
 * audit-append reads the whole audit table, so it runs first; the suites that read the sandbox
 * fixtures as seeded come before the ones that link accounts into tenant `sandbox`.
 */
import { useE2eWorld } from '../support/e2e-world.js';
import './accounts/audit-append.cases.js';
import './accounts/balances-cache.cases.js';
import './accounts/accounts.cases.js';
import './accounts/checksum.cases.js';
import './accounts/reconciliation.cases.js';
import './accounts/isolation.cases.js';
import './accounts/admin-accounts.cases.js';
import './accounts/csv-edge-cases.cases.js';
import './accounts/idempotency.cases.js';
import './accounts/export-files.cases.js';
import './accounts/partner-upload.cases.js';

useE2eWorld({ sandbox: true, startAt: new Date('2026-03-15T12:00:00.000Z') });
