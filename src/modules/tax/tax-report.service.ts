/**
 * Tax reporting (design §7, docs/tax-report.md): the gains report and Form 8949 of a tax year,
 * for one account or the whole tenant, from the very engine and ledger the balances use, so the
 * report never disagrees with them. Read-only: opens no transaction, writes nothing. The numbers
 * are made in src/domain/tax, in the compute pool's worker threads (issue 28: never on the
 * request thread); this service checks the year, takes a heavy-work slot for the tenant
 * (HeavyWorkAdmission: 429/503 when full) and reads the accounts and ledger inside it.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import type { CostBasisMethod } from '../../domain/cost-basis/index.js';
import {
  FIRST_TAX_YEAR,
  type BoxTotals,
  type Form8949Line,
  type Form8949LineJson,
  type GainsSummary,
  type Readiness,
  type TermLineTotals,
} from '../../domain/tax/index.js';
import {
  ComputePool,
  HeavyWorkAdmission,
  reviveForm8949Line,
  reviveLineTotals,
  reviveTermLineTotals,
  type Form1099DaOutcome,
  type TaxYearData,
} from '../compute/index.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import type { AccountRecord } from '../accounts/index.js';
import {
  DEFAULT_1099_DA_PAGE,
  FORM_1099_DA_CURSOR_PURPOSE,
  isForm1099DaPosition,
  requestDigest,
  type Form1099DaPosition,
} from './form-1099-da-page.js';
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

/**
 * The worker's reconciliation (counts and totals over the whole file, `page`: at most `limit` items
 * of each list from the cursor's position on) with the scope, and the cursor of the next page.
 */
export interface Form1099DaReport
  extends TaxReportScope, Omit<Form1099DaOutcome, 'readiness' | 'more' | 'outcome'> {
  /** null: no list has more. */
  readonly nextCursor: string | null;
}

/** Which page of a reconciliation: `limit` items of each list, after `cursor`'s position. */
export interface Form1099DaPageRequest {
  readonly limit?: number;
  readonly cursor?: string;
}

/** At most this many line problems are listed in a 400 (all are counted). */
const LISTED_PROBLEMS = 100;

export interface Form8949Report extends TaxReportScope {
  readonly lines: readonly Form8949Line[];
  readonly boxTotals: readonly BoxTotals[];
  readonly totals: TermLineTotals;
}

/** Form 8949 for the JSON report: the lines already mapped in the worker thread (the request thread only serialises). */
export interface Form8949JsonReport extends TaxReportScope {
  readonly lines: readonly Form8949LineJson[];
  readonly boxTotals: readonly BoxTotals[];
  readonly totals: TermLineTotals;
}

/** Form 8949 as the CSV file, made in the worker thread (the request thread only sends it). */
export interface Form8949CsvReport extends TaxReportScope {
  readonly csv: string;
}

/** Form 8949 as a PDF (form-8949-pdf.ts), drawn in the worker thread. */
export interface Form8949PdfReport extends TaxReportScope {
  readonly pdf: Uint8Array;
}

@Injectable()
export class TaxReportService {
  constructor(
    private readonly selection: TaxAccountSelection,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
    private readonly admission: HeavyWorkAdmission,
    private readonly pool: ComputePool,
  ) {}

  async gainsReport(tenantId: string, query: TaxReportQuery): Promise<GainsReport> {
    this.checkYear(query);
    return this.admission.run(tenantId, async () => {
      const { scope, input } = await this.prepare(tenantId, query);
      const { readiness, summary } = await this.pool.run({ kind: 'gains', input });
      return {
        ...scope,
        readiness,
        ...summary,
        totals: reviveTermLineTotals(summary.totals),
        assets: summary.assets.map((asset) => ({
          symbol: asset.symbol,
          transactions: asset.transactions,
          ...reviveTermLineTotals(asset),
        })),
      };
    });
  }

  async form8949(tenantId: string, query: TaxReportQuery): Promise<Form8949Report> {
    this.checkYear(query);
    return this.admission.run(tenantId, async () => {
      const { scope, input } = await this.prepare(tenantId, query);
      const form = await this.pool.run({ kind: 'form8949', input });
      return {
        ...scope,
        readiness: form.readiness,
        lines: form.lines.map(reviveForm8949Line),
        boxTotals: form.boxTotals.map(reviveLineTotals),
        totals: reviveTermLineTotals(form.totals),
      };
    });
  }

  /** form8949 with its lines mapped as the JSON report lists them, in the worker thread. */
  async form8949Json(tenantId: string, query: TaxReportQuery): Promise<Form8949JsonReport> {
    this.checkYear(query);
    return this.admission.run(tenantId, async () => {
      const { scope, input } = await this.prepare(tenantId, query);
      const form = await this.pool.run({ kind: 'form8949Json', input });
      return {
        ...scope,
        readiness: form.readiness,
        lines: form.lines,
        boxTotals: form.boxTotals.map(reviveLineTotals),
        totals: reviveTermLineTotals(form.totals),
      };
    });
  }

  /** Form 8949's lines as the CSV file (form-8949-csv.ts), built in the worker thread. */
  async form8949Csv(tenantId: string, query: TaxReportQuery): Promise<Form8949CsvReport> {
    this.checkYear(query);
    return this.admission.run(tenantId, async () => {
      const { scope, input } = await this.prepare(tenantId, query);
      const { readiness, csv } = await this.pool.run({ kind: 'form8949Csv', input });
      return { ...scope, readiness, csv };
    });
  }

  /** Form 8949 as a PDF in the IRS layout (form-8949-pdf.ts), drawn in the worker thread. */
  async form8949Pdf(tenantId: string, query: TaxReportQuery): Promise<Form8949PdfReport> {
    this.checkYear(query);
    return this.admission.run(tenantId, async () => {
      const { scope, input } = await this.prepare(tenantId, query);
      const { readiness, pdf } = await this.pool.run({
        kind: 'form8949Pdf',
        input,
        scope: scopeLine(scope),
        generatedAt: this.clock.now(),
      });
      return { ...scope, readiness, pdf };
    });
  }

  /**
   * A broker's Form 1099-DA (CSV, docs/tax-report.md "Form 1099-DA reconciliation") matched with
   * this tax year's Form 8949 lines of the selected accounts. A bad file is a 400 naming every
   * bad line (the first 100); nothing is stored either way. The answer is paged
   * (form-1099-da-page.ts): one page of each list, counts and totals over the whole file.
   */
  async reconcileForm1099Da(
    tenantId: string,
    query: TaxReportQuery,
    csv: string,
    pageRequest: Form1099DaPageRequest = {},
  ): Promise<Form1099DaReport> {
    // A cursor from another tenant, of another file or parameters is refused before any work.
    const request = requestDigest(csv, query);
    const position = pageRequest.cursor
      ? await this.cursors.decode(
          tenantId,
          FORM_1099_DA_CURSOR_PURPOSE,
          pageRequest.cursor,
          isForm1099DaPosition,
        )
      : null;
    if (position && position.f !== request) {
      throw DomainError.validation(
        'cursor',
        'cursor was issued for another file or other parameters: send the same file and parameters with it, or start again without it.',
      );
    }
    this.checkYear(query);
    return this.admission.run(tenantId, async () => {
      // The file is checked before the ledger is read: a bad file costs no read.
      const check = await this.pool.run({ kind: 'form1099DaCheck', csv, listedProblems: LISTED_PROBLEMS });
      if (!check.ok) {
        const more =
          check.problemCount > check.problems.length
            ? ` (the first ${check.problems.length} are listed)`
            : '';
        const summary = `${check.problemCount} problem(s) in the Form 1099-DA file${more}.`;
        const errors: Record<string, string[]> = { csv: [summary] };
        for (const problem of check.problems) (errors[`line ${problem.line}`] ??= []).push(problem.message);
        throw new DomainError(ErrorCode.ValidationFailed, summary, errors);
      }
      const { scope, input } = await this.prepare(tenantId, query);
      const offset = position?.o ?? 0;
      const limit = pageRequest.limit ?? DEFAULT_1099_DA_PAGE;
      const outcome = await this.pool.run({ kind: 'form1099Da', input, csv, offset, limit });
      if (position && position.r !== outcome.outcome) {
        // As every paged list of the API: a list that changed under a cursor is a 400 naming it.
        throw DomainError.validation(
          'cursor',
          'The reconciliation changed since this cursor was issued (the history of the accounts changed between two pages); start again without it.',
        );
      }
      return {
        ...scope,
        readiness: outcome.readiness,
        brokerLines: outcome.brokerLines,
        serviceLines: outcome.serviceLines,
        counts: outcome.counts,
        brokerProceedsUsd: outcome.brokerProceedsUsd,
        serviceProceedsUsd: outcome.serviceProceedsUsd,
        page: outcome.page,
        nextCursor: outcome.more
          ? await this.cursors.encode(tenantId, FORM_1099_DA_CURSOR_PURPOSE, {
              o: offset + limit,
              f: request,
              r: outcome.outcome,
            } satisfies Form1099DaPosition)
          : null,
      };
    });
  }

  private checkYear(query: TaxReportQuery): void {
    const currentYear = this.clock.now().getUTCFullYear();
    if (query.taxYear < FIRST_TAX_YEAR || query.taxYear > currentYear) {
      throw DomainError.validation('tax_year', `tax_year must be from ${FIRST_TAX_YEAR} to ${currentYear}.`);
    }
  }

  /** The scope (all but the readiness, which the worker makes) and the worker's input. */
  private async prepare(
    tenantId: string,
    query: TaxReportQuery,
  ): Promise<{ scope: Omit<TaxReportScope, 'readiness'>; input: TaxYearData }> {
    const selected = await this.selection.select(tenantId, query);
    const yearEnd = new Date(Date.UTC(query.taxYear, 11, 31));
    const method = await this.selection.methodOf(tenantId, query.method, selected.account, yearEnd);
    const input: TaxYearData = {
      taxYear: query.taxYear,
      asset: query.asset,
      ...method.data,
      // What readiness reads of an account (not the whole record).
      accounts: selected.accounts.map(({ id, syncStatus, address, chain }) => ({
        id,
        syncStatus,
        address,
        chain,
      })),
      ledger: selected.ledger,
    };
    const scope = {
      taxYear: query.taxYear,
      method: method.method,
      methodSource: method.source,
      asset: query.asset ?? 'ALL',
      account: selected.account,
      accountCount: selected.accounts.length,
    };
    return { scope, input };
  }
}

/** What a printed report covers, in a line: the account or accounts, the asset and the method. */
function scopeLine(scope: Omit<TaxReportScope, 'readiness'>): string {
  const accounts = scope.account
    ? `account ${scope.account.id} (${scope.account.platform}, identity ${scope.account.identity})`
    : `all ${scope.accountCount} account(s) of the advisor`;
  const asset = scope.asset === 'ALL' ? 'every asset' : scope.asset;
  const method = `${scope.method.toUpperCase()} (${scope.methodSource === 'elected' ? 'elected' : scope.methodSource === 'query' ? 'asked for' : 'default'})`;
  return `${accounts} · ${asset} · cost basis ${method}`;
}
