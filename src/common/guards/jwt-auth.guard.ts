import { Inject, Injectable, Optional, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { isDatabaseUnavailable } from '../errors/database-unavailable.js';
import { IS_PUBLIC } from '../decorators/auth.decorators.js';
import type { ServiceRequest } from '../http/request-context.js';
import { VERIFIED_BEARER, type VerifiedBearerPort } from '../ports/verified-bearer.port.js';
import { routeMetadata } from './route-metadata.js';

/**
 * Global: every route needs a valid bearer token unless marked @Public(). A token this instance
 * verified before, whose client is known to be enabled, is accepted from memory (no passport
 * round, no signature check); every other request goes through passport-jwt.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
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
    return super.canActivate(context);
  }

  override handleRequest<T>(error: unknown, user: T | false): T {
    // The client-enabled check could not reach the database: 503 (retry), not 401 (token invalid).
    if (isDatabaseUnavailable(error)) throw error;
    if (error || !user) throw new DomainError(ErrorCode.Unauthenticated, 'Bearer token missing or invalid.');
    return user;
  }
}
