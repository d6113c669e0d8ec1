import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/index.js';
import { LedgerModule } from '../ledger/index.js';
import { PortfolioSummaryController } from './portfolio-summary.controller.js';
import { PortfolioSummaryService } from './portfolio-summary.service.js';

/**
 * Aggregation (design §9 /portfolio/summary): one view over the tenant's linked accounts.
 *
 * Owns: summing the accounts' balances and rolling up their sync state. Never: computes balances
 * (the accounts module's snapshots are the source) or writes anything.
 */
@Module({
  imports: [AccountsModule, LedgerModule],
  controllers: [PortfolioSummaryController],
  providers: [PortfolioSummaryService],
})
export class AggregationModule {}
