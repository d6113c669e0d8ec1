import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { isDatabaseUnavailable } from '../errors/database-unavailable.js';
import { IS_PUBLIC } from '../decorators/auth.decorators.js';

/** Global: every route needs a valid bearer token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    return super.canActivate(context);
  }

  override handleRequest<T>(error: unknown, user: T | false): T {
    // The client-enabled check could not reach the database: 503 (retry), not 401 (token invalid).
    if (isDatabaseUnavailable(error)) throw error;
    if (error || !user) throw new DomainError(ErrorCode.Unauthenticated, 'Bearer token missing or invalid.');
    return user;
  }
}
