/**
 * /qscore/evaluate (design §8): an account's holdings at the end of a UTC day, from its own
 * transactions through the cost-basis engine (the quantities the balances would have shown that
 * evening), valued at that day's stored prices, scored by AssetScoringService.scoreHoldings.
 * Read-only.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import { computeCostBasis } from '../../domain/cost-basis/index.js';
import { canonicalDecimal } from '../../domain/money/format.js';
import type { Grade, RiskLevel } from '../../domain/scoring/grades.js';
import { LedgerService } from '../accounts/ledger/ledger.service.js';
import { AccountsRepository } from '../accounts/repositories/accounts.repository.js';
import { addDays, utcDate } from '../market/market-dates.js';
import { AssetScoringService } from '../scoring/asset-scoring.service.js';

export interface EvaluatedHolding {
  readonly symbol: string;
  readonly quantity: string;
  readonly valueUsd: Decimal;
  /** Share of the scored value, a fraction. */
  readonly weight: Decimal;
}

export interface ExcludedHolding {
  readonly symbol: string;
  readonly quantity: string;
  readonly reason: 'no_price' | 'no_score_data';
}

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

/** Exact sums and shares (the global Decimal rounds to 20 significant digits). */
const Exact = Decimal.clone({ precision: 60 });

@Injectable()
export class AccountEvaluationService {
  constructor(
    private readonly accounts: AccountsRepository,
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
    const { entries } = await this.ledger.ledgerForAccount(tenantId, accountId);
    const own = entries.filter((entry) => entry.accountId === accountId);
    if (own.length === 0) {
      throw new DomainError(
        ErrorCode.Unprocessable,
        account.syncStatus === 'synced'
          ? 'The account has no transactions, so it held nothing to evaluate.'
          : `The account has no transaction data yet (syncStatus ${account.syncStatus}).`,
        undefined,
        account.syncStatus === 'synced' ? 'no_transactions' : 'no_data_yet',
      );
    }
    const firstDate = utcDate(
      new Date(own.reduce((first, entry) => Math.min(first, entry.timestamp.getTime()), Infinity)),
    );
    if (asOfDate < firstDate) {
      throw DomainError.validation(
        'as_of_date',
        `as_of_date is before the account’s history, which starts on ${firstDate}.`,
      );
    }

    // "As of" a date = after everything timestamped on that UTC day.
    const endOfDay = Date.parse(`${addDays(asOfDate, 1)}T00:00:00Z`);
    const result = computeCostBasis(
      entries.filter((entry) => entry.timestamp.getTime() < endOfDay),
      { method: 'fifo' },
    );
    const quantities = new Map<string, Decimal>();
    for (const lot of result.openLots) {
      if (lot.accountId !== accountId) continue;
      quantities.set(lot.symbol, (quantities.get(lot.symbol) ?? new Exact(0)).plus(lot.quantity));
    }
    const symbols = [...quantities.keys()].sort();
    if (symbols.length === 0) {
      throw new DomainError(
        ErrorCode.Unprocessable,
        `The account held nothing at the end of ${asOfDate}, so there is nothing to score.`,
        undefined,
        'no_holdings',
      );
    }

    const [pricesOnDate, scored] = await Promise.all([
      this.prices.pricesOnDate(symbols, asOfDate),
      this.scoring.scoreAssets(asOfDate),
    ]);
    const scorable = new Set(scored.map((record) => record.symbol));
    const excluded: ExcludedHolding[] = [];
    const valued: { symbol: string; quantity: string; valueUsd: Decimal }[] = [];
    for (const symbol of symbols) {
      const quantity = canonicalDecimal(quantities.get(symbol)!);
      const price = pricesOnDate.get(symbol);
      if (price === undefined) excluded.push({ symbol, quantity, reason: 'no_price' });
      else if (!scorable.has(symbol)) excluded.push({ symbol, quantity, reason: 'no_score_data' });
      else valued.push({ symbol, quantity, valueUsd: new Exact(quantity).times(price) });
    }
    const total = valued.reduce((sum, holding) => sum.plus(holding.valueUsd), new Exact(0));
    if (!total.greaterThan(0)) {
      throw new DomainError(
        ErrorCode.Unprocessable,
        `None of the account’s holdings on ${asOfDate} can be scored (no price or score data for ${symbols.join(', ')}).`,
        undefined,
        'no_scorable_holdings',
      );
    }

    const score = await this.scoring.scoreHoldings(
      Object.fromEntries(valued.map((holding) => [holding.symbol, holding.valueUsd.toFixed()])),
      asOfDate,
    );
    const holdings = valued
      .map((holding) => ({ ...holding, weight: holding.valueUsd.dividedBy(total) }))
      .sort((a, b) => b.valueUsd.comparedTo(a.valueUsd) || a.symbol.localeCompare(b.symbol));
    return {
      accountId,
      asOfDate,
      qScore: score.qScore,
      fScore: score.fScore,
      rScore: score.rScore,
      grade: score.grade,
      riskLevel: score.riskLevel,
      btcWeight: holdings.find((holding) => holding.symbol === 'BTC')?.weight ?? new Exact(0),
      holdings,
      excluded,
    };
  }
}
