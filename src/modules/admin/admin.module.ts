import { Module } from '@nestjs/common';
import { MarketModule } from '../market/market.module.js';
import { TenancyModule } from '../tenancy/tenancy.module.js';
import { AdminAccountsController } from './accounts/admin-accounts.controller.js';
import { AdminMarketController } from './admin-market.controller.js';
import { AdminMarketService } from './admin-market.service.js';
import { AdminClientsController, AdminTenantsController } from './admin-tenancy.controller.js';
import { AccountsModule, LedgerApiModule } from './support/account-reads.js';
import { SupportController } from './support/support.controller.js';
import { SupportReadsService } from './support/support-reads.service.js';

/**
 * The admin API (design §1, issue 17 item 4): accounts of any tenant (link, list, refresh, import,
 * reconnect, delete), tenants and API clients, the market refresh trigger and support reads of any
 * tenant's account data. Holds no data of its own: it calls the services the CLI and the
 * scheduler use (accounts through its face, tenancy, market).
 */
@Module({
  imports: [TenancyModule, MarketModule, AccountsModule, LedgerApiModule],
  controllers: [
    AdminAccountsController,
    AdminTenantsController,
    AdminClientsController,
    AdminMarketController,
    SupportController,
  ],
  providers: [AdminMarketService, SupportReadsService],
})
export class AdminModule {}
