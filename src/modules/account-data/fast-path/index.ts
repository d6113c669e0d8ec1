/**
 * The cached balances fast path, in one room: the answer of `GET /v1/api/account/{id}/balances`
 * from the read cache ahead of Express and Nest's pipeline (docs/decisions.md, "Cached balances
 * fast path"). Its one seam is the HTTP adapter createApp builds the application on; its module
 * is wired at the root (it runs the global guards). Delete this folder, build the application on
 * Nest's ExpressAdapter and drop the module from AppModule, and every request takes the route.
 */
export { FastPathHttpAdapter } from './fast-path-http-adapter.js';
export { CachedBalancesModule } from './cached-balances.module.js';
