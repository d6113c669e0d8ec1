/**
 * Open lots and tax-loss harvesting candidates (issue 19 items 3 and 4; docs/tax-report.md): the
 * cost-basis engine's open lots for the selected accounts, valued at the latest stored prices, as
 * of the clock's now. Read-only; the figures are made in src/domain/tax/open-lots.ts.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import {
  DEFAULT_LIST_PAGE,
  decodeListCursor,
  listCursorPurpose,
  pageOfList,
  type ListPosition,
} from '../../common/pagination/list-page.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import { computeCostBasis, type CostBasisMethod } from '../../domain/cost-basis/index.js';
import {
  harvestingCandidates,
  totalLotsBySymbol,
  type HarvestingCandidate,
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
  /** Page size (the DTO checks 1 to MAX_LIST_PAGE); default DEFAULT_LIST_PAGE. */
  readonly limit?: number;
  /** The nextCursor of the previous page of the same query. */
  readonly cursor?: string;
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
  /** One page of the lots. */
  readonly lots: readonly ValuedLot[];
  /** Over every lot, whatever the page. */
  readonly totals: readonly LotTotals[];
  readonly nextCursor: string | null;
}

export interface HarvestingReport extends LotsScope, Omit<HarvestingSummary, 'candidates'> {
  readonly minLossUsd: string;
  readonly washSale: WashSaleTreatment;
  /** One page of the candidates; the sums and counts are over all of them. */
  readonly candidates: readonly HarvestingCandidate[];
  /** Candidates over every page. */
  readonly candidateLots: number;
  readonly nextCursor: string | null;
}

/** A lot's key in its list: unique (a lot id is unique in its account and asset). */
const lotKey = (lot: ValuedLot): string => `${lot.accountId}\u0000${lot.symbol}\u0000${lot.lotId}`;

@Injectable()
export class TaxLotsService {
  constructor(
    private readonly selection: TaxAccountSelection,
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
  ) {}

  /** One page of the open lots (the engine's order), with the totals of all of them. */
  async lots(tenantId: string, query: LotsQuery): Promise<LotsReport> {
    const purpose = listCursorPurpose('taip-lots', [
      query.accountId,
      query.identity,
      query.asset,
      query.method,
    ]);
    const after = await decodeListCursor(this.cursors, tenantId, purpose, query.cursor);
    const { scope, lots } = await this.openLots(tenantId, query);
    const page = await this.page(tenantId, purpose, lots, query.limit, after);
    return { ...scope, lots: page.items, totals: totalLotsBySymbol(lots), nextCursor: page.nextCursor };
  }

  /** One page of the candidates (largest loss first), with the sums and counts of all of them. */
  async harvesting(tenantId: string, query: HarvestingQuery): Promise<HarvestingReport> {
    const purpose = listCursorPurpose('taip-harvesting-candidates', [
      query.accountId,
      query.identity,
      query.asset,
      query.method,
      query.minLossUsd,
      query.washSale,
    ]);
    const after = await decodeListCursor(this.cursors, tenantId, purpose, query.cursor);
    const { scope, lots, entries, accountIds } = await this.openLots(tenantId, query);
    const summary = harvestingCandidates(lots, {
      minLossUsd: query.minLossUsd,
      washSale: query.washSale,
      asOf: scope.asOf,
      // Replacement purchases count in the accounts covered only (not accounts merely linked by transfers).
      entries: entries.filter((entry) => accountIds.has(entry.accountId)),
    });
    const page = await this.page(tenantId, purpose, summary.candidates, query.limit, after);
    return {
      ...scope,
      ...summary,
      candidates: page.items,
      candidateLots: summary.candidates.length,
      minLossUsd: query.minLossUsd,
      washSale: query.washSale,
      nextCursor: page.nextCursor,
    };
  }

  private page<T extends ValuedLot>(
    tenantId: string,
    purpose: string,
    items: readonly T[],
    limit: number | undefined,
    after: ListPosition | null,
  ) {
    return pageOfList(this.cursors, tenantId, purpose, items, lotKey, limit ?? DEFAULT_LIST_PAGE, after);
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
