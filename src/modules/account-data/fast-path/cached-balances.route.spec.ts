import 'reflect-metadata';
import {
  Injectable,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { DiscoveryService, ModulesContainer, Reflector } from '@nestjs/core';
import { AuditInterceptor } from '../../audit/index.js';
import { IdempotencyInterceptor } from '../../idempotency/index.js';
import { CachedBalancesRoute } from './cached-balances.route.js';

/** What Nest's DiscoveryService lists for a global provider (an InstanceWrapper's fields the plan reads). */
interface Listed {
  readonly name: string;
  readonly subtype: 'guard' | 'interceptor';
  readonly instance: object;
  isDependencyTreeStatic(): boolean;
}

const listed = (subtype: Listed['subtype'], instance: object, isStatic = true): Listed => ({
  name: instance.constructor.name,
  subtype,
  instance,
  isDependencyTreeStatic: () => isStatic,
});

class AllowGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Injectable()
class NewInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle();
  }
}

/** The plan over the given global providers (the route's own metadata is the real controller's). */
function planWith(globals: Listed[]) {
  const discovery = { getProviders: () => globals } as unknown as DiscoveryService;
  return new CachedBalancesRoute(discovery, new ModulesContainer(), new Reflector()).plan();
}

describe('the cached balances fast path plan', () => {
  const known = [
    listed('interceptor', Object.create(IdempotencyInterceptor.prototype) as object),
    listed('interceptor', Object.create(AuditInterceptor.prototype) as object),
  ];

  it('is on with the global guards in order when every global interceptor is one it knows', () => {
    const first = new AllowGuard();
    const second = new AllowGuard();
    const plan = planWith([listed('guard', first), ...known, listed('guard', second)]);
    expect(plan).toEqual({ on: true, guards: [first, second] });
    expect(plan.on && plan.guards[0]).toBe(first);
  });

  it('turns itself off, naming it, when a global interceptor it does not know is added', () => {
    expect(
      planWith([listed('guard', new AllowGuard()), ...known, listed('interceptor', new NewInterceptor())]),
    ).toEqual({
      on: false,
      reason: 'the application has global interceptors it does not know (NewInterceptor)',
    });
  });

  it('turns itself off when a global guard is request-scoped', () => {
    expect(planWith([listed('guard', new AllowGuard(), false)])).toEqual({
      on: false,
      reason: 'a global guard is request-scoped (AllowGuard)',
    });
  });
});
