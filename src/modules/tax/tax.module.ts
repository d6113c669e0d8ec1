import { Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { AccountsModule } from '../accounts/index.js';
import { ComputeModule } from '../compute/index.js';
import { LedgerModule } from '../ledger/index.js';
import { TaxAccountSelection } from './tax-account-selection.js';
import { TaxController } from './tax.controller.js';
import { TaxReportService } from './tax-report.service.js';
import { TaxLotsController } from './tax-lots.controller.js';
import { TaxLotsService } from './tax-lots.service.js';
import { MarketModule } from '../market/index.js';

/**
 * Tax reporting (design §7): the gains report and Form 8949 (JSON and CSV) of a tax year; open
 * lots and tax-loss harvesting candidates (issue 19; latest stored prices through MARKET_PRICES).
 *
 * Owns: account selection for reports, Form 8949 parts, boxes, cent rounding and totals, and
 * Form 8949 readiness. Never: computes lots or gains itself (the cost-basis engine in
 * src/domain/cost-basis does, over LedgerService's entries, exactly as for balances, in the
 * compute module's worker threads, inside a heavy-work slot of the tenant), writes to the
 * database or opens a transaction.
 */
@Module({
  imports: [AccountsModule, LedgerModule, MarketModule, ComputeModule],
  controllers: [TaxController, TaxLotsController],
  providers: [TaxAccountSelection, TaxReportService, TaxLotsService, CursorCodec],
  exports: [TaxReportService],
})
export class TaxModule {}
