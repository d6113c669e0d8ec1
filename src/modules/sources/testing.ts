/**
 * For tests only (the lint rule lets test/ import it, never src/): the refresh engine's state
 * repository, to play another instance holding a lease or a stale data version.
 */
export { RefreshStateRepository } from './refresh/refresh-state.repository.js';
/** For tests only: this process's lease holders, to hold "another instance" alive (or let it go). */
export { LEASE_HOLDER_LOCK_SPACE, LeaseHolders } from './refresh/lease-holders.js';
