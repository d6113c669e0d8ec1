/**
 * The advisor's cost-basis choices (issue 19; docs/cost-basis.md): the method elections
 * `GET/POST /taip/cost-basis-method`, the lot selections `POST/GET /taip/lot-selections` and
 * `DELETE /taip/lot-selections/{id}`, and the universal-to-per-wallet safe-harbor allocation
 * `GET/POST /taip/safe-harbor-allocation`.
 *
 * Owns no table: the choices are the ledger's (cost_basis_election, lot_selection,
 * safe_harbor_allocation), written only through the ledger's one writer (LedgerWriter) in the same
 * transaction as the balances they change, so the balances, the gains report and Form 8949 always
 * agree. Reads accounts through their face (AccountsService) and the choices through LedgerService;
 * asks report-snapshots (SnapshottedYears) whether a late lot identification's year is closed.
 * The engine runs in the compute pool (ComputeModule): the safe-harbor allocation and a lot
 * selection's check, each inside a heavy-work slot of the tenant (issue 28).
 */
import { Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { AccountsModule } from '../accounts/index.js';
import { ComputeModule } from '../compute/index.js';
import { LedgerModule } from '../ledger/index.js';
import { SnapshottedYearsModule } from '../report-snapshots/index.js';
import { CostBasisMethodController } from './elections/cost-basis-method.controller.js';
import { CostBasisMethodService } from './elections/cost-basis-method.service.js';
import { LotSelectionsController } from './lot-selections/lot-selections.controller.js';
import { LotSelectionsService } from './lot-selections/lot-selections.service.js';
import { SafeHarborController } from './safe-harbor/safe-harbor.controller.js';
import { SafeHarborService } from './safe-harbor/safe-harbor.service.js';

@Module({
  imports: [AccountsModule, ComputeModule, LedgerModule, SnapshottedYearsModule],
  controllers: [CostBasisMethodController, LotSelectionsController, SafeHarborController],
  providers: [CostBasisMethodService, LotSelectionsService, SafeHarborService, CursorCodec],
})
export class CostBasisModule {}
