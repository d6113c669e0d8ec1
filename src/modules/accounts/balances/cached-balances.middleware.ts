import { ForbiddenException, Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/internal';
import type { NextFunction, Response } from 'express';
import { RateLimitGuard } from '../../../common/guards/rate-limit.guard.js';
import { ScopesGuard } from '../../../common/guards/scopes.guard.js';
import type { ServiceRequest } from '../../../common/http/request-context.js';
import { envelope } from '../../../common/interceptors/envelope.interceptor.js';
import { VERIFIED_BEARER, type VerifiedBearerPort } from '../../../common/ports/verified-bearer.port.js';
import { AccountDataService, type BalancesView } from '../account-data.service.js';
import { AccountsController } from '../accounts.controller.js';
import { cacheStatus, toBalancesResult } from '../accounts.mapper.js';

interface EncodedBody {
  account: BalancesView['account'];
  cacheAgeSeconds: number | null;
  bytes: Buffer;
  length: string;
}

/**
 * The fast path of `GET /v1/api/account/{accountId}/balances`, the endpoint partners poll.
 *
 * A request this instance can answer from memory alone is answered here, before Nest's route
 * pipeline: the bearer token was verified before and its client is known to be enabled, the
 * query string is empty, and the read cache holds this tenant's balances of the account. The
 * answer is the one the route gives: the route's own scope and rate-limit guard instances decide
 * (same 403, same counting, headers and 429), the controller's mapper builds the result, the
 * envelope interceptor's function wraps it, and the request-log middleware, which runs before
 * this, writes the line. Exceptions go to the application's exception filter, as the route's do.
 *
 * Everything else (no or unknown token, a query, a cache miss) goes down the route's full
 * pipeline unchanged, which verifies the token, validates the parameters and reads the database.
 * A guard or interceptor added to the route must be added here too; test/balances-fast-path
 * .e2e-spec.ts pins the route's list and compares what the two paths answer.
 *
 * Why: Nest's per-route machinery (guard and pipe consumers, parameter factories, the
 * interceptor's rxjs chain and async resources) cost more than the rest of a cached answer
 * together; see docs/decisions.md, "Cached balances fast path", and bench/README.md.
 */
@Injectable()
export class CachedBalancesMiddleware implements NestMiddleware<ServiceRequest, Response> {
  /** The route the guards see, so they read its decorators and memos as for the controller. */
  private readonly handler = AccountsController.prototype.balances;
  /** Keyed by the cached snapshot: an entry goes when the read cache lets go of its snapshot. */
  private readonly bodies = new WeakMap<BalancesView['snapshot'], EncodedBody>();

  constructor(
    @Inject(VERIFIED_BEARER) private readonly bearer: VerifiedBearerPort,
    private readonly scopes: ScopesGuard,
    private readonly rateLimit: RateLimitGuard,
    private readonly data: AccountDataService,
  ) {}

  use(request: ServiceRequest, response: Response, next: NextFunction): void | Promise<void> {
    const { accountId } = request.params;
    if (typeof accountId !== 'string' || request.originalUrl.includes('?')) return next();
    const client = this.bearer.knownClient(request);
    const view = client && this.data.cachedBalancesOf(client.tenantId, accountId);
    if (!client || !view) return next();
    request.user = client;
    const context = new ExecutionContextHost([request, response, next], AccountsController, this.handler);
    allowed(this.scopes.canActivate(context));
    const counted = this.rateLimit.canActivate(context);
    if (counted === true) return this.reply(response, view);
    // A shared (Redis) counter answers asynchronously.
    return Promise.resolve(counted).then((passed) => {
      allowed(passed);
      this.reply(response, view);
    });
  }

  /**
   * The bytes `response.status(200).json(...)` sends in this application (no ETag: `etag` is
   * off; no 304: the response carries no validator; no body for HEAD: Node drops it), written
   * directly: Express's json/send path (content-type parsing, charset, freshness check) cost
   * ~20 µs a request, more than anything else left on this path.
   */
  private reply(response: Response, view: BalancesView): void {
    const body = this.bodyOf(view);
    response.statusCode = 200;
    response.setHeader('Cache-Status', cacheStatus(false));
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', body.length);
    response.end(body.bytes);
  }

  /**
   * The encoded response body. It is a function of the cache entry (account row and snapshot, both
   * immutable once cached) and of `cacheAgeSeconds`, which changes once a second, so it is encoded
   * once per entry and second rather than once per request.
   */
  private bodyOf(view: BalancesView): EncodedBody {
    const age = view.freshness.cacheAgeSeconds;
    const known = this.bodies.get(view.snapshot);
    if (known?.account === view.account && known.cacheAgeSeconds === age) return known;
    const bytes = Buffer.from(JSON.stringify(envelope(toBalancesResult(view), 200)));
    const body = { account: view.account, cacheAgeSeconds: age, bytes, length: String(bytes.length) };
    this.bodies.set(view.snapshot, body);
    return body;
  }
}

/** What Nest does with a guard that answers false (these guards throw their own errors instead). */
function allowed(passed: boolean): void {
  if (!passed) throw new ForbiddenException('Forbidden resource');
}
