import { Inject, Injectable, Optional, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppConfig } from '../../config/app-config.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { FailureCounter } from './failure-counter.js';
import { IS_PUBLIC } from '../decorators/auth.decorators.js';
import type { ServiceRequest } from '../http/request-context.js';
import { VERIFIED_BEARER, type VerifiedBearerPort } from '../ports/verified-bearer.port.js';
import { routeMetadata } from './route-metadata.js';

const MINUTE_MS = 60_000;

/**
 * Global: every route needs a valid bearer token unless marked @Public(). A token this instance
 * verified before, whose client is known to be enabled, is accepted from memory (no passport
 * round, no signature check); every other request goes through passport-jwt.
 *
 * Requests with a missing or invalid token are counted per source address
 * (BEARER_FAILURES_PER_MINUTE); an address over the limit gets 429 with Retry-After, before any
 * signature check, for every token this instance has not verified or issued before. Valid tokens
 * never count.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly failures: FailureCounter,
    private readonly config: AppConfig,
    @Optional() @Inject(VERIFIED_BEARER) private readonly verified?: VerifiedBearerPort,
  ) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (routeMetadata(this.reflector, context, IS_PUBLIC) === true) return true;
    const request = context.switchToHttp().getRequest<ServiceRequest>();
    const known = this.verified?.knownClient(request);
    if (known) {
      request.user = known;
      return true;
    }
    if (this.verified?.verifiedBefore(request)) return super.canActivate(context);
    return this.failures
      .blockedFor(this.failureKey(request), this.config.BEARER_FAILURES_PER_MINUTE)
      .then((wait) => {
        if (wait > 0) {
          throw DomainError.retryLater(
            ErrorCode.RateLimited,
            'Too many requests without a valid bearer token from this address; retry after the number of seconds in Retry-After.',
            wait,
          );
        }
        return super.canActivate(context) as Promise<boolean>;
      });
  }

  override handleRequest<T>(error: unknown, user: T | false, _info: unknown, context: ExecutionContext): T {
    // Passport reports a token it rejects as "no user"; an error is an exception of ours (the
    // client lookup could not reach the database...): the filter makes it a 503 or 500, never a 401
    // that would make the client drop a good token.
    if (error) throw error;
    if (!user) {
      const request = context.switchToHttp().getRequest<ServiceRequest>();
      void this.failures.recordFailure(this.failureKey(request), MINUTE_MS);
      throw new DomainError(ErrorCode.Unauthenticated, 'Bearer token missing or invalid.');
    }
    return user;
  }

  private failureKey(request: ServiceRequest): string {
    return `${this.config.RATE_LIMIT_PREFIX}:bearer-failures:ip:${request.ip}`;
  }
}
