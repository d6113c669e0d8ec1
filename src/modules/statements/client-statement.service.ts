import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { canonicalDecimal } from '../../domain/money/format.js';
import { PROJECTION_DISCLOSURE } from '../../domain/simulation/return-assumptions.js';
import type {
  ClientStatementInput,
  StatementHolding,
  StatementProjection,
  StatementRealized,
} from '../../domain/statements/client-statement-pdf.js';
import { AccountsService, type AccountRecord } from '../accounts/index.js';
import { ComputePool } from '../compute/index.js';
import { LedgerService } from '../ledger/index.js';
import { PortfoliosService } from '../portfolios/index.js';
import { SimulationService } from '../simulation/index.js';
import { FIRST_TAX_YEAR, TaxReportService } from '../tax/index.js';

export interface ClientStatementQuery {
  readonly accountIds: readonly string[];
  readonly taxYear: number;
  readonly portfolioId?: string;
  readonly horizonYears: number;
  readonly seed: number;
}

export interface ClientStatement {
  readonly pdf: Uint8Array;
  readonly fileName: string;
}

/** Principal of a projection when the holdings have no market value (the simulation's default). */
const DEFAULT_PRINCIPAL_USD = 10_000;

/**
 * The client statement (issue 31 item 5; docs/reports.md, "Client statement"): an account's or a
 * household's holdings from the stored balance snapshots, the realized gains of a tax year from
 * the tax reports (the same figures as /taip/gains-report, summed over the accounts), and the
 * projection of a portfolio from the simulation, drawn into a PDF in the compute pool's worker.
 *
 * Owns: gathering those figures into one statement. Never: computes gains, balances or paths
 * itself (the tax, ledger and simulation modules do), or reads another tenant's accounts.
 */
@Injectable()
export class ClientStatementService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly tax: TaxReportService,
    private readonly simulations: SimulationService,
    private readonly portfolios: PortfoliosService,
    private readonly pool: ComputePool,
    private readonly clock: Clock,
  ) {}

  async statement(tenantId: string, clientId: string, query: ClientStatementQuery): Promise<ClientStatement> {
    const currentYear = this.clock.now().getUTCFullYear();
    if (query.taxYear < FIRST_TAX_YEAR || query.taxYear > currentYear)
      throw DomainError.validation('tax_year', `tax_year must be from ${FIRST_TAX_YEAR} to ${currentYear}.`);
    const ids = [...new Set(query.accountIds)];
    const accounts: AccountRecord[] = [];
    for (const id of ids) {
      const account = await this.accounts.findById(tenantId, id);
      if (!account) throw DomainError.notFound('Account');
      accounts.push(account);
    }
    // Before any heavy work: an unknown portfolio is a 404 now, not after the gains.
    const portfolio = query.portfolioId ? await this.portfolios.get(tenantId, query.portfolioId) : null;

    const { holdings, totals } = await this.holdings(tenantId, ids);
    const realized = await this.realized(tenantId, ids, query.taxYear);
    const { projection, unavailable } = await this.projection(
      tenantId,
      clientId,
      query,
      holdings,
      totals,
      portfolio,
    );
    const synthetic = accounts.some((account) => account.source === 'sandbox');
    const subject =
      (accounts.length === 1
        ? `Account ${accounts[0]!.identity} (${accounts[0]!.platform})`
        : `Household of ${accounts.length} accounts`) + (synthetic ? ' · SYNTHETIC SANDBOX DATA' : '');
    const input: ClientStatementInput = {
      subject,
      accounts: accounts.map((a) => ({ id: a.id, platform: a.platform, identity: a.identity })),
      taxYear: query.taxYear,
      holdings,
      totals,
      realized,
      projection,
      projectionUnavailable: unavailable,
      generatedAt: this.clock.now(),
    };
    const pdf = await this.pool.run({ kind: 'clientStatementPdf', input });
    return { pdf, fileName: `client-statement-${query.taxYear}-${ids[0]!.slice(0, 8)}.pdf` };
  }

  /** The accounts' balance snapshots summed per asset, largest market value first. */
  private async holdings(
    tenantId: string,
    ids: readonly string[],
  ): Promise<{ holdings: StatementHolding[]; totals: ClientStatementInput['totals'] }> {
    const snapshots = await this.ledger.snapshotsOf(tenantId, ids);
    const bySymbol = new Map<
      string,
      {
        quantity: Decimal;
        basis: Decimal;
        value: Decimal | null;
        gain: Decimal | null;
        price: string | null;
        review: boolean;
      }
    >();
    for (const snapshot of snapshots.values()) {
      for (const asset of snapshot.assets) {
        const entry = bySymbol.get(asset.symbol) ?? {
          quantity: new Decimal(0),
          basis: new Decimal(0),
          value: null,
          gain: null,
          price: null,
          review: false,
        };
        entry.quantity = entry.quantity.plus(asset.quantity);
        entry.basis = entry.basis.plus(asset.costBasisUsd);
        if (asset.marketValueUsd !== null)
          entry.value = (entry.value ?? new Decimal(0)).plus(asset.marketValueUsd);
        if (asset.unrealizedGainUsd !== null)
          entry.gain = (entry.gain ?? new Decimal(0)).plus(asset.unrealizedGainUsd);
        entry.price ??= asset.priceUsd;
        entry.review ||= asset.needsReview;
        bySymbol.set(asset.symbol, entry);
      }
    }
    const holdings = [...bySymbol]
      .filter(([, entry]) => !entry.quantity.isZero())
      .map(([symbol, entry]) => ({
        symbol,
        quantity: canonicalDecimal(entry.quantity),
        priceUsd: entry.price,
        marketValueUsd: entry.value === null ? null : canonicalDecimal(entry.value),
        costBasisUsd: canonicalDecimal(entry.basis),
        unrealizedGainUsd: entry.gain === null ? null : canonicalDecimal(entry.gain),
        needsReview: entry.review,
      }))
      .sort(
        (a, b) =>
          new Decimal(b.marketValueUsd ?? -1).cmp(new Decimal(a.marketValueUsd ?? -1)) ||
          a.symbol.localeCompare(b.symbol),
      );
    const sum = (pick: (h: StatementHolding) => string | null) =>
      canonicalDecimal(holdings.reduce((total, h) => total.plus(pick(h) ?? 0), new Decimal(0)));
    return {
      holdings,
      totals: {
        marketValueUsd: sum((h) => h.marketValueUsd),
        costBasisUsd: sum((h) => h.costBasisUsd),
        unrealizedGainUsd: sum((h) => h.unrealizedGainUsd),
      },
    };
  }

  /** The year's realized gains: each account's gains report (its Form 8949 cents), summed. */
  private async realized(
    tenantId: string,
    ids: readonly string[],
    taxYear: number,
  ): Promise<ClientStatementInput['realized']> {
    let shortTerm = new Decimal(0);
    let longTerm = new Decimal(0);
    const byAsset = new Map<string, { short: Decimal; long: Decimal }>();
    for (const accountId of ids) {
      const report = await this.tax.gainsReport(tenantId, { taxYear, accountId });
      shortTerm = shortTerm.plus(report.totals.shortTerm.gainUsd);
      longTerm = longTerm.plus(report.totals.longTerm.gainUsd);
      for (const asset of report.assets) {
        const entry = byAsset.get(asset.symbol) ?? { short: new Decimal(0), long: new Decimal(0) };
        entry.short = entry.short.plus(asset.shortTerm.gainUsd);
        entry.long = entry.long.plus(asset.longTerm.gainUsd);
        byAsset.set(asset.symbol, entry);
      }
    }
    const cents = (value: Decimal) => value.toFixed(2);
    const rows: StatementRealized[] = [...byAsset]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([symbol, { short, long }]) => ({
        symbol,
        shortTermUsd: cents(short),
        longTermUsd: cents(long),
        netUsd: cents(short.plus(long)),
      }));
    return {
      shortTermUsd: cents(shortTerm),
      longTermUsd: cents(longTerm),
      netUsd: cents(shortTerm.plus(longTerm)),
      byAsset: rows,
    };
  }

  /**
   * The chosen portfolio's projection (or the holdings' own weights), from the current market value.
   * What the simulation cannot project (an asset it has no history of, too little history) leaves
   * the statement without a projection and says why; a busy simulation pool is the caller's 429/503.
   */
  private async projection(
    tenantId: string,
    clientId: string,
    query: ClientStatementQuery,
    holdings: readonly StatementHolding[],
    totals: ClientStatementInput['totals'],
    portfolio: Awaited<ReturnType<PortfoliosService['get']>> | null,
  ): Promise<{ projection: StatementProjection | null; unavailable: string | null }> {
    let weights: { symbol: string; weight: number }[];
    let name: string;
    if (portfolio) {
      name = `Portfolio “${portfolio.name}”`;
      weights = Object.entries(portfolio.allocations)
        .filter(([, percent]) => percent > 0)
        .map(([symbol, percent]) => ({ symbol, weight: percent / 100 }));
    } else {
      name = 'Current holdings';
      const value = new Decimal(totals.marketValueUsd);
      if (value.isZero())
        return { projection: null, unavailable: 'the holdings have no market value to project.' };
      weights = holdings
        .filter((h) => h.marketValueUsd !== null && new Decimal(h.marketValueUsd).gt(0))
        .map((h) => ({ symbol: h.symbol, weight: new Decimal(h.marketValueUsd!).div(value).toNumber() }));
    }
    const principal = new Decimal(totals.marketValueUsd);
    const principalUsd = principal.gt(0) ? principal.toDecimalPlaces(2).toNumber() : DEFAULT_PRINCIPAL_USD;
    try {
      const outcome = await this.simulations.simulate({
        clientId,
        tenantId,
        portfolio: weights,
        horizonYears: query.horizonYears,
        scenarios: ['bull', 'base', 'bear'],
        principalUsd,
        seed: query.seed,
      });
      return {
        projection: {
          portfolio: name,
          weights,
          principalUsd: principal.gt(0) ? principal.toFixed(2) : DEFAULT_PRINCIPAL_USD.toFixed(2),
          horizonYears: outcome.horizonYears,
          bands: outcome.bands,
          scenarios: outcome.scenarios.map((s) => ({
            name: s.name,
            terminalUsd: s.terminalUsd,
            cagr: s.cagr,
          })),
          assumptions: outcome.assumptions.map((a) => ({
            symbol: a.symbol,
            expectedReturn: a.expectedReturn,
            volatility: a.volatility,
            source: a.source === 'tenant' ? 'your firm' : 'history, shrunk toward the risk-free rate',
          })),
          method: outcome.method,
          paths: outcome.paths,
          seed: outcome.seed,
          disclosure: PROJECTION_DISCLOSURE,
        },
        unavailable: null,
      };
    } catch (error) {
      if (
        error instanceof DomainError &&
        (error.code === ErrorCode.ValidationFailed || error.code === ErrorCode.Unprocessable)
      ) {
        const detail = error.fieldErrors ? Object.values(error.fieldErrors).flat().join(' ') : error.message;
        return { projection: null, unavailable: detail };
      }
      throw error;
    }
  }
}
