/**
 * Tax and cost basis over HTTP, one application for all of these suites (test/e2e/README.md).
 * Each worked example runs on a tenant of its own; tax-invariant reads the sandbox fixtures, and
 * runs first, before report-snapshots links an account in tenant `sandbox`.
 */
import { useE2eWorld } from '../support/e2e-world.js';
import './tax/tax-invariant.cases.js';
import './tax/tax.cases.js';
import './tax/lots.cases.js';
import './tax/lot-selections.cases.js';
import './tax/cost-basis-method.cases.js';
import './tax/safe-harbor.cases.js';
import './tax/form-1099-da.cases.js';
import './tax/report-snapshots.cases.js';
import './tax/heavy-work.cases.js';

useE2eWorld({ sandbox: true });
