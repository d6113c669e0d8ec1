import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { IS_PUBLIC, REQUIRED_SCOPES } from '../decorators/auth.decorators.js';
import type { ServiceRequest } from '../http/request-context.js';

/** Authenticated routes need `partner` unless they declare @Scopes(...); the admin API needs `admin`. */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const required = this.reflector.getAllAndOverride<string[]>(REQUIRED_SCOPES, targets) ?? ['partner'];
    const granted = context.switchToHttp().getRequest<ServiceRequest>().user?.scopes ?? [];
    if (required.every((scope) => granted.includes(scope))) return true;
    throw new DomainError(ErrorCode.Forbidden, `This operation needs the scope: ${required.join(' ')}.`);
  }
}
