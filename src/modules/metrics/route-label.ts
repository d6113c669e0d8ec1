/**
 * The route template of a request, shared by the HTTP metrics and the trace spans. No imports:
 * the tracing SDK loads this before Nest and Express are loaded (and instrumented).
 */

/** The `route` of a request no route answered: unknown paths, and bodies rejected before routing. */
export const UNMATCHED_ROUTE = 'unmatched';

const ROUTE = Symbol('metrics.route');

interface RoutedRequest {
  readonly baseUrl?: string;
  readonly route?: { readonly path?: unknown };
  [ROUTE]?: string;
}

/**
 * Names the route template of a request answered outside Express's router, so it is counted and
 * traced under the same template as the route.
 */
export function labelRoute(request: object, template: string): void {
  (request as RoutedRequest)[ROUTE] = template;
}

/**
 * The template (`/v1/api/account/:accountId/balances`), never the URL: ids, query strings and
 * unknown paths never become a label. A label set by `labelRoute`, else what Express's router matched,
 * else `unmatched`.
 */
export function routeTemplateOf(request: object): string {
  const req = request as RoutedRequest;
  const labelled = req[ROUTE];
  if (labelled !== undefined) return labelled;
  const path = req.route?.path;
  return typeof path === 'string' ? (req.baseUrl ?? '') + path : UNMATCHED_ROUTE;
}
