/**
 * The work the compute pool runs (compute.worker.ts), as plain data in and out. What runs here
 * (issue 28: every computation whose cost grows with a tenant's history):
 * - the tax figures of the heavy endpoints: gains report, Form 8949 as JSON (its lines already as
 *   the report lists them), CSV or PDF, the Form 1099-DA check and reconciliation, open lots,
 *   harvesting candidates, the client statement PDF (tax module, statements);
 * - the safe-harbor allocation (`safeHarbor`) and a lot selection's check (`lotSelectionCheck`:
 *   the disposal and the lots open just before it) (cost-basis module);
 * - the balances every write recomputes (`balanceSnapshots`: refresh, import, election, lot
 *   selection, safe-harbor confirmation, deletion; ledger HistoryWriter).
 * Imports only src/domain, so the worker thread loads no framework, database or configuration; the
 * functions are the very ones the request thread called before, over entries decoded from the
 * compact ledger (domain/cost-basis/ledger-encoding.ts), so the figures are the same bit for bit.
 *
 * What crosses threads is what a structured clone keeps: no Decimal (sent as its exact text and
 * revived with reviveLineTotals/reviveForm8949Line), no array with extra properties (a lot
 * selection's recordedAt travels beside its picks), no function (methodFor is rebuilt from the
 * elections with methodForElections). A Date comes back as a Date, of the process's main realm:
 * what the request thread stores is revived into its own (reviveSnapshots, reviveSafeHarborAllocation).
 */
import type { Decimal } from 'decimal.js';
import { computeBalanceSnapshots, type Snapshot } from '../../domain/balances/index.js';
import {
  compareForProcessing,
  computeCostBasis,
  computeSafeHarborAllocation,
  decodeLedger,
  DEFAULT_COST_BASIS_METHOD,
  methodForElections,
  type BasisTransition,
  type CostBasisMethod,
  type EncodedLedger,
  type LedgerEntry,
  type LotPick,
  type LotSelection,
  type MethodElection,
  type OpenLot,
  type SafeHarborAllocation,
} from '../../domain/cost-basis/index.js';
import { toExact } from '../../domain/money/exact-decimal.js';
import {
  renderClientStatementPdf,
  type ClientStatementInput,
} from '../../domain/statements/client-statement-pdf.js';
import { listWindow, type ListPosition, type ListWindow } from '../../domain/paging/list-window.js';
import {
  computeTaxYear,
  harvestingCandidates,
  outcomeDigest,
  pageOf,
  parseForm1099Da,
  reconcileForm1099Da,
  summarizeGains,
  termTotals,
  renderForm8949Pdf,
  toForm8949Csv,
  toForm8949LineJson,
  totalLotsBySymbol,
  totalsByBox,
  valueOpenLots,
  type BoxTotals,
  type Form1099DaProblem,
  type Form1099DaReconciliation,
  type Form8949Line,
  type Form8949LineJson,
  type GainsSummary,
  type HarvestingCandidate,
  type HarvestingSummary,
  type LineTotals,
  type LotPrice,
  type LotTotals,
  type Readiness,
  type TaxAccount,
  type TaxYearInput,
  type TermLineTotals,
  type ValuedLot,
  type WashSaleTreatment,
} from '../../domain/tax/index.js';

// ---- Inputs -------------------------------------------------------------------------------------

/** A lot selection as data: its picks, and when it was recorded (an array's extra property would be lost). */
export interface SelectionData {
  readonly key: string;
  readonly picks: readonly LotPick[];
  readonly recordedAt: Date | undefined;
}

/** How lots are chosen: the engine's options without the function (rebuilt in the worker). */
export interface MethodData {
  readonly method: CostBasisMethod;
  /** The tenant's elections, when each disposal takes the method elected for it; undefined: `method` everywhere. */
  readonly elections: readonly MethodElection[] | undefined;
  /** In the order the ledger listed them. */
  readonly selections: readonly SelectionData[];
  readonly transition: BasisTransition | undefined;
}

export interface TaxYearData extends MethodData {
  readonly taxYear: number;
  readonly asset: string | undefined;
  readonly accounts: readonly TaxAccount[];
  readonly ledger: EncodedLedger;
}

export interface OpenLotsData extends MethodData {
  readonly asOf: Date;
  readonly asset: string | undefined;
  /** The accounts the lots are listed for (the ledger may hold transfer-linked others). */
  readonly accountIds: readonly string[];
  /** Latest stored prices of the ledger's symbols (absent: no price). */
  readonly prices: readonly (readonly [string, LotPrice])[];
  readonly ledger: EncodedLedger;
  readonly limit: number;
  readonly after: ListPosition | null;
}

/** The safe-harbor allocation's input (cost-basis SafeHarborService): the tenant's whole ledger and choices. */
export interface SafeHarborData {
  readonly ledger: EncodedLedger;
  readonly universalMethod: CostBasisMethod;
  /** Every election of the tenant (the per-account engine: what each account holds on 2025-01-01). */
  readonly elections: readonly MethodElection[];
  readonly selections: readonly SelectionData[];
  /** The order the accounts are filled in (the order they were linked). */
  readonly accountOrder: readonly string[];
}

/**
 * A lot selection's check (cost-basis LotSelectionsService): the account's transfer-linked ledger,
 * the disposal named, and the lots open in the account just before it.
 */
export interface LotSelectionCheckData {
  readonly ledger: EncodedLedger;
  readonly accountId: string;
  readonly transactionId: string;
  readonly elections: readonly MethodElection[];
  /** The tenant's selections but the disposal's own (the one being recorded replaces it). */
  readonly selections: readonly SelectionData[];
  readonly transition: BasisTransition | undefined;
  /** The lot ids picked: the answer says which of them were acquired after the disposal. */
  readonly lotIds: readonly string[];
}

/** Balances of accounts from their transfer-linked ledger (ledger HistoryWriter, on every write). */
export interface BalanceSnapshotsData {
  readonly ledger: EncodedLedger;
  readonly accountIds: readonly string[];
  readonly pricesUsd: readonly (readonly [string, string])[];
  readonly reportedBalances: readonly (readonly [string, Readonly<Record<string, string>> | null])[];
  readonly computedAt: Date;
  readonly elections: readonly MethodElection[];
  readonly selections: readonly SelectionData[];
  readonly transition: BasisTransition | undefined;
}

export type ComputeTask =
  | { readonly kind: 'gains'; readonly input: TaxYearData }
  | { readonly kind: 'form8949'; readonly input: TaxYearData }
  | { readonly kind: 'form8949Json'; readonly input: TaxYearData }
  | { readonly kind: 'form8949Csv'; readonly input: TaxYearData }
  | { readonly kind: 'clientStatementPdf'; readonly input: ClientStatementInput }
  | {
      readonly kind: 'form8949Pdf';
      readonly input: TaxYearData;
      /** What the report covers, printed under the title. */
      readonly scope: string;
      readonly generatedAt: Date;
    }
  | { readonly kind: 'form1099DaCheck'; readonly csv: string; readonly listedProblems: number }
  | {
      readonly kind: 'form1099Da';
      readonly input: TaxYearData;
      readonly csv: string;
      readonly offset: number;
      readonly limit: number;
    }
  | { readonly kind: 'lots'; readonly input: OpenLotsData }
  | {
      readonly kind: 'harvesting';
      readonly input: OpenLotsData;
      readonly minLossUsd: string;
      readonly washSale: WashSaleTreatment;
    }
  | { readonly kind: 'safeHarbor'; readonly input: SafeHarborData }
  | { readonly kind: 'lotSelectionCheck'; readonly input: LotSelectionCheckData }
  | { readonly kind: 'balanceSnapshots'; readonly input: BalanceSnapshotsData };

// ---- Outputs ------------------------------------------------------------------------------------

/** A Decimal as its exact text (toFixed(): no exponent; '-0' kept). */
export type DecimalText = string;
type Texted<T> = { readonly [K in keyof T]: T[K] extends Decimal ? DecimalText : T[K] };
export type LineTotalsData = Texted<LineTotals>;
export type BoxTotalsData = Texted<BoxTotals>;
export type Form8949LineData = Texted<Form8949Line>;
export interface TermLineTotalsData {
  readonly shortTerm: LineTotalsData;
  readonly longTerm: LineTotalsData;
  readonly total: LineTotalsData;
}

export interface GainsOutcome {
  readonly readiness: Readiness;
  readonly summary: Omit<GainsSummary, 'totals' | 'assets'> & {
    readonly totals: TermLineTotalsData;
    readonly assets: readonly (TermLineTotalsData & {
      readonly symbol: string;
      readonly transactions: number;
    })[];
  };
}

export interface Form8949Outcome {
  readonly readiness: Readiness;
  readonly lines: readonly Form8949LineData[];
  readonly boxTotals: readonly BoxTotalsData[];
  readonly totals: TermLineTotalsData;
}

/** Form 8949 with its lines already as the JSON report lists them: the request thread only serialises. */
export interface Form8949JsonOutcome extends Omit<Form8949Outcome, 'lines'> {
  readonly lines: readonly Form8949LineJson[];
}

export interface Form8949CsvOutcome {
  readonly readiness: Readiness;
  readonly csv: string;
}

export interface Form8949PdfOutcome {
  readonly readiness: Readiness;
  readonly pdf: Uint8Array;
}

export type Form1099DaCheckOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly problemCount: number; readonly problems: readonly Form1099DaProblem[] };

export interface Form1099DaOutcome {
  readonly readiness: Readiness;
  readonly brokerLines: number;
  readonly serviceLines: number;
  readonly counts: {
    readonly matched: number;
    readonly different: number;
    readonly unmatchedBroker: number;
    readonly unmatchedService: number;
  };
  readonly brokerProceedsUsd: string;
  readonly serviceProceedsUsd: string;
  readonly page: Pick<
    Form1099DaReconciliation,
    'matched' | 'different' | 'unmatchedBroker' | 'unmatchedService'
  >;
  readonly more: boolean;
  /** outcomeDigest of the whole reconciliation (the cursor's check). */
  readonly outcome: string;
}

export interface LotsOutcome {
  readonly totals: readonly LotTotals[];
  /** null: the cursor's lot is gone. */
  readonly window: ListWindow<ValuedLot> | null;
}

export interface HarvestingOutcome extends Omit<HarvestingSummary, 'candidates'> {
  readonly candidateLots: number;
  /** null: the cursor's candidate is gone. */
  readonly window: ListWindow<HarvestingCandidate> | null;
}

/** The disposal a lot selection names, and the lots open in its account and asset just before it. */
export type LotSelectionCheckOutcome =
  | { readonly found: false }
  | {
      readonly found: true;
      readonly disposal: LedgerEntry;
      /** The account's open lots of the disposal's asset just before it (the engine's order). */
      readonly openLots: readonly OpenLot[];
      /** Of the lot ids asked about, those whose origin is a later transaction of the asset. */
      readonly acquiredAfter: readonly string[];
    };

/** The disposal's time in the request thread's realm (it is compared and shown, never stored). */
export const reviveLotSelectionCheck = (outcome: LotSelectionCheckOutcome): LotSelectionCheckOutcome =>
  outcome.found
    ? { ...outcome, disposal: { ...outcome.disposal, timestamp: sameInstant(outcome.disposal.timestamp) } }
    : outcome;

export type ComputeOutcome =
  | GainsOutcome
  | Form8949Outcome
  | Form8949JsonOutcome
  | Form8949CsvOutcome
  | Form8949PdfOutcome
  | Uint8Array
  | Form1099DaCheckOutcome
  | Form1099DaOutcome
  | LotsOutcome
  | HarvestingOutcome
  | SafeHarborAllocation
  | LotSelectionCheckOutcome
  | Snapshot[];

/** What each task answers. */
export interface ComputeOutcomes {
  gains: GainsOutcome;
  form8949: Form8949Outcome;
  form8949Json: Form8949JsonOutcome;
  form8949Csv: Form8949CsvOutcome;
  form8949Pdf: Form8949PdfOutcome;
  clientStatementPdf: Uint8Array;
  form1099DaCheck: Form1099DaCheckOutcome;
  form1099Da: Form1099DaOutcome;
  lots: LotsOutcome;
  harvesting: HarvestingOutcome;
  safeHarbor: SafeHarborAllocation;
  lotSelectionCheck: LotSelectionCheckOutcome;
  balanceSnapshots: Snapshot[];
}

// ---- Decimals across threads --------------------------------------------------------------------

const decimalText = (value: Decimal): DecimalText =>
  value.isZero() && value.isNegative() ? '-0' : value.toFixed();

const totalsText = (totals: LineTotals): LineTotalsData => ({
  lines: totals.lines,
  proceedsUsd: decimalText(totals.proceedsUsd),
  costBasisUsd: decimalText(totals.costBasisUsd),
  gainUsd: decimalText(totals.gainUsd),
});

const termTotalsText = (totals: TermLineTotals): TermLineTotalsData => ({
  shortTerm: totalsText(totals.shortTerm),
  longTerm: totalsText(totals.longTerm),
  total: totalsText(totals.total),
});

export const reviveLineTotals = <T extends LineTotalsData>(
  totals: T,
): Omit<T, 'proceedsUsd' | 'costBasisUsd' | 'gainUsd'> & LineTotals => ({
  ...totals,
  proceedsUsd: toExact(totals.proceedsUsd),
  costBasisUsd: toExact(totals.costBasisUsd),
  gainUsd: toExact(totals.gainUsd),
});

export const reviveTermLineTotals = (totals: TermLineTotalsData): TermLineTotals => ({
  shortTerm: reviveLineTotals(totals.shortTerm),
  longTerm: reviveLineTotals(totals.longTerm),
  total: reviveLineTotals(totals.total),
});

export const reviveForm8949Line = (line: Form8949LineData): Form8949Line => ({
  ...line,
  proceedsUsd: toExact(line.proceedsUsd),
  costBasisUsd: toExact(line.costBasisUsd),
  gainUsd: toExact(line.gainUsd),
});

// ---- Dates across threads -----------------------------------------------------------------------

/*
 * A Date that crossed threads is deserialised in the process's main realm. That is the caller's own
 * realm in the service; under Jest (each test file in a vm context of its own) it is not, and a
 * database driver's `instanceof Date` then fails. What the request thread stores is revived here
 * into its realm's Date (same instant): per snapshot or lot, negligible next to the computation.
 */
const sameInstant = (at: Date): Date => new Date(at.getTime());

/** The balance snapshots of a balanceSnapshots task, as stored by the writer. */
export const reviveSnapshots = (snapshots: readonly Snapshot[]): Snapshot[] =>
  snapshots.map((snapshot) => ({ ...snapshot, lastUpdatedOn: sameInstant(snapshot.lastUpdatedOn) }));

/** The safe-harbor allocation of a safeHarbor task (its lots are stored on confirmation). */
export function reviveSafeHarborAllocation(allocation: SafeHarborAllocation): SafeHarborAllocation {
  const lot = <T extends { readonly acquiredAt: Date }>(l: T): T => ({
    ...l,
    acquiredAt: sameInstant(l.acquiredAt),
  });
  return {
    ...allocation,
    transitionAt: sameInstant(allocation.transitionAt),
    firstDisposalAt: allocation.firstDisposalAt && sameInstant(allocation.firstDisposalAt),
    positions: allocation.positions.map((p) => ({
      ...p,
      lots: p.lots.map(lot),
      perAccountLots: p.perAccountLots.map(lot),
    })),
    assets: allocation.assets.map((a) => ({ ...a, excessLots: a.excessLots.map(lot) })),
    transition: { at: sameInstant(allocation.transition.at), lots: allocation.transition.lots.map(lot) },
  };
}

// ---- Selections across threads ------------------------------------------------------------------

/** The engine's selections as data: a selection's recordedAt travels beside its picks. */
export function selectionsData(selections: ReadonlyMap<string, LotSelection>): SelectionData[] {
  return [...selections].map(([key, selection]) => ({
    key,
    picks: [...selection],
    recordedAt: selection.recordedAt,
  }));
}

/** The engine's selections again (selectionsData's inverse), in the same order. */
function selectionsMap(selections: readonly SelectionData[]): Map<string, LotSelection> {
  return new Map<string, LotSelection>(
    selections.map((s) => [
      s.key,
      s.recordedAt === undefined ? [...s.picks] : Object.assign([...s.picks], { recordedAt: s.recordedAt }),
    ]),
  );
}

// ---- The work -----------------------------------------------------------------------------------

function engineOptions(data: MethodData) {
  return {
    method: data.method,
    methodFor: data.elections === undefined ? undefined : methodForElections(data.elections),
    selections: selectionsMap(data.selections),
    transition: data.transition,
  };
}

function taxYearInput(data: TaxYearData): TaxYearInput {
  return {
    taxYear: data.taxYear,
    asset: data.asset,
    ...engineOptions(data),
    accounts: data.accounts,
    entries: decodeLedger(data.ledger),
  };
}

function gains(data: TaxYearData): GainsOutcome {
  const input = taxYearInput(data);
  const year = computeTaxYear(input);
  const summary = summarizeGains(input, year);
  return {
    readiness: year.readiness,
    summary: {
      ...summary,
      totals: termTotalsText(summary.totals),
      assets: summary.assets.map((asset) => ({
        symbol: asset.symbol,
        transactions: asset.transactions,
        ...termTotalsText(asset),
      })),
    },
  };
}

function form8949(data: TaxYearData): Form8949Outcome {
  const year = computeTaxYear(taxYearInput(data));
  return {
    readiness: year.readiness,
    lines: year.lines.map((line) => ({
      ...line,
      proceedsUsd: decimalText(line.proceedsUsd),
      costBasisUsd: decimalText(line.costBasisUsd),
      gainUsd: decimalText(line.gainUsd),
    })),
    boxTotals: totalsByBox(year.lines).map((box) => ({ ...box, ...totalsText(box) })),
    totals: termTotalsText(termTotals(year.lines)),
  };
}

function form8949Json(data: TaxYearData): Form8949JsonOutcome {
  const year = computeTaxYear(taxYearInput(data));
  return {
    readiness: year.readiness,
    lines: year.lines.map(toForm8949LineJson),
    boxTotals: totalsByBox(year.lines).map((box) => ({ ...box, ...totalsText(box) })),
    totals: termTotalsText(termTotals(year.lines)),
  };
}

function form8949Csv(data: TaxYearData): Form8949CsvOutcome {
  const year = computeTaxYear(taxYearInput(data));
  return { readiness: year.readiness, csv: toForm8949Csv(year.lines) };
}

/** The form as a PDF (form-8949-pdf.ts): the same lines, hence the same cents, as the JSON and CSV. */
async function form8949Pdf(data: TaxYearData, scope: string, generatedAt: Date): Promise<Form8949PdfOutcome> {
  const year = computeTaxYear(taxYearInput(data));
  const pdf = await renderForm8949Pdf({ taxYear: data.taxYear, lines: year.lines, scope, generatedAt });
  return { readiness: year.readiness, pdf };
}

function form1099DaCheck(csv: string, listedProblems: number): Form1099DaCheckOutcome {
  const parsed = parseForm1099Da(csv);
  if (parsed.ok) return { ok: true };
  return {
    ok: false,
    problemCount: parsed.problems.length,
    problems: parsed.problems.slice(0, listedProblems),
  };
}

function form1099Da(data: TaxYearData, csv: string, offset: number, limit: number): Form1099DaOutcome {
  const parsed = parseForm1099Da(csv);
  // Checked by form1099DaCheck before the ledger was read; a file is the same text both times.
  if (!parsed.ok) throw new Error('The Form 1099-DA file was checked before: it cannot fail now.');
  const year = computeTaxYear(taxYearInput(data));
  const reconciliation = reconcileForm1099Da(parsed.lines, year.lines);
  const { page, more } = pageOf(reconciliation, offset, limit);
  return {
    readiness: year.readiness,
    brokerLines: parsed.lines.length,
    serviceLines: year.lines.length,
    counts: {
      matched: reconciliation.matched.length,
      different: reconciliation.different.length,
      unmatchedBroker: reconciliation.unmatchedBroker.length,
      unmatchedService: reconciliation.unmatchedService.length,
    },
    brokerProceedsUsd: reconciliation.brokerProceedsUsd,
    serviceProceedsUsd: reconciliation.serviceProceedsUsd,
    page,
    more,
    outcome: outcomeDigest(reconciliation),
  };
}

/** A lot's key in its list: unique (a lot id is unique in its account and asset). */
export const lotKey = (lot: ValuedLot): string => `${lot.accountId}\u0000${lot.symbol}\u0000${lot.lotId}`;

function openLots(data: OpenLotsData): { lots: ValuedLot[]; entries: LedgerEntry[] } {
  const entries = decodeLedger(data.ledger);
  const result = computeCostBasis(entries, {
    ...engineOptions(data),
    // Listed in the order the method would sell them at asOf: the method in force then, LTFO's
    // long-term lots as of that day first (a lot may have crossed the one-year line since the last entry).
    openLotsAsOf: data.asOf,
  });
  const lots = valueOpenLots(
    result.openLots,
    { accountIds: new Set(data.accountIds), asset: data.asset },
    new Map(data.prices),
    data.asOf,
  );
  return { lots, entries };
}

function lots(data: OpenLotsData): LotsOutcome {
  const { lots: valued } = openLots(data);
  return { totals: totalLotsBySymbol(valued), window: listWindow(valued, lotKey, data.limit, data.after) };
}

function harvesting(data: OpenLotsData, minLossUsd: string, washSale: WashSaleTreatment): HarvestingOutcome {
  const { lots: valued, entries } = openLots(data);
  const accountIds = new Set(data.accountIds);
  const { candidates, ...sums } = harvestingCandidates(valued, {
    minLossUsd,
    washSale,
    asOf: data.asOf,
    // Replacement purchases count in the accounts covered only (not accounts merely linked by transfers).
    entries: entries.filter((entry) => accountIds.has(entry.accountId)),
  });
  return {
    ...sums,
    candidateLots: candidates.length,
    window: listWindow(candidates, lotKey, data.limit, data.after),
  };
}

/** What SafeHarborService computed on the request thread before: the same call over the decoded ledger. */
function safeHarbor(data: SafeHarborData): SafeHarborAllocation {
  return computeSafeHarborAllocation({
    entries: decodeLedger(data.ledger),
    universalMethod: data.universalMethod,
    methodFor: methodForElections(data.elections),
    selections: selectionsMap(data.selections),
    accountOrder: data.accountOrder,
  });
}

/**
 * The disposal and the lots open just before it, as LotSelectionsService checked a selection on
 * the request thread before: the entries in processing order, the engine over those before the
 * disposal (the elections, the other selections, the transition for a 2025+ disposal only).
 */
function lotSelectionCheck(data: LotSelectionCheckData): LotSelectionCheckOutcome {
  const sorted = decodeLedger(data.ledger).sort(compareForProcessing);
  const index = sorted.findIndex(
    (e) => e.accountId === data.accountId && e.transactionId === data.transactionId,
  );
  if (index < 0) return { found: false };
  const disposal = sorted[index]!;
  const result = computeCostBasis(sorted.slice(0, index), {
    method: DEFAULT_COST_BASIS_METHOD,
    methodFor: methodForElections(data.elections),
    selections: selectionsMap(data.selections),
    // The lots open just before a 2025+ disposal are the allocated ones (the engine would apply
    // the transition after `before`'s last entry even for an earlier disposal: not then).
    transition:
      data.transition && disposal.timestamp.getTime() >= data.transition.at.getTime()
        ? data.transition
        : undefined,
  });
  const later = sorted.slice(index + 1);
  return {
    found: true,
    disposal,
    openLots: result.openLots.filter(
      (lot) => lot.accountId === disposal.accountId && lot.symbol === disposal.symbol,
    ),
    acquiredAfter: data.lotIds.filter((lotId) => {
      const origin = lotId.replace(/#\d+$/, '');
      return later.some((e) => e.transactionId === origin && e.symbol === disposal.symbol);
    }),
  };
}

/** What HistoryWriter computed on the request thread before: the same call over the decoded ledger. */
function balanceSnapshots(data: BalanceSnapshotsData): Snapshot[] {
  return computeBalanceSnapshots({
    entries: decodeLedger(data.ledger),
    accountIds: data.accountIds,
    pricesUsd: new Map(data.pricesUsd),
    reportedBalances: new Map(data.reportedBalances),
    computedAt: data.computedAt,
    elections: data.elections,
    selections: selectionsMap(data.selections),
    transition: data.transition,
  });
}

/**
 * Runs one task: what the worker thread calls, and what a test compares the pool's answer with.
 * Synchronous but for the PDF (pdfkit writes to a stream).
 */
export function runComputeTask(task: ComputeTask): ComputeOutcome | Promise<ComputeOutcome> {
  switch (task.kind) {
    case 'gains':
      return gains(task.input);
    case 'form8949':
      return form8949(task.input);
    case 'form8949Json':
      return form8949Json(task.input);
    case 'form8949Csv':
      return form8949Csv(task.input);
    case 'form8949Pdf':
      return form8949Pdf(task.input, task.scope, task.generatedAt);
    case 'clientStatementPdf':
      return renderClientStatementPdf(task.input);
    case 'form1099DaCheck':
      return form1099DaCheck(task.csv, task.listedProblems);
    case 'form1099Da':
      return form1099Da(task.input, task.csv, task.offset, task.limit);
    case 'lots':
      return lots(task.input);
    case 'harvesting':
      return harvesting(task.input, task.minLossUsd, task.washSale);
    case 'safeHarbor':
      return safeHarbor(task.input);
    case 'lotSelectionCheck':
      return lotSelectionCheck(task.input);
    case 'balanceSnapshots':
      return balanceSnapshots(task.input);
  }
}
