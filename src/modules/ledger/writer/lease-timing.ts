/** Longer than a refresh can take, so a crashed instance's lease expires and another takes over. */
export const LEASE_MS = 5 * 60_000;
