import {
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  type CanActivate,
  type NestMiddleware,
} from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { isObservable, lastValueFrom } from 'rxjs';
import type { AuthenticatedClient, ServiceRequest } from '../../../../common/http/request-context.js';
import { envelope } from '../../../../common/interceptors/envelope.interceptor.js';
import { READ_AUDIT, type ReadAuditPort } from '../../../../common/ports/read-audit.port.js';
import { VERIFIED_BEARER, type VerifiedBearerPort } from '../../../../common/ports/verified-bearer.port.js';
import { labelRoute } from '../../../metrics/route-label.js';
import { AccountDataService, type CachedBalancesView } from '../account-data.service.js';
import { cacheStatus, toBalancesResult } from '../ledger.mapper.js';
import { CachedBalancesRoute, CONTROLLER, HANDLER } from './cached-balances.route.js';
import type { RenderedBalances } from '../../balances/balances-read.cache.js';
import { RouteExecutionContext } from './route-execution-context.js';

const BALANCES_ROUTE = '/v1/api/account/:accountId/balances';

/**
 * The fast path of `GET /v1/api/account/{accountId}/balances`, the endpoint partners poll.
 *
 * A request this instance can answer from memory alone is answered here, before Nest's route
 * pipeline: the bearer token was verified before and its client is known to be enabled, the
 * query string is empty, and the read cache holds this tenant's balances of the account. The
 * answer is the one the route gives: the route's guards run (the same instances, in the order Nest
 * runs them: the global APP_GUARDs, then the controller's and the handler's @UseGuards), the
 * controller's mapper builds the result, the envelope interceptor's function wraps it, and the
 * request-log middleware, which runs before this, writes the line. Exceptions go to the
 * application's exception filter, as the route's do.
 *
 * The guard list is derived from the route's metadata and Nest's public discovery APIs when the
 * first request arrives; when the route has something this path cannot run equivalently (an
 * interceptor other than the envelope, a request-scoped guard, its own exception filter), the path
 * switches itself off, says why once in the log, and every request takes the route.
 *
 * Everything else (no or unknown token, a query, a cache miss) goes down the route's full
 * pipeline unchanged, which verifies the token, validates the parameters and reads the database.
 *
 * Why: Nest's per-route machinery (guard and pipe consumers, parameter factories, the
 * interceptor's rxjs chain and async resources) cost more than the rest of a cached answer
 * together; see docs/decisions.md, "Cached balances fast path", and bench/README.md.
 */
@Injectable()
export class CachedBalancesMiddleware implements NestMiddleware<ServiceRequest, Response> {
  private readonly logger = new Logger(CachedBalancesMiddleware.name);
  /** The route's guards; null when the fast path is off; undefined until the first request. */
  private guards?: readonly CanActivate[] | null;

  constructor(
    @Inject(VERIFIED_BEARER) private readonly bearer: VerifiedBearerPort,
    private readonly data: AccountDataService,
    private readonly route: CachedBalancesRoute,
    @Inject(READ_AUDIT) private readonly audit: ReadAuditPort,
  ) {}

  use(request: ServiceRequest, response: Response, next: NextFunction): void | Promise<void> {
    const guards = this.guards === undefined ? this.derive() : this.guards;
    if (!guards) return next();
    const { accountId } = request.params;
    if (typeof accountId !== 'string' || request.originalUrl.includes('?')) return next();
    const client = this.bearer.knownClient(request);
    const view = client && this.data.cachedBalancesOf(client.tenantId, accountId);
    if (!view) return next();
    labelRoute(request, BALANCES_ROUTE); // counted as the route (metrics)
    const context = new RouteExecutionContext(request, response, next, CONTROLLER, HANDLER);
    return this.guarded(context, guards, 0, response, view, client, accountId);
  }

  /** Once, at the first request (the application is complete by then): the plan, logged when off. */
  private derive(): readonly CanActivate[] | null {
    const plan = this.route.plan();
    if (plan.on) return (this.guards = plan.guards);
    this.logger.warn(`Cached balances fast path off: ${plan.reason}; every request takes the route.`);
    return (this.guards = null);
  }

  /** Runs the guards from `index` on, as Nest does (a false answer is Nest's 403), then replies. */
  private guarded(
    context: RouteExecutionContext,
    guards: readonly CanActivate[],
    index: number,
    response: Response,
    view: CachedBalancesView,
    client: AuthenticatedClient,
    accountId: string,
  ): void | Promise<void> {
    for (let i = index; i < guards.length; i++) {
      const passed = guards[i]!.canActivate(context);
      if (passed === true) continue;
      if (passed === false) throw new ForbiddenException('Forbidden resource');
      // A shared (Redis) counter, or any guard that answers asynchronously.
      return (isObservable(passed) ? lastValueFrom(passed) : Promise.resolve(passed)).then((settled) => {
        if (!settled) throw new ForbiddenException('Forbidden resource');
        return this.guarded(context, guards, i + 1, response, view, client, accountId);
      });
    }
    this.reply(response, view);
    const request = context.getRequest<ServiceRequest>();
    // What the audit interceptor records on the route (docs/audit.md): queued, never awaited.
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
    const known = view.memo.rendered;
    if (known?.cacheAgeSeconds === age) return known;
    const text = JSON.stringify(envelope(toBalancesResult(view), 200));
    const rendered = { cacheAgeSeconds: age, text, length: String(Buffer.byteLength(text, 'utf8')) };
    view.memo.rendered = rendered;
    return rendered;
  }
}
