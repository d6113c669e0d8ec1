/**
 * The ledger's HTTP edge: the partner balances and transactions endpoints (LedgerController) and
 * the service behind them (AccountDataService: the read cache and design §5's forceRefresh rule).
 * It sits above the accounts and sources modules (it looks accounts up and triggers forced
 * refreshes), while the ledger's store (LedgerModule) sits below them; that is why it is a
 * module of its own, imported through ./index.ts by AppModule and by the admin module (support
 * reads answer what the partner gets, from AccountDataService).
 */
import { Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { AccountsModule } from '../accounts/index.js';
import { SourcesModule } from '../sources/index.js';
import { LedgerModule } from '../ledger/index.js';
import { AccountDataService } from './account-data.service.js';
import { LedgerController } from './ledger.controller.js';

@Module({
  imports: [LedgerModule, AccountsModule, SourcesModule],
  controllers: [LedgerController],
  providers: [CursorCodec, AccountDataService],
  exports: [AccountDataService],
})
export class LedgerApiModule {}
