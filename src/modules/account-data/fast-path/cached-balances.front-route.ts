import { ForbiddenException, Inject, Injectable, Logger, type CanActivate } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { isObservable, lastValueFrom } from 'rxjs';
import type { AuthenticatedClient, ServiceRequest } from '../../../common/http/request-context.js';
import type { FrontHandler } from './fast-path-http-adapter.js';
import type { RequestEdge } from '../../../common/http/request-edge.js';
import { envelope } from '../../../common/interceptors/envelope.interceptor.js';
import { READ_AUDIT, type ReadAuditPort } from '../../../common/ports/read-audit.port.js';
import { VERIFIED_BEARER, type VerifiedBearerPort } from '../../../common/ports/verified-bearer.port.js';
import { labelRoute } from '../../metrics/index.js';
import { AccountDataService, type CachedBalancesView } from '../account-data.service.js';
import { cacheStatus, toBalancesResult } from '../ledger.mapper.js';
import { CachedBalancesRoute, CONTROLLER, HANDLER } from './cached-balances.route.js';
import { RouteExecutionContext } from './route-execution-context.js';

const BALANCES_ROUTE = '/v1/api/account/:accountId/balances';

/** The response body rendered from a read cache entry, kept in the entry's memo under RENDERED. */
interface RenderedBalances {
  readonly cacheAgeSeconds: number | null;
  /** The JSON text; written as a string so Node sends headers and body in one write. */
  readonly text: string;
  /** Its length in UTF-8 bytes, the Content-Length. */
  readonly length: string;
}

const RENDERED = Symbol('cached balances body');
const PREFIX = '/v1/api/account/';
const SUFFIX = '/balances';

/**
 * The fast path of `GET /v1/api/account/{accountId}/balances`, the endpoint partners poll, run by
 * FastPathHttpAdapter ahead of Express, so it sees a request before the request edge's
 * middlewares, the body parsers and Nest's router.
 *
 * A request this instance can answer from memory alone is answered here: the URL is the route's
 * own path with no query string and nothing percent-encoded, it has no body, the bearer token was
 * verified before and its client is known to be enabled, and the read cache holds this tenant's
 * balances of the account. The answer is the one the application gives:
 * - the request edge's work, with its parts: the request id (echoed or minted), the security
 *   headers, and once answered the HTTP metrics under the route's template and the request's log
 *   line (RequestEdge.answering / answered);
 * - the route's guards (the same instances, in the order Nest runs them: the global APP_GUARDs,
 *   then the controller's and the handler's @UseGuards), the controller's mapper, the envelope
 *   interceptor's function, and the audit interceptor's record of the read.
 * When a guard refuses (or throws), the request goes through the edge (`enter`) and the error to
 * the application's exception filter, as the route's would; a guard that answers asynchronously
 * (a shared Redis counter) is awaited the same way.
 *
 * The guard list is derived from the route's metadata and Nest's public discovery APIs when the
 * first request arrives; when the route has something this path cannot run equivalently (an
 * interceptor other than the envelope, a request-scoped guard, its own exception filter), or the
 * security headers depend on the request, the path switches itself off, says why once in the log,
 * and every request takes the route.
 *
 * Everything else (no or unknown token, a query, a body, a cache miss) goes on to the application
 * unchanged, which verifies the token, validates the parameters and reads the database.
 *
 * Why: Express's middleware chain, Nest's per-route machinery (guard and pipe consumers, parameter
 * factories, the interceptor's rxjs chain) and the edge's per-request listeners cost more than the
 * rest of a cached answer together; see docs/decisions.md, "Cached balances fast path", and
 * bench/README.md.
 */
@Injectable()
export class CachedBalancesFrontRoute {
  private readonly logger = new Logger(CachedBalancesFrontRoute.name);
  /** The route's guards; null when the fast path is off; undefined until the first request. */
  private guards?: readonly CanActivate[] | null;

  constructor(
    @Inject(VERIFIED_BEARER) private readonly bearer: VerifiedBearerPort,
    private readonly data: AccountDataService,
    private readonly route: CachedBalancesRoute,
    @Inject(READ_AUDIT) private readonly audit: ReadAuditPort,
  ) {}

  /** The handler FastPathHttpAdapter runs ahead of Express, doing the edge's work with `edge`'s parts. */
  handler(edge: RequestEdge): FrontHandler {
    return (req, res, next) => this.handle(req as ServiceRequest, res, next, edge);
  }

  private handle(request: ServiceRequest, response: Response, next: NextFunction, edge: RequestEdge): void {
    const accountId = accountIdOf(request);
    if (accountId === undefined) return next();
    const guards = this.guards === undefined ? this.derive(edge) : this.guards;
    if (!guards) return next();
    const client = this.bearer.knownClient(request);
    const view = client && this.data.cachedBalancesOf(client.tenantId, accountId);
    // A full audit backlog: the route's interceptor waits for room (docs/audit.md, "Backpressure").
    if (!view || !this.audit.hasRoom()) return next();
    // From here on this path answers the request.
    const startedAt = performance.now();
    request.params = { accountId }; // as Express's router sets them for the route
    labelRoute(request, BALANCES_ROUTE); // metrics and trace spans name the route's template
    const context = new RouteExecutionContext(request, response, next, CONTROLLER, HANDLER);
    let passed: true | Promise<boolean>;
    try {
      passed = runGuards(context, guards, 0);
    } catch (error) {
      return edge.enter(request, response, () => next(error));
    }
    if (passed === true) {
      edge.answering(request, response);
      this.reply(response, view);
      edge.answered(request, response, BALANCES_ROUTE, startedAt);
      this.recordRead(request, client, accountId);
      return;
    }
    // A guard that answers asynchronously: the edge's listeners record the answer, as the route's.
    const settled = passed;
    edge.enter(request, response, () => {
      settled
        .then((ok) => {
          if (!ok) throw new ForbiddenException('Forbidden resource');
          this.reply(response, view);
          this.recordRead(request, client, accountId);
        })
        .catch(next);
    });
  }

  /** Once, at the first request (the application is complete by then): the plan, logged when off. */
  private derive(edge: RequestEdge): readonly CanActivate[] | null {
    const plan = edge.answersDirectly
      ? this.route.plan()
      : { on: false as const, reason: 'the API answers’ security headers depend on the request' };
    if (plan.on) return (this.guards = plan.guards);
    this.logger.warn(`Cached balances fast path off: ${plan.reason}; every request takes the route.`);
    return (this.guards = null);
  }

  /** What the audit interceptor records on the route (docs/audit.md): queued, never awaited. */
  private recordRead(request: ServiceRequest, client: AuthenticatedClient, accountId: string): void {
    this.audit.recordRead({
      tenantId: client.tenantId,
      actorKind: client.scopes.includes('admin') ? 'admin' : 'client',
      actorId: client.clientId,
      action: 'account.read.balances',
      accountId: accountId.toLowerCase(),
      requestId: request.id === undefined ? null : String(request.id),
      status: 200,
      details: { method: request.method, route: BALANCES_ROUTE, fastPath: true },
    });
  }

  /**
   * The bytes `response.status(200).json(...)` sends in this application (no ETag: `etag` is
   * off; no 304: the response carries no validator; no body for HEAD: Node drops it), written
   * directly: Express's json/send path (content-type parsing, charset, freshness check) cost
   * ~20 µs a request, more than anything else left on this path.
   */
  private reply(response: Response, view: CachedBalancesView): void {
    const body = this.bodyOf(view);
    response.statusCode = 200;
    response.setHeader('Cache-Status', cacheStatus(false));
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', body.length);
    response.end(body.text, 'utf8');
  }

  /**
   * The encoded response body, kept in the read cache entry's memo: it is a function of the entry
   * (account row and snapshot, both immutable once cached) and of `cacheAgeSeconds`, which changes
   * once a second, so it is encoded once per entry and second rather than once per request.
   */
  private bodyOf(view: CachedBalancesView): RenderedBalances {
    const age = view.freshness.cacheAgeSeconds;
    const known = view.memo[RENDERED] as RenderedBalances | undefined;
    if (known?.cacheAgeSeconds === age) return known;
    const text = JSON.stringify(envelope(toBalancesResult(view), 200));
    const rendered = { cacheAgeSeconds: age, text, length: String(Buffer.byteLength(text, 'utf8')) };
    view.memo[RENDERED] = rendered;
    return rendered;
  }
}

/**
 * The account id of a request for exactly the route's path (GET or HEAD, which Express routes to
 * GET handlers), with no query string, nothing percent-encoded and no body; else undefined, and the
 * application routes the request (its parsers, input checks and the route's own validation).
 */
function accountIdOf(request: Request): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const url = request.url;
  if (!url.startsWith(PREFIX) || !url.endsWith(SUFFIX)) return undefined;
  const id = url.slice(PREFIX.length, url.length - SUFFIX.length);
  if (id.length === 0 || id.includes('/') || id.includes('?') || id.includes('%')) return undefined;
  const headers = request.headers;
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined;
  return id;
}

/**
 * Runs the guards from `index` on, as Nest does: true when all pass synchronously, a promise when
 * one answers asynchronously (a shared Redis counter), a thrown error (a false answer is Nest's 403).
 */
function runGuards(
  context: RouteExecutionContext,
  guards: readonly CanActivate[],
  index: number,
): true | Promise<boolean> {
  for (let i = index; i < guards.length; i++) {
    const passed = guards[i]!.canActivate(context);
    if (passed === true) continue;
    if (passed === false) throw new ForbiddenException('Forbidden resource');
    return (isObservable(passed) ? lastValueFrom(passed) : Promise.resolve(passed)).then((settled) => {
      if (!settled) throw new ForbiddenException('Forbidden resource');
      return runGuards(context, guards, i + 1);
    });
  }
  return true;
}
