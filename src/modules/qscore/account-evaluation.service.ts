/**
 * /qscore/evaluate (design §8): an account's holdings at the end of a UTC day, from its own
 * transactions through the cost-basis engine (the quantities the balances would have shown that
 * evening), valued at that day's stored prices, scored by AssetScoringService.scoreHoldings.
 * Read-only.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Decimal } from 'decimal.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import {
  btcWeight,
  historyStartDate,
  holdingsAsOfDate,
  valueHoldings,
  weighHoldings,
  type ExcludedHolding,
  type WeighedHolding,
} from '../../domain/holdings/index.js';
import type { Grade, RiskLevel } from '../../domain/scoring/grades.js';
import { AccountsService } from '../accounts/index.js';
import { LedgerService } from '../ledger/index.js';
import { utcDate } from '../market/index.js';
import { AssetScoringService } from '../scoring/index.js';

/** Why an account cannot be evaluated (422 `reason`; the values are the API's). */
export enum EvaluationRefusal {
  NoTransactions = 'no_transactions',
  NoDataYet = 'no_data_yet',
  NoHoldings = 'no_holdings',
  NoScorableHoldings = 'no_scorable_holdings',
}

export type EvaluatedHolding = WeighedHolding;
export type { ExcludedHolding };

export interface AccountEvaluation {
  readonly accountId: string;
  readonly asOfDate: string;
  readonly qScore: number;
  readonly fScore: number;
  readonly rScore: number;
  readonly grade: Grade;
  readonly riskLevel: RiskLevel;
  /** BTC's share of the scored value, a fraction (0 without BTC). */
  readonly btcWeight: Decimal;
  readonly holdings: readonly EvaluatedHolding[];
  readonly excluded: readonly ExcludedHolding[];
}

@Injectable()
export class AccountEvaluationService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly scoring: AssetScoringService,
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
    private readonly clock: Clock,
  ) {}

  async evaluate(tenantId: string, accountId: string, asOfDate: string): Promise<AccountEvaluation> {
    const today = utcDate(this.clock.now());
    if (asOfDate > today) {
      throw DomainError.validation(
        'as_of_date',
        `as_of_date must not be in the future (today is ${today}, UTC).`,
      );
    }
    const account = await this.accounts.findById(tenantId, accountId);
    if (!account) throw DomainError.notFound('Account');
    // The account's own entries plus those of accounts linked by transfers: the transfers' lots.
    const { entries } = await this.ledger.ledgerForAccount(tenantId, account);
    const firstDate = historyStartDate(entries, accountId);
    if (firstDate === null) {
      throw new DomainError(
        ErrorCode.Unprocessable,
        account.syncStatus === 'synced'
          ? 'The account has no transactions, so it held nothing to evaluate.'
          : `The account has no transaction data yet (syncStatus ${account.syncStatus}).`,
        undefined,
        account.syncStatus === 'synced' ? EvaluationRefusal.NoTransactions : EvaluationRefusal.NoDataYet,
      );
    }
    if (asOfDate < firstDate) {
      throw DomainError.validation(
        'as_of_date',
        `as_of_date is before the account’s history, which starts on ${firstDate}.`,
      );
    }

    const held = holdingsAsOfDate(entries, accountId, asOfDate);
    if (held.length === 0) {
      throw new DomainError(
        ErrorCode.Unprocessable,
        `The account held nothing at the end of ${asOfDate}, so there is nothing to score.`,
        undefined,
        EvaluationRefusal.NoHoldings,
      );
    }

    const symbols = held.map((holding) => holding.symbol);
    const [pricesOnDate, scored] = await Promise.all([
      this.prices.pricesOnDate(symbols, asOfDate),
      this.scoring.scoreAssets(asOfDate),
    ]);
    const valuation = valueHoldings(held, pricesOnDate, new Set(scored.map((record) => record.symbol)));
    if (!valuation.totalUsd.greaterThan(0)) {
      throw new DomainError(
        ErrorCode.Unprocessable,
        `None of the account’s holdings on ${asOfDate} can be scored (no price or score data for ${symbols.join(', ')}).`,
        undefined,
        EvaluationRefusal.NoScorableHoldings,
      );
    }

    const score = await this.scoring.scoreHoldings(
      Object.fromEntries(valuation.valued.map((holding) => [holding.symbol, holding.valueUsd.toFixed()])),
      asOfDate,
    );
    const holdings = weighHoldings(valuation);
    return {
      accountId,
      asOfDate,
      qScore: score.qScore,
      fScore: score.fScore,
      rScore: score.rScore,
      grade: score.grade,
      riskLevel: score.riskLevel,
      btcWeight: btcWeight(holdings),
      holdings,
      excluded: valuation.excluded,
    };
  }
}
