/** For tests only: the cached balances fast path's plan and its seam, to check them from outside. */
export { CachedBalancesRoute } from './fast-path/cached-balances.route.js';
export type { FastPathHttpAdapter } from './fast-path/index.js';
