import { Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { JobsModule } from '../jobs/index.js';
import { MarketModule } from '../market/index.js';
import { AdminQueuesController } from './admin-queues.controller.js';
import { TenancyModule } from '../tenancy/index.js';
import { AdminAccountsController } from './accounts/admin-accounts.controller.js';
import { AdminMarketController } from './admin-market.controller.js';
import { AdminMarketService } from './admin-market.service.js';
import { AdminClientsController, AdminTenantsController } from './admin-tenancy.controller.js';
import { AccountsModule, LedgerApiModule } from './support/account-reads.js';
import { SupportController } from './support/support.controller.js';
import { SupportReadsService } from './support/support-reads.service.js';

/**
 * The admin API (design §1, issue 17 item 4): accounts of any tenant (link, list, refresh, import,
 * reconnect, delete), tenants and API clients, the market refresh trigger, support reads of any
 * tenant's account data and the job queue's view. Holds no data of its own: it calls the services
 * the CLI and the scheduler use (accounts through its face, tenancy, market, jobs).
 */
@Module({
  imports: [TenancyModule, MarketModule, AccountsModule, LedgerApiModule, JobsModule],
  controllers: [
    AdminAccountsController,
    AdminTenantsController,
    AdminClientsController,
    AdminMarketController,
    AdminQueuesController,
    SupportController,
  ],
  providers: [AdminMarketService, SupportReadsService, CursorCodec],
})
export class AdminModule {}
