import { AsyncLocalStorage } from 'node:async_hooks';

const bulk = new AsyncLocalStorage<true>();

/**
 * Runs `work` as a bulk read: a read of a tenant's whole history (a ledger, a checksum, a chain
 * walk, a market history) that holds the database's one session for up to a second at a time on
 * the embedded default.
 *
 * On PGlite (one session, shared by every request: pglite-driver.ts) a connection asked for in
 * bulk work waits while any other connection is waiting, so a short query (a client's state, a
 * cache miss of balances, an audit insert) waits for at most the transaction in progress, never
 * for every tenant's queued reports ahead of it (issue 28). The order stays fair enough: bulk work
 * gets the session at the latest after BULK_WAITS_AT_MOST short ones. On PostgreSQL every query
 * has its own pooled connection and the lane changes nothing.
 */
export function asBulkRead<T>(work: () => Promise<T>): Promise<T> {
  return bulk.run(true, work);
}

/** Whether the caller runs inside asBulkRead. */
export function inBulkRead(): boolean {
  return bulk.getStore() === true;
}
