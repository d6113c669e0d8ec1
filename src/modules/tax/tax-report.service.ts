/**
 * Tax reporting (design §7, docs/tax-report.md): the gains report and Form 8949 of a tax year,
 * for one account or the whole tenant, from the very engine and ledger the balances use, so the
 * report never disagrees with them. Read-only: opens no transaction, writes nothing.
 */
import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import {
  computeCostBasis,
  disposalsInYear,
  splitByTerm,
  type CostBasisMethod,
  type CostBasisResult,
  type Disposal,
  type TermTotals,
} from '../../domain/cost-basis/index.js';
import { canonicalDecimal } from '../../domain/money/format.js';
import type { AccountEntity } from '../accounts/entities/account.entity.js';
import {
  addTotals,
  sumLines,
  toForm8949Lines,
  totalsByBox,
  type BoxTotals,
  type Custody,
  type Form8949Line,
  type LineTotals,
} from './form-8949/form-8949-lines.js';
import { TaxAccountSelection, type AccountSelector } from './tax-account-selection.js';

/** Bitcoin's first year: nothing taxable in a crypto ledger is older. */
export const FIRST_TAX_YEAR = 2009;

export interface TaxReportQuery extends AccountSelector {
  readonly taxYear: number;
  /** Upper-case ticker; undefined: every asset. */
  readonly asset?: string;
  readonly method: CostBasisMethod;
}

export type ReadinessReasonCode =
  'unknown_basis' | 'uncovered_disposal' | 'inconsistent_history' | 'account_not_synced';

export interface ReadinessReason {
  readonly code: ReadinessReasonCode;
  readonly count: number;
  readonly message: string;
}

export interface Readiness {
  readonly status: 'ready' | 'needs_review';
  readonly reasons: readonly ReadinessReason[];
}

export interface TermLineTotals {
  readonly shortTerm: LineTotals;
  readonly longTerm: LineTotals;
  readonly total: LineTotals;
}

export interface AssetGains extends TermLineTotals {
  readonly symbol: string;
  readonly transactions: number;
}

export interface TaxReportScope {
  readonly taxYear: number;
  readonly method: CostBasisMethod;
  /** The asset asked for, or 'ALL'. */
  readonly asset: string;
  readonly account: AccountEntity | null;
  readonly accountCount: number;
  readonly readiness: Readiness;
}

export interface GainsReport extends TaxReportScope {
  /** Taxable disposals (sales and asset-paid fees) in the year: transactions, not lines. */
  readonly transactions: number;
  /** Sums of the cent-rounded Form 8949 lines. */
  readonly totals: TermLineTotals;
  readonly assets: readonly AssetGains[];
  /** The engine's unrounded sums: what agrees with the balances' realizedGainLoss to the last digit. */
  readonly exact: TermTotals;
  /** Income received in the year (staking rewards...): ordinary income, not on Form 8949. Exact decimal text. */
  readonly ordinaryIncomeUsd: string;
}

export interface Form8949Report extends TaxReportScope {
  readonly lines: readonly Form8949Line[];
  readonly boxTotals: readonly BoxTotals[];
  readonly totals: TermLineTotals;
}

interface Prepared extends TaxReportScope {
  readonly result: CostBasisResult;
  readonly disposals: readonly Disposal[];
  readonly lines: readonly Form8949Line[];
  readonly selectedIds: ReadonlySet<string>;
}

@Injectable()
export class TaxReportService {
  constructor(
    private readonly selection: TaxAccountSelection,
    private readonly clock: Clock,
  ) {}

  async gainsReport(tenantId: string, query: TaxReportQuery): Promise<GainsReport> {
    const prepared = await this.prepare(tenantId, query);
    const { disposals, lines, result, selectedIds } = prepared;
    const income = result.incomeEvents.filter(
      (event) =>
        selectedIds.has(event.accountId) &&
        event.receivedAt.getUTCFullYear() === query.taxYear &&
        (query.asset === undefined || event.symbol === query.asset),
    );
    return {
      ...scopeOf(prepared),
      transactions: countTransactions(disposals),
      totals: termTotals(lines),
      assets: [...linesBySymbol(lines)].map(([symbol, assetLines]) => ({
        symbol,
        transactions: countTransactions(disposals.filter((d) => d.symbol === symbol)),
        ...termTotals(assetLines),
      })),
      exact: splitByTerm(disposals),
      ordinaryIncomeUsd: canonicalDecimal(income.reduce((sum, e) => sum.plus(e.valueUsd), new Exact(0))),
    };
  }

  async form8949(tenantId: string, query: TaxReportQuery): Promise<Form8949Report> {
    const prepared = await this.prepare(tenantId, query);
    return {
      ...scopeOf(prepared),
      lines: prepared.lines,
      boxTotals: totalsByBox(prepared.lines),
      totals: termTotals(prepared.lines),
    };
  }

  private async prepare(tenantId: string, query: TaxReportQuery): Promise<Prepared> {
    const currentYear = this.clock.now().getUTCFullYear();
    if (query.taxYear < FIRST_TAX_YEAR || query.taxYear > currentYear) {
      throw DomainError.validation('tax_year', `tax_year must be from ${FIRST_TAX_YEAR} to ${currentYear}.`);
    }
    const selected = await this.selection.select(tenantId, query);
    const selectedIds = new Set(selected.accounts.map((account) => account.id));
    const custodyById = new Map(selected.accounts.map((account) => [account.id, custodyOf(account)]));
    const result = computeCostBasis(selected.entries, { method: query.method });
    const disposals = disposalsInYear(result, query.taxYear).filter(
      (d) => selectedIds.has(d.accountId) && (query.asset === undefined || d.symbol === query.asset),
    );
    const lines = toForm8949Lines(disposals, query.taxYear, (id) => custodyById.get(id) ?? 'custodial');
    return {
      taxYear: query.taxYear,
      method: query.method,
      asset: query.asset ?? 'ALL',
      account: selected.account,
      accountCount: selected.accounts.length,
      readiness: readiness(query, selected.accounts, selected.entries, result, lines),
      result,
      disposals,
      lines,
      selectedIds,
    };
  }
}

/** Exact sums (the global Decimal rounds to 20 significant digits). */
const Exact = Decimal.clone({ precision: 1_000 });

const compareBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Wallets with an address on a chain are the client's own; everything else is held by a platform. */
export function custodyOf(account: Pick<AccountEntity, 'address' | 'chain'>): Custody {
  return account.address !== null && account.chain !== null ? 'self_custody' : 'custodial';
}

function scopeOf(prepared: Prepared): TaxReportScope {
  const { taxYear, method, asset, account, accountCount, readiness } = prepared;
  return { taxYear, method, asset, account, accountCount, readiness };
}

function countTransactions(disposals: readonly Disposal[]): number {
  return new Set(disposals.map((d) => `${d.accountId}\u0000${d.transactionId}`)).size;
}

function termTotals(lines: readonly Form8949Line[]): TermLineTotals {
  const shortTerm = sumLines(lines.filter((line) => line.term === 'short'));
  const longTerm = sumLines(lines.filter((line) => line.term === 'long'));
  return { shortTerm, longTerm, total: addTotals(shortTerm, longTerm) };
}

/** Lines grouped by asset (tickers in byte order), in one pass. */
function linesBySymbol(lines: readonly Form8949Line[]): Map<string, Form8949Line[]> {
  const groups = new Map<string, Form8949Line[]>();
  for (const line of lines) {
    const group = groups.get(line.symbol);
    if (group) group.push(line);
    else groups.set(line.symbol, [line]);
  }
  return new Map([...groups].sort(([a], [b]) => compareBytes(a, b)));
}

/**
 * `needs_review` when any line lacks an honest basis or date, when the history the lots come
 * from is inconsistent up to the end of the year, or when an account's data may be incomplete.
 */
function readiness(
  query: TaxReportQuery,
  accounts: readonly AccountEntity[],
  entries: readonly { accountId: string; transactionId: string; timestamp: Date }[],
  result: CostBasisResult,
  lines: readonly Form8949Line[],
): Readiness {
  const reasons: ReadinessReason[] = [];
  const unknownBasis = lines.filter((line) => line.reviewReason === 'unknown_basis').length;
  if (unknownBasis > 0) {
    reasons.push({
      code: 'unknown_basis',
      count: unknownBasis,
      message: `${unknownBasis} line(s) dispose of coins whose cost basis is unknown (received by a deposit or a transfer from an account the service does not know); their basis is shown as 0.00 and must be supplied before filing.`,
    });
  }
  const uncovered = lines.filter((line) => line.reviewReason === 'uncovered_disposal').length;
  if (uncovered > 0) {
    reasons.push({
      code: 'uncovered_disposal',
      count: uncovered,
      message: `${uncovered} line(s) dispose of more than the account held: transactions are missing from its history, so these lines have no acquisition date and no basis.`,
    });
  }

  // Shortfalls before or in the year (also of withdrawals and transfers) make later lots suspect.
  const selectedIds = new Set(accounts.map((account) => account.id));
  const endOfYear = Date.UTC(query.taxYear + 1, 0, 1);
  const timeOf = new Map(
    entries.map((e) => [`${e.accountId}\u0000${e.transactionId}`, e.timestamp.getTime()]),
  );
  const linedTransactions = new Set(lines.map((line) => `${line.accountId}\u0000${line.transactionId}`));
  const shortfalls = result.issues.filter((issue) => {
    if (issue.kind !== 'insufficient_holdings' || !selectedIds.has(issue.accountId)) return false;
    if (query.asset !== undefined && issue.symbol !== query.asset) return false;
    const key = `${issue.accountId}\u0000${issue.transactionId}`;
    return (timeOf.get(key) ?? Infinity) < endOfYear && !linedTransactions.has(key);
  }).length;
  if (shortfalls > 0) {
    reasons.push({
      code: 'inconsistent_history',
      count: shortfalls,
      message: `${shortfalls} earlier transaction(s) of these accounts disposed of more than the account held (a gap in the history), so the lots consumed by this year's lines may be wrong.`,
    });
  }

  const notSynced = accounts.filter((account) => account.syncStatus !== 'synced');
  if (notSynced.length > 0) {
    const states = [...new Set(notSynced.map((account) => account.syncStatus))].sort().join(', ');
    reasons.push({
      code: 'account_not_synced',
      count: notSynced.length,
      message: `${notSynced.length} account(s) are not synced (${states}): their transaction history may be incomplete.`,
    });
  }
  return { status: reasons.length === 0 ? 'ready' : 'needs_review', reasons };
}
