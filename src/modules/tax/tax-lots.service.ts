/**
 * Open lots and tax-loss harvesting candidates (issue 19 items 3 and 4; docs/tax-report.md): the
 * cost-basis engine's open lots for the selected accounts, valued at the latest stored prices, as
 * of the clock's now. Read-only; the figures are made in src/domain/tax/open-lots.ts.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import { computeCostBasis, type CostBasisMethod } from '../../domain/cost-basis/index.js';
import {
  harvestingCandidates,
  totalLotsBySymbol,
  valueOpenLots,
  type HarvestingSummary,
  type LotTotals,
  type ValuedLot,
  type WashSaleTreatment,
} from '../../domain/tax/index.js';
import { TaxAccountSelection, type AccountSelector, type MethodSource } from './tax-account-selection.js';

export interface LotsQuery extends AccountSelector {
  readonly asset?: string;
  /** undefined: the tenant's elections (FIFO without any). */
  readonly method?: CostBasisMethod;
}

export interface HarvestingQuery extends LotsQuery {
  readonly minLossUsd: string;
  readonly washSale: WashSaleTreatment;
}

export interface LotsScope {
  readonly asOf: Date;
  readonly method: CostBasisMethod;
  readonly methodSource: MethodSource;
  readonly asset: string;
  readonly accountId: string | null;
  readonly accounts: number;
}

export interface LotsReport extends LotsScope {
  readonly lots: readonly ValuedLot[];
  readonly totals: readonly LotTotals[];
}

export interface HarvestingReport extends LotsScope, HarvestingSummary {
  readonly minLossUsd: string;
  readonly washSale: WashSaleTreatment;
}

@Injectable()
export class TaxLotsService {
  constructor(
    private readonly selection: TaxAccountSelection,
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
    private readonly clock: Clock,
  ) {}

  async lots(tenantId: string, query: LotsQuery): Promise<LotsReport> {
    const { scope, lots } = await this.openLots(tenantId, query);
    return { ...scope, lots, totals: totalLotsBySymbol(lots) };
  }

  async harvesting(tenantId: string, query: HarvestingQuery): Promise<HarvestingReport> {
    const { scope, lots, entries, accountIds } = await this.openLots(tenantId, query);
    const summary = harvestingCandidates(lots, {
      minLossUsd: query.minLossUsd,
      washSale: query.washSale,
      asOf: scope.asOf,
      // Replacement purchases count in the accounts covered only (not accounts merely linked by transfers).
      entries: entries.filter((entry) => accountIds.has(entry.accountId)),
    });
    return { ...scope, ...summary, minLossUsd: query.minLossUsd, washSale: query.washSale };
  }

  private async openLots(tenantId: string, query: LotsQuery) {
    const asOf = this.clock.now();
    const selected = await this.selection.select(tenantId, query);
    const accountIds = new Set(selected.accounts.map((account) => account.id));
    const method = await this.selection.methodOf(tenantId, query.method, selected.account, asOf);
    const result = computeCostBasis(selected.entries, {
      method: method.method,
      methodFor: method.methodFor,
      selections: method.selections,
      transition: method.transition,
      // Listed in the order the method would sell them today: the method in force now, LTFO's
      // long-term lots as of today first (a lot may have crossed the one-year line since the last entry).
      openLotsAsOf: asOf,
    });
    const symbols = [...new Set(result.openLots.map((lot) => lot.symbol))];
    const prices = symbols.length > 0 ? await this.prices.latestPricesUsd(symbols) : new Map();
    const lots = valueOpenLots(result.openLots, { accountIds, asset: query.asset }, prices, asOf);
    const scope: LotsScope = {
      asOf,
      method: method.method,
      methodSource: method.source,
      asset: query.asset ?? 'ALL',
      accountId: selected.account?.id ?? null,
      accounts: selected.accounts.length,
    };
    return { scope, lots, entries: selected.entries, accountIds };
  }
}
