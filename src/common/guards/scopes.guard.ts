import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { IS_PUBLIC, REQUIRED_SCOPES } from '../decorators/auth.decorators.js';
import type { ServiceRequest } from '../http/request-context.js';
import { routeMetadata } from './route-metadata.js';

/** Authenticated routes need `partner` unless they declare @Scopes(...); the admin API needs `admin`. */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (routeMetadata<boolean>(this.reflector, context, IS_PUBLIC)) return true;
    const required = routeMetadata<string[]>(this.reflector, context, REQUIRED_SCOPES) ?? ['partner'];
    const granted = context.switchToHttp().getRequest<ServiceRequest>().user?.scopes ?? [];
    if (required.every((scope) => granted.includes(scope))) return true;
    throw new DomainError(ErrorCode.Forbidden, `This operation needs the scope: ${required.join(' ')}.`);
  }
}
