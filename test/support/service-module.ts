/**
 * The service test tier (between the domain unit tests and the e2e suites): real Nest modules and
 * services on a real database (in-memory PGlite, or a schema of its own with DATABASE_URL), with
 * fakes only at the edges (connectors, the market store, the clock). No HTTP, no sandbox seed.
 */
import 'reflect-metadata';
import { Global, Module, type DynamicModule, type Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { ClockModule, type Clock } from '../../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../src/common/ports/market-prices.port.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { SandboxSeedRegistry } from '../../src/modules/sandbox/index.js';
import { createTestSchema, prepareEmbeddedDatabase, testConfig, usingPostgres } from './test-app.js';

/** Modules register sandbox seed steps; a service test runs none of them. */
@Global()
@Module({ providers: [SandboxSeedRegistry], exports: [SandboxSeedRegistry] })
class NoSeedModule {}

export interface ServiceModule {
  readonly module: TestingModule;
  readonly dataSource: DataSource;
  get<T>(token: Type<T> | symbol): T;
  close(): Promise<void>;
}

export async function startServiceModule(options: {
  imports: (Type<unknown> | DynamicModule)[];
  clock: Clock;
  prices: MarketPricesPort;
  /** Environment overrides (testConfig); the sandbox is off unless SANDBOX is 'true'. */
  env?: Record<string, string>;
}): Promise<ServiceModule> {
  const schema = usingPostgres() ? await createTestSchema() : undefined;
  await prepareEmbeddedDatabase();
  const module = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot(testConfig({ SANDBOX: 'false', ...options.env }, schema?.schema)),
      ClockModule.forRoot(options.clock),
      // Schedulers are registered (SCHEDULER_ENABLED is false in tests): they never fire.
      ScheduleModule.forRoot(),
      DatabaseModule,
      NoSeedModule,
      ...options.imports,
    ],
  })
    .overrideProvider(MARKET_PRICES)
    .useValue(options.prices)
    .compile();
  await module.init();
  return {
    module,
    dataSource: module.get(DataSource),
    get: <T>(token: Type<T> | symbol) => module.get<T>(token, { strict: false }),
    async close() {
      await module.close();
      await schema?.drop();
    },
  };
}
