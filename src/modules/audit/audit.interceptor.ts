import {
  HttpException,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { catchError, from, mergeMap, Observable, tap, throwError } from 'rxjs';
import type { EntityManager } from 'typeorm';
import { runInAuditScope, type AuditScope } from '../../common/audit/audit-scope.js';
import { AUDITED, type AuditedRoute } from '../../common/decorators/audited.decorator.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { statusForCode } from '../../common/errors/problem-details.js';
import { ReplayedResponse } from '../../common/http/replayed-response.js';
import type { AuthenticatedClient, ServiceRequest } from '../../common/http/request-context.js';
import { AuditService, type AuditDraft } from './audit.service.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ADMIN_WRITE: AuditedRoute = { action: 'admin.write', kind: 'write' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Records audited requests (docs/audit.md): routes marked @Audited / @AuditedRead, and every
 * authenticated write under `/admin`. A write's handler runs in an audit scope
 * (common/audit/audit-scope.ts): its entry is appended in the transaction that commits its change
 * (AuditTransactionSubscriber), with the status the route answers on success. A write that commits
 * no transaction (a refusal, a no-op) is recorded before its answer goes out, and so is a failure
 * after a change committed (a second entry, with the status answered); such an append that fails
 * falls back to the retried in-memory queue and is logged. A read's entry is queued
 * (AuditService.recordRead).
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly audit: AuditService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<ServiceRequest>();
    const user = request.user;
    if (!user) return next.handle();
    const marked = this.reflector.get<AuditedRoute | undefined>(AUDITED, context.getHandler());
    const route =
      marked ??
      (WRITE_METHODS.has(request.method) && request.path.startsWith('/admin/') ? ADMIN_WRITE : undefined);
    if (!route) return next.handle();
    const success = (this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      (request.method === 'POST' ? 201 : 200)) as number;
    if (route.kind === 'read') {
      const answer = () =>
        next.handle().pipe(
          tap((result) => this.recordRead(route, request, user, success, result)),
          catchError((error: unknown) => {
            if (!(error instanceof ReplayedResponse))
              this.recordRead(route, request, user, statusOf(error), undefined);
            return throwError(() => error);
          }),
        );
      // Backpressure: with AUDIT_READ_BACKLOG reads waiting for their append, the read waits for
      // room before it runs (or is refused with 503: AuditBacklogError, nothing read or recorded).
      const room = this.audit.room();
      return room === true ? answer() : from(room).pipe(mergeMap(answer));
    }
    const scope: AuditScope = {
      open: true,
      appended: false,
      appending: null,
      subject: {},
      appendIn: (manager) => this.appendWrite(route, request, user, success, scope, manager),
    };
    const handled = new Observable<unknown>((subscriber) =>
      runInAuditScope(scope, () => next.handle().subscribe(subscriber)),
    );
    return handled.pipe(
      mergeMap((result) => {
        scope.open = false;
        if (scope.appended) return [result];
        return from(this.recordWrite(route, request, user, success, result, scope).then(() => result));
      }),
      catchError((error: unknown) => {
        scope.open = false;
        if (error instanceof ReplayedResponse) return throwError(() => error);
        return from(this.recordWrite(route, request, user, statusOf(error), undefined, scope)).pipe(
          mergeMap(() => throwError(() => error)),
        );
      }),
    );
  }

  /** The write's entry in the transaction of its change; false when its target is not known yet. */
  private async appendWrite(
    route: AuditedRoute,
    request: ServiceRequest,
    user: AuthenticatedClient,
    status: number,
    scope: AuditScope,
    manager: EntityManager,
  ): Promise<boolean> {
    const draft = this.writeDraft(route, request, user, status, undefined, scope);
    if (route.target && 'result' in route.target && !draft.target) return false;
    await this.audit.append(draft, manager);
    return true;
  }

  /** A read's entry: queued, appended within AUDIT_READ_FLUSH_MS (AuditService.recordRead). */
  private recordRead(
    route: AuditedRoute,
    request: ServiceRequest,
    user: AuthenticatedClient,
    status: number,
    result: unknown,
  ): void {
    this.audit.recordRead({
      tenantId: user.tenantId,
      actorKind: actorKindOf(user),
      actorId: user.clientId,
      action: route.action,
      accountId: targetOf(route, request, result),
      requestId: requestIdOf(request),
      status,
      details: detailsOf(route, request),
    });
  }

  /** A write's entry outside its change's transaction (no change committed, or a later failure). */
  private async recordWrite(
    route: AuditedRoute,
    request: ServiceRequest,
    user: AuthenticatedClient,
    status: number,
    result: unknown,
    scope: AuditScope,
  ): Promise<void> {
    const draft = this.writeDraft(route, request, user, status, result, scope);
    try {
      await this.audit.append(draft);
    } catch (error) {
      this.logger.error(
        { err: error instanceof Error ? error.message : String(error), action: draft.action },
        'could not append an audit entry; queued for retry',
      );
      this.audit.enqueue(draft);
    }
  }

  /**
   * A write's entry. The answer (`result`) names the account linked and an admin's tenant; in the
   * change's transaction there is no answer yet, and the services note them instead (`subject`).
   */
  private writeDraft(
    route: AuditedRoute,
    request: ServiceRequest,
    user: AuthenticatedClient,
    status: number,
    result: unknown,
    scope: AuditScope,
  ): AuditDraft {
    const subject = scope.subject;
    const actorKind = actorKindOf(user);
    const fromResult = route.target && 'result' in route.target;
    const accountId =
      fromResult && result === undefined && subject.accountId
        ? subject.accountId.toLowerCase()
        : targetOf(route, request, result);
    const details = detailsOf(route, request);
    // An admin acting on a tenant's data: the entry belongs to that tenant when the answer names it.
    const resultTenant = field(result, 'tenantId') ?? subject.tenantId;
    if (actorKind === 'admin') {
      details.actorTenantId = user.tenantId;
      const slug =
        field(result, 'tenant') ??
        subject.tenantSlug ??
        request.query?.tenant ??
        (request.body as { tenant?: unknown } | undefined)?.tenant;
      if (typeof slug === 'string' && /^[a-z0-9-]{1,63}$/.test(slug)) details.tenant = slug;
    }
    return {
      tenantId: resultTenant && UUID.test(resultTenant) ? resultTenant.toLowerCase() : user.tenantId,
      actor: { kind: actorKind, id: user.clientId },
      action: route.action,
      target: accountId ? { kind: 'account', id: accountId } : null,
      requestId: requestIdOf(request),
      status,
      details,
    };
  }
}

function actorKindOf(user: AuthenticatedClient): 'admin' | 'client' {
  return user.scopes.includes('admin') ? 'admin' : 'client';
}

/** Method, route template and the route's recorded query parameters. */
function detailsOf(route: AuditedRoute, request: ServiceRequest): Record<string, unknown> {
  const details: Record<string, unknown> = { method: request.method, route: routePath(request) };
  for (const name of route.query ?? []) {
    const value = request.query[name];
    if (typeof value === 'string') details[name] = value;
  }
  return details;
}

function targetOf(route: AuditedRoute, request: ServiceRequest, result: unknown): string | null {
  const target = route.target;
  let value: unknown;
  if (!target) value = request.params?.accountId;
  else if ('param' in target) value = request.params?.[target.param];
  else if ('query' in target) value = request.query?.[target.query];
  else if ('body' in target) value = (request.body as Record<string, unknown> | undefined)?.[target.body];
  else value = field(result, target.result);
  return typeof value === 'string' && value.length > 0 ? value.toLowerCase().slice(0, 128) : null;
}

/** A string field of a handler result, or of the envelope's `result` around it. */
function field(result: unknown, name: string): string | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const direct = (result as Record<string, unknown>)[name];
  if (typeof direct === 'string') return direct;
  const inner = (result as { result?: unknown }).result;
  if (inner !== null && typeof inner === 'object') {
    const nested = (inner as Record<string, unknown>)[name];
    if (typeof nested === 'string') return nested;
  }
  return undefined;
}

function routePath(request: ServiceRequest): string {
  const route = (request as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : request.path;
}

export function requestIdOf(request: ServiceRequest): string | null {
  const id = (request as { id?: unknown }).id;
  return id === undefined || id === null ? null : String(id);
}

function statusOf(error: unknown): number {
  if (error instanceof HttpException) return error.getStatus();
  if (error instanceof DomainError) return statusForCode(error.code);
  return 500;
}
