/**
 * The cached balances fast path (CachedBalancesFrontRoute) and its reading of the balances route.
 *
 * Owns: answering cached balances reads ahead of the application's pipeline (run by
 * FastPathHttpAdapter, the room's one seam, which createApp builds the application on), with the
 * route's own guard instances (found through Nest's discovery APIs, not hand-picked), the route's
 * mapper and envelope, and the request edge's parts. Never: answers differently from the route;
 * when the application gains something it cannot run equivalently (a global interceptor it does
 * not know, a route interceptor, a request-scoped guard), it switches itself off instead
 * (docs/decisions.md, "Cached balances fast path").
 */
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuthModule } from '../../auth/index.js';
import { LedgerApiModule } from '../ledger-api.module.js';
import { CachedBalancesFrontRoute } from './cached-balances.front-route.js';
import { CachedBalancesRoute } from './cached-balances.route.js';

@Module({
  imports: [DiscoveryModule, AuthModule, LedgerApiModule],
  providers: [CachedBalancesRoute, CachedBalancesFrontRoute],
  exports: [CachedBalancesRoute],
})
export class CachedBalancesModule {}
