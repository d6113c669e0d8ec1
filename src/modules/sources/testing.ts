/**
 * For tests only (the lint rule lets test/ import it, never src/): the write state and lease
 * holders now live in the ledger (its writer); kept here so tests of the refresh engine read as before.
 */
export { LEASE_HOLDER_LOCK_SPACE, LeaseHolders, RefreshStateRepository } from '../ledger/index.js';
