import { Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { AccountsModule } from '../accounts/index.js';
import { LedgerModule } from '../ledger/index.js';
import { MarketModule } from '../market/index.js';
import { WalletsController } from './wallets.controller.js';
import { WalletsService } from './wallets.service.js';

/**
 * Wallet tracking (design §9 /qeychain/wallets): the tenant's on-chain accounts, paged.
 *
 * Owns: which accounts are wallets (address and chain set), their page order and cursor, and the
 * BTC value of their holdings. Never: computes balances (the ledger's snapshots are the
 * source) or writes anything.
 */
@Module({
  imports: [AccountsModule, LedgerModule, MarketModule],
  controllers: [WalletsController],
  providers: [CursorCodec, WalletsService],
})
export class WalletsModule {}
