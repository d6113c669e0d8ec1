/**
 * Tax reporting (design §7, docs/tax-report.md): the gains report and Form 8949 of a tax year,
 * for one account or the whole tenant, from the very engine and ledger the balances use, so the
 * report never disagrees with them. Read-only: opens no transaction, writes nothing. The numbers
 * are made in src/domain/tax; this service checks the year and reads the accounts and ledger.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import type { CostBasisMethod } from '../../domain/cost-basis/index.js';
import {
  computeTaxYear,
  FIRST_TAX_YEAR,
  parseForm1099Da,
  reconcileForm1099Da,
  type Form1099DaReconciliation,
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
import { TaxAccountSelection, type AccountSelector, type MethodSource } from './tax-account-selection.js';

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
  /** undefined: the tenant's elections (FIFO without any). */
  readonly method?: CostBasisMethod;
}

export interface TaxReportScope {
  readonly taxYear: number;
  /** The method asked for; with elections, the one in force for the scope on the year's last day. */
  readonly method: CostBasisMethod;
  readonly methodSource: MethodSource;
  /** The asset asked for, or 'ALL'. */
  readonly asset: string;
  readonly account: AccountRecord | null;
  readonly accountCount: number;
  readonly readiness: Readiness;
}

export interface GainsReport extends TaxReportScope, GainsSummary {}

export interface Form1099DaReport extends TaxReportScope, Form1099DaReconciliation {
  readonly brokerLines: number;
  readonly serviceLines: number;
}

/** At most this many line problems are listed in a 400 (all are counted). */
const LISTED_PROBLEMS = 100;

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

  /**
   * A broker's Form 1099-DA (CSV, docs/tax-report.md "Form 1099-DA reconciliation") matched with
   * this tax year's Form 8949 lines of the selected accounts. A bad file is a 400 naming every
   * bad line (the first 100); nothing is stored either way.
   */
  async reconcileForm1099Da(tenantId: string, query: TaxReportQuery, csv: string): Promise<Form1099DaReport> {
    const parsed = parseForm1099Da(csv);
    if (!parsed.ok) {
      const listed = parsed.problems.slice(0, LISTED_PROBLEMS);
      const more = parsed.problems.length > listed.length ? ` (the first ${listed.length} are listed)` : '';
      const summary = `${parsed.problems.length} problem(s) in the Form 1099-DA file${more}.`;
      const errors: Record<string, string[]> = { csv: [summary] };
      for (const problem of listed) (errors[`line ${problem.line}`] ??= []).push(problem.message);
      throw new DomainError(ErrorCode.ValidationFailed, summary, errors);
    }
    const { scope, year } = await this.prepare(tenantId, query);
    return {
      ...scope,
      ...reconcileForm1099Da(parsed.lines, year.lines),
      brokerLines: parsed.lines.length,
      serviceLines: year.lines.length,
    };
  }

  private async prepare(tenantId: string, query: TaxReportQuery) {
    const currentYear = this.clock.now().getUTCFullYear();
    if (query.taxYear < FIRST_TAX_YEAR || query.taxYear > currentYear) {
      throw DomainError.validation('tax_year', `tax_year must be from ${FIRST_TAX_YEAR} to ${currentYear}.`);
    }
    const selected = await this.selection.select(tenantId, query);
    const yearEnd = new Date(Date.UTC(query.taxYear, 11, 31));
    const method = await this.selection.methodOf(tenantId, query.method, selected.account, yearEnd);
    const input = {
      taxYear: query.taxYear,
      asset: query.asset,
      method: method.method,
      methodFor: method.methodFor,
      selections: method.selections,
      transition: method.transition,
      accounts: selected.accounts,
      entries: selected.entries,
    };
    const year = computeTaxYear(input);
    const scope: TaxReportScope = {
      taxYear: query.taxYear,
      method: method.method,
      methodSource: method.source,
      asset: query.asset ?? 'ALL',
      account: selected.account,
      accountCount: selected.accounts.length,
      readiness: year.readiness,
    };
    return { scope, input, year };
  }
}
