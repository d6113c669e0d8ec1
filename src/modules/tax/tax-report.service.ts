/**
 * Tax reporting (design §7, docs/tax-report.md): the gains report and Form 8949 of a tax year,
 * for one account or the whole tenant, from the very engine and ledger the balances use, so the
 * report never disagrees with them. Read-only: opens no transaction, writes nothing. The numbers
 * are made in src/domain/tax; this service checks the year and reads the accounts and ledger.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { CostBasisMethod } from '../../domain/cost-basis/index.js';
import {
  computeTaxYear,
  FIRST_TAX_YEAR,
  summarizeGains,
  termTotals,
  totalsByBox,
  type BoxTotals,
  type Form8949Line,
  type GainsSummary,
  type Readiness,
  type TermLineTotals,
} from '../../domain/tax/index.js';
import type { AccountRecord } from '../accounts/index.js';
import { TaxAccountSelection, type AccountSelector } from './tax-account-selection.js';

export {
  custodyOf,
  FIRST_TAX_YEAR,
  type AssetGains,
  type Readiness,
  type ReadinessReason,
  type ReadinessReasonCode,
  type TermLineTotals,
} from '../../domain/tax/index.js';

export interface TaxReportQuery extends AccountSelector {
  readonly taxYear: number;
  /** Upper-case ticker; undefined: every asset. */
  readonly asset?: string;
  readonly method: CostBasisMethod;
}

export interface TaxReportScope {
  readonly taxYear: number;
  readonly method: CostBasisMethod;
  /** The asset asked for, or 'ALL'. */
  readonly asset: string;
  readonly account: AccountRecord | null;
  readonly accountCount: number;
  readonly readiness: Readiness;
}

export interface GainsReport extends TaxReportScope, GainsSummary {}

export interface Form8949Report extends TaxReportScope {
  readonly lines: readonly Form8949Line[];
  readonly boxTotals: readonly BoxTotals[];
  readonly totals: TermLineTotals;
}

@Injectable()
export class TaxReportService {
  constructor(
    private readonly selection: TaxAccountSelection,
    private readonly clock: Clock,
  ) {}

  async gainsReport(tenantId: string, query: TaxReportQuery): Promise<GainsReport> {
    const { scope, input, year } = await this.prepare(tenantId, query);
    return { ...scope, ...summarizeGains(input, year) };
  }

  async form8949(tenantId: string, query: TaxReportQuery): Promise<Form8949Report> {
    const { scope, year } = await this.prepare(tenantId, query);
    return {
      ...scope,
      lines: year.lines,
      boxTotals: totalsByBox(year.lines),
      totals: termTotals(year.lines),
    };
  }

  private async prepare(tenantId: string, query: TaxReportQuery) {
    const currentYear = this.clock.now().getUTCFullYear();
    if (query.taxYear < FIRST_TAX_YEAR || query.taxYear > currentYear) {
      throw DomainError.validation('tax_year', `tax_year must be from ${FIRST_TAX_YEAR} to ${currentYear}.`);
    }
    const selected = await this.selection.select(tenantId, query);
    const input = {
      taxYear: query.taxYear,
      asset: query.asset,
      method: query.method,
      accounts: selected.accounts,
      entries: selected.entries,
    };
    const year = computeTaxYear(input);
    const scope: TaxReportScope = {
      taxYear: query.taxYear,
      method: query.method,
      asset: query.asset ?? 'ALL',
      account: selected.account,
      accountCount: selected.accounts.length,
      readiness: year.readiness,
    };
    return { scope, input, year };
  }
}
