import { Injectable, type CanActivate, type Type } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
} from '@nestjs/common/constants.js';
import { DiscoveryService, ModulesContainer, Reflector } from '@nestjs/core';
import { EnvelopeInterceptor } from '../../../common/interceptors/envelope.interceptor.js';
import { AuditInterceptor } from '../../audit/index.js';
import { IdempotencyInterceptor } from '../../idempotency/index.js';
import { LedgerController } from '../ledger.controller.js';

/** The route the fast path answers for. */
export const CONTROLLER = LedgerController;
export const HANDLER = LedgerController.prototype.balances;

/**
 * The global interceptors whose effect on this route the fast path knows and gives itself, each
 * with the reason. Any other global interceptor turns the fast path off (logged once), so one
 * added later is never skipped silently: add it here only with a test that the route's answer
 * and the fast path's stay the same (test/balances-fast-path.e2e-spec.ts).
 */
const KNOWN_GLOBAL_INTERCEPTORS: ReadonlyMap<object, string> = new Map<object, string>([
  [AuditInterceptor, 'the read is recorded through READ_AUDIT, as the interceptor records it'],
  [IdempotencyInterceptor, 'acts on writes only (POST, PUT, PATCH, DELETE); a GET passes through'],
]);

/** What the fast path runs for the route, or why it stays off. */
export type FastPathPlan =
  | { readonly on: true; readonly guards: readonly CanActivate[] }
  | { readonly on: false; readonly reason: string };

/**
 * What Nest runs for `GET /v1/api/account/{accountId}/balances`, read from the route's own
 * metadata (Reflector with GUARDS_METADATA, INTERCEPTORS_METADATA, EXCEPTION_FILTERS_METADATA) and
 * Nest's public discovery APIs (the APP_GUARD providers, the controller module's injectables), so
 * the fast path runs the route's guard instances in the route's order: global guards, then the
 * controller's, then the handler's. Whatever the fast path cannot reproduce turns it off.
 */
@Injectable()
export class CachedBalancesRoute {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly modules: ModulesContainer,
    private readonly reflector: Reflector,
  ) {}

  /** The guards to run, or why the fast path must stay off. */
  plan(): FastPathPlan {
    const globalGuards = this.discovery.getProviders().filter((wrapper) => wrapper.subtype === 'guard');
    const unknownInterceptors = this.discovery
      .getProviders()
      .filter((wrapper) => wrapper.subtype === 'interceptor')
      .filter((wrapper) => !KNOWN_GLOBAL_INTERCEPTORS.has((wrapper.instance as object).constructor));
    const scoped = globalGuards.find((wrapper) => !wrapper.isDependencyTreeStatic());
    if (scoped) return { on: false, reason: `a global guard is request-scoped (${String(scoped.name)})` };
    if (unknownInterceptors.length > 0) {
      const names = unknownInterceptors.map((wrapper) => nameOf(wrapper.instance)).join(', ');
      return { on: false, reason: `the application has global interceptors it does not know (${names})` };
    }
    const targets = [CONTROLLER, HANDLER];
    const interceptors = targets.flatMap(
      (target) => this.reflector.get<unknown[]>(INTERCEPTORS_METADATA, target) ?? [],
    );
    if (interceptors.length !== 1 || interceptors[0] !== EnvelopeInterceptor) {
      return { on: false, reason: `the route's interceptors are not exactly [EnvelopeInterceptor]` };
    }
    if (
      targets.some(
        (target) => (this.reflector.get<unknown[]>(EXCEPTION_FILTERS_METADATA, target) ?? []).length,
      )
    ) {
      return { on: false, reason: 'the route has its own exception filters' };
    }
    const routeGuards: CanActivate[] = [];
    for (const guard of targets.flatMap(
      (target) => this.reflector.get<unknown[]>(GUARDS_METADATA, target) ?? [],
    )) {
      const instance =
        typeof guard === 'function' ? this.routeGuardInstance(guard as Type<CanActivate>) : guard;
      if (!instance) return { on: false, reason: `the route's guard ${nameOf(guard)} is not a singleton` };
      routeGuards.push(instance as CanActivate);
    }
    return {
      on: true,
      guards: [...globalGuards.map((wrapper) => wrapper.instance as CanActivate), ...routeGuards],
    };
  }

  /** The instance Nest made for a @UseGuards class of the route: the controller's module's injectable. */
  private routeGuardInstance(guard: Type<CanActivate>): CanActivate | undefined {
    for (const module of this.modules.values()) {
      if (!module.controllers.has(CONTROLLER)) continue;
      const wrapper = module.injectables.get(guard);
      return wrapper?.isDependencyTreeStatic() ? (wrapper.instance as CanActivate) : undefined;
    }
    return undefined;
  }
}

function nameOf(guard: unknown): string {
  return typeof guard === 'function' ? guard.name : (guard as object).constructor.name;
}
