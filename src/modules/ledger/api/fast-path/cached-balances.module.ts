/**
 * The cached balances fast path (CachedBalancesMiddleware) and its wiring to the balances route.
 *
 * Owns: answering cached balances reads before Nest's route pipeline, with the route's own guard
 * instances (found through Nest's discovery APIs, not hand-picked) and the route's mapper and
 * envelope. Never: answers differently from the route; when the route gains something it cannot
 * run equivalently, it switches itself off instead (docs/decisions.md, "Cached balances fast path").
 */
import { Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuthModule } from '../../../auth/auth.module.js';
import { LedgerApiModule } from '../ledger-api.module.js';
import { CachedBalancesMiddleware } from './cached-balances.middleware.js';
import { CachedBalancesRoute } from './cached-balances.route.js';

@Module({
  imports: [DiscoveryModule, AuthModule, LedgerApiModule],
  providers: [CachedBalancesRoute],
  exports: [CachedBalancesRoute],
})
export class CachedBalancesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(CachedBalancesMiddleware)
      .forRoutes({ path: 'v1/api/account/:accountId/balances', method: RequestMethod.GET });
  }
}
