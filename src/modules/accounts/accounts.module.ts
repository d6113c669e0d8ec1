/**
 * Accounts (design §5): linked accounts and their state, transactions, balance snapshots, the
 * sources behind them (SourceConnector: sandbox, csv), the refresh engine and its scheduler, the
 * partner endpoints under /v1/api and the admin API under /admin/accounts.
 *
 * Owns: every write to account, transaction and balance_snapshot(_asset). Others read through
 * the exported services (LedgerService for the cost-basis engine's input). Never: calls a source
 * inside a database transaction, returns or logs credentials, or queries without a tenant id
 * (the scheduler's and admin API's cross-tenant methods say so in their names).
 */
import { BalancesReadCache } from './balances/balances-read.cache.js';
import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { MarketModule } from '../market/market.module.js';
import { TenancyModule } from '../tenancy/tenancy.module.js';
import { AccountDataService } from './account-data.service.js';
import { AccountsController } from './accounts.controller.js';
import { AccountsService } from './accounts.service.js';
import { AdminAccountsController } from './admin/admin-accounts.controller.js';
import { ConnectorRegistry } from './connectors/connector.registry.js';
import { CsvConnector } from './connectors/csv.connector.js';
import { SandboxConnector } from './connectors/sandbox.connector.js';
import { CredentialsCipher } from './credentials/credentials-cipher.js';
import { LedgerService } from './ledger/ledger.service.js';
import { CursorCodec } from './pagination/cursor-codec.js';
import { AccountsRepository } from './repositories/accounts.repository.js';
import { BalanceSnapshotsRepository } from './repositories/balance-snapshots.repository.js';
import { TransactionsRepository } from './repositories/transactions.repository.js';
import { SandboxAccountsSeed } from './sandbox/sandbox-accounts.seed.js';
import { AccountsScheduler } from './sync/accounts.scheduler.js';
import { RefreshService } from './sync/refresh.service.js';

@Module({
  imports: [TenancyModule, MarketModule],
  controllers: [AccountsController, AdminAccountsController],
  providers: [
    AccountsRepository,
    TransactionsRepository,
    BalanceSnapshotsRepository,
    SandboxConnector,
    {
      provide: ConnectorRegistry,
      inject: [AppConfig, SandboxConnector],
      useFactory: (config: AppConfig, sandbox: SandboxConnector): ConnectorRegistry => {
        const registry = new ConnectorRegistry();
        registry.register('csv', new CsvConnector());
        // Synthetic data never reaches production.
        if (config.sandboxEnabled) registry.register('sandbox', sandbox);
        return registry;
      },
    },
    CredentialsCipher,
    BalancesReadCache,
    CursorCodec,
    RefreshService,
    AccountDataService,
    AccountsService,
    LedgerService,
    AccountsScheduler,
    SandboxAccountsSeed,
  ],
  exports: [
    LedgerService,
    AccountsService,
    AccountDataService,
    RefreshService,
    ConnectorRegistry,
    CursorCodec,
    AccountsRepository,
    TransactionsRepository,
    BalanceSnapshotsRepository,
  ],
})
export class AccountsModule {}
