/**
 * A tax year's figures (design §7, docs/tax-report.md): the disposals of the selected accounts
 * in the year, their Form 8949 lines, the form's readiness and the gains report's sums, from the
 * very engine the balances use. Pure: the tax module selects the accounts and reads the ledger.
 */
import {
  computeCostBasis,
  disposalsInYear,
  splitByTerm,
  type CostBasisMethod,
  type BasisTransition,
  type LotSelection,
  type CostBasisResult,
  type Disposal,
  type LedgerEntry,
  type TermTotals,
} from '../cost-basis/index.js';
import { sumExact } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';
import {
  addTotals,
  sumLines,
  toForm8949Lines,
  type Custody,
  type Form8949Line,
  type LineTotals,
} from './form-8949-lines.js';
import { assessReadiness, type Readiness, type ReadinessAccount } from './readiness.js';

/** Bitcoin's first year: nothing taxable in a crypto ledger is older. */
export const FIRST_TAX_YEAR = 2009;

/** What the report needs to know of an account. */
export interface TaxAccount extends ReadinessAccount {
  readonly address: string | null;
  readonly chain: string | null;
}

export interface TaxYearInput {
  readonly taxYear: number;
  /** Upper-case ticker; undefined: every asset. */
  readonly asset?: string;
  readonly method: CostBasisMethod;
  /** A method per disposal (the tenant's elections); unset: `method` for every disposal. */
  readonly methodFor?: (accountId: string, at: Date) => CostBasisMethod;
  /** The tenant's lot selections (specific identification), keyed by lotSelectionKey. */
  readonly selections?: ReadonlyMap<string, LotSelection>;
  /** The tenant's confirmed safe-harbor allocation (docs/cost-basis.md, "Universal to per-wallet"). */
  readonly transition?: BasisTransition;
  /** The accounts the report is about (one, or every account of the tenant). */
  readonly accounts: readonly TaxAccount[];
  /** Their entries and those of every account linked to them by own-account transfers. */
  readonly entries: readonly LedgerEntry[];
}

export interface TaxYear {
  readonly result: CostBasisResult;
  /** Taxable disposals of the selected accounts (and asset) in the year. */
  readonly disposals: readonly Disposal[];
  readonly lines: readonly Form8949Line[];
  readonly readiness: Readiness;
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

export interface GainsSummary {
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

/** Wallets with an address on a chain are the client's own; everything else is held by a platform. */
export function custodyOf(account: Pick<TaxAccount, 'address' | 'chain'>): Custody {
  return account.address !== null && account.chain !== null ? 'self_custody' : 'custodial';
}

export function computeTaxYear(input: TaxYearInput): TaxYear {
  const selectedIds = new Set(input.accounts.map((account) => account.id));
  const custodyById = new Map(input.accounts.map((account) => [account.id, custodyOf(account)]));
  // Only this year's disposals are written out: on a long history most of the engine's output
  // would be other years' rows (lots, issues and income are complete either way).
  const result = computeCostBasis(input.entries, {
    method: input.method,
    methodFor: input.methodFor,
    selections: input.selections,
    transition: input.transition,
    disposalsInYear: input.taxYear,
  });
  const disposals = disposalsInYear(result, input.taxYear).filter(
    (d) => selectedIds.has(d.accountId) && (input.asset === undefined || d.symbol === input.asset),
  );
  const lines = toForm8949Lines(disposals, input.taxYear, (id) => custodyById.get(id) ?? 'custodial');
  const readiness = assessReadiness({
    taxYear: input.taxYear,
    asset: input.asset,
    accounts: input.accounts,
    entries: input.entries,
    result,
    lines,
  });
  return { result, disposals, lines, readiness };
}

/** The gains report's figures of a computed tax year. */
export function summarizeGains(input: TaxYearInput, year: TaxYear): GainsSummary {
  const { disposals, lines, result } = year;
  const selectedIds = new Set(input.accounts.map((account) => account.id));
  const income = result.incomeEvents.filter(
    (event) =>
      selectedIds.has(event.accountId) &&
      event.receivedAt.getUTCFullYear() === input.taxYear &&
      (input.asset === undefined || event.symbol === input.asset),
  );
  const transactions = countTransactions(disposals);
  return {
    transactions: transactions.total,
    totals: termTotals(lines),
    assets: [...linesBySymbol(lines)].map(([symbol, assetLines]) => ({
      symbol,
      transactions: transactions.bySymbol.get(symbol) ?? 0,
      ...termTotals(assetLines),
    })),
    exact: splitByTerm(disposals),
    ordinaryIncomeUsd: canonicalDecimal(sumExact(income.map((e) => e.valueUsd))),
  };
}

const compareBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Distinct transactions (account and transaction id) among the disposals, in all and per asset,
 * in one pass: a sale's rows (one per lot piece) come one after another, so only a row whose
 * transaction differs from the row before is looked up; a transaction met again later still
 * counts once.
 */
function countTransactions(disposals: readonly Disposal[]): {
  total: number;
  bySymbol: Map<string, number>;
} {
  const seen = new Map<string, Set<string>>();
  const seenBySymbol = new Map<string, Map<string, Set<string>>>();
  const bySymbol = new Map<string, number>();
  let total = 0;
  let previous: Disposal | undefined;
  const firstTime = (byAccount: Map<string, Set<string>>, d: Disposal): boolean => {
    let ids = byAccount.get(d.accountId);
    if (ids === undefined) byAccount.set(d.accountId, (ids = new Set()));
    if (ids.has(d.transactionId)) return false;
    ids.add(d.transactionId);
    return true;
  };
  for (const d of disposals) {
    const repeat =
      previous !== undefined &&
      previous.accountId === d.accountId &&
      previous.transactionId === d.transactionId &&
      previous.symbol === d.symbol;
    previous = d;
    if (repeat) continue;
    if (firstTime(seen, d)) total++;
    let ofSymbol = seenBySymbol.get(d.symbol);
    if (ofSymbol === undefined) seenBySymbol.set(d.symbol, (ofSymbol = new Map()));
    if (firstTime(ofSymbol, d)) bySymbol.set(d.symbol, (bySymbol.get(d.symbol) ?? 0) + 1);
  }
  return { total, bySymbol };
}

export function termTotals(lines: readonly Form8949Line[]): TermLineTotals {
  const short: Form8949Line[] = [];
  const long: Form8949Line[] = [];
  for (const line of lines) {
    if (line.term === 'short') short.push(line);
    else if (line.term === 'long') long.push(line);
  }
  const shortTerm = sumLines(short);
  const longTerm = sumLines(long);
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
