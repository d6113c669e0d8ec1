import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/index.js';
import { ComputeModule } from '../compute/index.js';
import { LedgerModule } from '../ledger/index.js';
import { PortfoliosModule } from '../portfolios/index.js';
import { SimulationModule } from '../simulation/index.js';
import { TaxModule } from '../tax/index.js';
import { ClientStatementController } from './client-statement.controller.js';
import { ClientStatementService } from './client-statement.service.js';

/**
 * Documents an advisor hands over (issue 31 item 5): the client statement PDF. Reads through the
 * faces of accounts, ledger, tax, simulation and portfolios; owns no table.
 */
@Module({
  imports: [AccountsModule, LedgerModule, TaxModule, SimulationModule, PortfoliosModule, ComputeModule],
  controllers: [ClientStatementController],
  providers: [ClientStatementService],
})
export class StatementsModule {}
