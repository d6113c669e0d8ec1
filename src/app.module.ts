import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { Params as LoggerParams } from 'nestjs-pino';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { ClockModule, type Clock } from './common/clock/clock.js';
import { DatabaseModule } from './database/database.module.js';
import { HttpExceptionFilter } from './common/filters/http-exception.filter.js';
import { JwtAuthGuard } from './common/guards/jwt-auth.guard.js';
import { RateLimitGuard } from './common/guards/rate-limit.guard.js';
import { RateLimitModule } from './common/guards/rate-limit.module.js';
import { ScopesGuard } from './common/guards/scopes.guard.js';
import { LoggingModule, loggerParams } from './common/logging/logging.module.js';
import { AccountsModule } from './modules/accounts/index.js';
import { CostBasisModule } from './modules/cost-basis/index.js';
import { CachedBalancesModule, LedgerApiModule } from './modules/account-data/index.js';
import { LedgerModule } from './modules/ledger/index.js';
import { SourcesModule } from './modules/sources/index.js';
import { AdminModule } from './modules/admin/index.js';
import { AuditModule } from './modules/audit/index.js';
import { AggregationModule } from './modules/aggregation/index.js';
import { AuthModule } from './modules/auth/index.js';
import { IdempotencyModule } from './modules/idempotency/index.js';
import { IntegrityModule } from './modules/integrity/index.js';
import { MarketModule } from './modules/market/index.js';
import { MetricsModule } from './modules/metrics/index.js';
import { PortfoliosModule } from './modules/portfolios/index.js';
import { ReportSnapshotsModule } from './modules/report-snapshots/index.js';
import { QScoreModule } from './modules/qscore/index.js';
import { ScoringModule } from './modules/scoring/index.js';
import { SandboxModule } from './modules/sandbox/index.js';
import { SimulationModule } from './modules/simulation/index.js';
import { StatusModule } from './modules/status/index.js';
import { TaxModule } from './modules/tax/index.js';
import { StatementsModule } from './modules/statements/index.js';
import { TenancyModule } from './modules/tenancy/index.js';
import { WalletsModule } from './modules/wallets/index.js';
import { WebhooksModule } from './modules/webhooks/index.js';

@Module({})
export class AppModule {
  /**
   * `clock` replaces the system clock (tests move time instead of sleeping); `logging`: the
   * parameters createApp built its start-up logger with (loggerParams(config) by default).
   */
  static forRoot(config: AppConfig, options: { clock?: Clock; logging?: LoggerParams } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ClockModule.forRoot(options.clock),
        LoggingModule.forRoot(options.logging ?? loggerParams(config)),
        ScheduleModule.forRoot(),
        DatabaseModule,
        RateLimitModule,
        TenancyModule,
        AuthModule,
        StatusModule,
        SandboxModule,
        MarketModule,
        LedgerModule,
        SourcesModule,
        AccountsModule,
        CostBasisModule,
        LedgerApiModule,
        CachedBalancesModule,
        IntegrityModule,
        ScoringModule,
        PortfoliosModule,
        TaxModule,
        StatementsModule,
        ReportSnapshotsModule,
        QScoreModule,
        AggregationModule,
        WalletsModule,
        SimulationModule,
        IdempotencyModule,
        AuditModule,
        AdminModule,
        MetricsModule,
        WebhooksModule,
      ],
      providers: [
        // Order matters: authenticate, then check scopes, then count the request against the client.
        // The scope and rate-limit guards are providers too (one instance each, which the APP_GUARD
        // entries alias), found through Nest's discovery by whatever runs the global guards itself.
        ScopesGuard,
        RateLimitGuard,
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useExisting: ScopesGuard },
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
      ],
    };
  }
}
