/**
 * Open lots and tax-loss harvesting candidates (issue 19 items 3 and 4; docs/tax-report.md): the
 * cost-basis engine's open lots for the selected accounts, valued at the latest stored prices, as
 * of the clock's now. Read-only; the figures are made in src/domain/tax/open-lots.ts, in the
 * compute pool's worker threads, inside a heavy-work slot of the tenant (issue 28), and only the
 * page asked for comes back to the request thread.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import {
  DEFAULT_LIST_PAGE,
  decodeListCursor,
  listCursorPurpose,
  pageOfWindow,
  type ListPosition,
} from '../../common/pagination/list-page.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import type { CostBasisMethod } from '../../domain/cost-basis/index.js';
import {
  type HarvestingCandidate,
  type HarvestingSummary,
  type LotTotals,
  type ValuedLot,
  type WashSaleTreatment,
} from '../../domain/tax/index.js';
import { ComputePool, HeavyWorkAdmission, type OpenLotsData } from '../compute/index.js';
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

@Injectable()
export class TaxLotsService {
  constructor(
    private readonly selection: TaxAccountSelection,
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
    private readonly admission: HeavyWorkAdmission,
    private readonly pool: ComputePool,
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
    return this.admission.run(tenantId, async () => {
      const { scope, input } = await this.openLots(tenantId, query, after);
      const { totals, window } = await this.pool.run({ kind: 'lots', input });
      const page = await pageOfWindow(this.cursors, tenantId, purpose, window);
      return { ...scope, lots: page.items, totals, nextCursor: page.nextCursor };
    });
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
    return this.admission.run(tenantId, async () => {
      const { scope, input } = await this.openLots(tenantId, query, after);
      const { window, ...summary } = await this.pool.run({
        kind: 'harvesting',
        input,
        minLossUsd: query.minLossUsd,
        washSale: query.washSale,
      });
      const page = await pageOfWindow(this.cursors, tenantId, purpose, window);
      return {
        ...scope,
        ...summary,
        candidates: page.items,
        minLossUsd: query.minLossUsd,
        washSale: query.washSale,
        nextCursor: page.nextCursor,
      };
    });
  }

  private async openLots(
    tenantId: string,
    query: LotsQuery,
    after: ListPosition | null,
  ): Promise<{ scope: LotsScope; input: OpenLotsData }> {
    const asOf = this.clock.now();
    const selected = await this.selection.select(tenantId, query);
    const method = await this.selection.methodOf(tenantId, query.method, selected.account, asOf);
    // The prices of every asset of the ledger: the open lots are only known in the worker.
    const symbols = selected.symbols;
    const prices = symbols.length > 0 ? await this.prices.latestPricesUsd(symbols) : new Map();
    const input: OpenLotsData = {
      ...method.data,
      asOf,
      asset: query.asset,
      accountIds: selected.accounts.map((account) => account.id),
      prices: [...prices].map(([symbol, price]) => [symbol, { priceUsd: price.priceUsd, asOf: price.asOf }]),
      ledger: selected.ledger,
      limit: query.limit ?? DEFAULT_LIST_PAGE,
      after,
    };
    const scope: LotsScope = {
      asOf,
      method: method.method,
      methodSource: method.source,
      asset: query.asset ?? 'ALL',
      accountId: selected.account?.id ?? null,
      accounts: selected.accounts.length,
    };
    return { scope, input };
  }
}
