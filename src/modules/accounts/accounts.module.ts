/**
 * Accounts (design §5): linked accounts, their identity and lifecycle. Account lookups by id,
 * collection and identity, the partner account endpoints under /v1/api (collection, identity,
 * list, link, reconnect, unlink), the services behind the admin API's /admin/accounts (whose
 * controller is the admin module's) and the sandbox's account fixtures. The advisor's cost-basis
 * choices on accounts (elections, lot selections, safe harbor) are the cost-basis module's.
 *
 * Owns: the `account` row (the refresh engine in the sources module owns its state columns).
 * Others read accounts through AccountsService (index.ts), which hands out plain AccountRecords.
 * Never: fetches from a source or writes the ledger itself (RefreshService does), returns or
 * logs credentials, or queries without a tenant id (the admin API's cross-tenant methods say so
 * in their names).
 */
import { Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { SourcesModule } from '../sources/index.js';
import { TenancyModule } from '../tenancy/index.js';
import { AccountsController } from './accounts.controller.js';
import { AccountsService } from './accounts.service.js';
import { LedgerModule } from '../ledger/index.js';
import { AccountsRepository } from './repositories/accounts.repository.js';
import { SandboxAccountsSeed } from './sandbox-accounts.seed.js';

@Module({
  imports: [TenancyModule, SourcesModule, LedgerModule],
  controllers: [AccountsController],
  providers: [AccountsRepository, CursorCodec, AccountsService, SandboxAccountsSeed],
  exports: [AccountsService],
})
export class AccountsModule {}
