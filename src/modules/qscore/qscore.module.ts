import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/index.js';
import { LedgerModule } from '../ledger/index.js';
import { MarketModule } from '../market/index.js';
import { ScoringModule } from '../scoring/index.js';
import { AccountEvaluationService } from './account-evaluation.service.js';
import { EvaluateController } from './evaluate.controller.js';

/**
 * /qscore/evaluate (design §8): a linked account's holdings as of a date, scored.
 *
 * Owns: cutting the ledger at the end of a UTC day, valuing the holdings at that day's prices and
 * choosing what can be scored. Never: computes lots (the cost-basis engine does) or scores (the
 * scoring module does), writes anything.
 */
@Module({
  imports: [AccountsModule, LedgerModule, ScoringModule, MarketModule],
  controllers: [EvaluateController],
  providers: [AccountEvaluationService],
})
export class QScoreModule {}
