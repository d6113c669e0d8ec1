/**
 * Whether a tax year's Form 8949 can be filed as is (docs/tax-report.md): `needs_review` when any
 * line lacks an honest basis or date, when the history the lots come from is inconsistent up to
 * the end of the year, or when an account's data may be incomplete. Pure.
 */
import type { CostBasisResult } from '../cost-basis/index.js';
import type { Form8949Line } from './form-8949-lines.js';

/** Why a form needs review. The values are the API's `form_8949_reasons[].code`. */
export enum ReadinessReasonCode {
  UnknownBasis = 'unknown_basis',
  UncoveredDisposal = 'uncovered_disposal',
  InconsistentHistory = 'inconsistent_history',
  AccountNotSynced = 'account_not_synced',
  LotSelectionInvalid = 'lot_selection_invalid',
  IdentifiedLate = 'identified_late',
}

export interface ReadinessReason {
  readonly code: ReadinessReasonCode;
  readonly count: number;
  readonly message: string;
}

export interface Readiness {
  readonly status: 'ready' | 'needs_review';
  readonly reasons: readonly ReadinessReason[];
}

/** What readiness needs to know of an account. */
export interface ReadinessAccount {
  readonly id: string;
  /** 'synced' when its history is complete as far as the service knows. */
  readonly syncStatus: string;
}

export interface ReadinessInput {
  readonly taxYear: number;
  /** Upper-case ticker the report is narrowed to; undefined: every asset. */
  readonly asset?: string;
  /** The accounts the report is about. */
  readonly accounts: readonly ReadinessAccount[];
  /** The engine's input (the accounts' entries and those of transfer-linked accounts). */
  readonly entries: readonly { accountId: string; transactionId: string; timestamp: Date }[];
  readonly result: CostBasisResult;
  /** The year's lines of the report. */
  readonly lines: readonly Form8949Line[];
}

export function assessReadiness(input: ReadinessInput): Readiness {
  const { accounts, entries, result, lines } = input;
  const reasons: ReadinessReason[] = [];
  const unknownBasis = lines.filter((line) => line.reviewReason === 'unknown_basis').length;
  if (unknownBasis > 0) {
    reasons.push({
      code: ReadinessReasonCode.UnknownBasis,
      count: unknownBasis,
      message: `${unknownBasis} line(s) dispose of coins whose cost basis is unknown (received by a deposit or a transfer from an account the service does not know); their basis is shown as 0.00 and must be supplied before filing.`,
    });
  }
  const uncovered = lines.filter((line) => line.reviewReason === 'uncovered_disposal').length;
  if (uncovered > 0) {
    reasons.push({
      code: ReadinessReasonCode.UncoveredDisposal,
      count: uncovered,
      message: `${uncovered} line(s) dispose of more than the account held: transactions are missing from its history, so these lines have no acquisition date and no basis.`,
    });
  }

  // Shortfalls before or in the year (also of withdrawals and transfers) make later lots suspect.
  const selectedIds = new Set(accounts.map((account) => account.id));
  const endOfYear = Date.UTC(input.taxYear + 1, 0, 1);
  const keyOf = (e: { accountId: string; transactionId: string }) => `${e.accountId}\u0000${e.transactionId}`;
  const candidates = result.issues.filter(
    (issue) =>
      issue.kind === 'insufficient_holdings' &&
      selectedIds.has(issue.accountId) &&
      (input.asset === undefined || issue.symbol === input.asset),
  );
  let shortfalls = 0;
  if (candidates.length > 0) {
    // Only the candidates' times are looked up: a large ledger usually has no shortfall at all.
    const wanted = new Set(candidates.map(keyOf));
    const timeOf = new Map<string, number>();
    for (const e of entries) {
      const key = keyOf(e);
      if (wanted.has(key)) timeOf.set(key, e.timestamp.getTime());
    }
    const linedTransactions = new Set(lines.map(keyOf));
    shortfalls = candidates.filter((issue) => {
      const key = keyOf(issue);
      return (timeOf.get(key) ?? Infinity) < endOfYear && !linedTransactions.has(key);
    }).length;
  }
  if (shortfalls > 0) {
    reasons.push({
      code: ReadinessReasonCode.InconsistentHistory,
      count: shortfalls,
      message: `${shortfalls} earlier transaction(s) of these accounts disposed of more than the account held (a gap in the history), so the lots consumed by this year's lines may be wrong.`,
    });
  }

  // A stored lot selection that no longer fits (docs/cost-basis.md, "Specific identification"):
  // its disposal used the method in force instead of the lots the advisor chose.
  const badSelections = result.issues.filter(
    (issue) =>
      issue.kind === 'lot_selection_invalid' &&
      selectedIds.has(issue.accountId) &&
      (input.asset === undefined || issue.symbol === input.asset),
  );
  if (badSelections.length > 0) {
    const named = badSelections
      .map((issue) =>
        issue.kind === 'lot_selection_invalid'
          ? `${issue.transactionId}: ${issue.lotId === null ? 'quantities' : `lot ${issue.lotId}`} (${issue.reason})`
          : '',
      )
      .join('; ');
    reasons.push({
      code: ReadinessReasonCode.LotSelectionInvalid,
      count: badSelections.length,
      message: `${badSelections.length} lot selection(s) no longer fit the history (${named}); those disposals used the method in force instead, so the selection must be corrected or deleted.`,
    });
  }

  // A lot selection recorded after its disposal in the year (docs/cost-basis.md, "Specific
  // identification"): not applied; the standing method chose the lots. Sales and moves alike.
  const late = result.issues.filter(
    (issue) =>
      issue.kind === 'identified_late' &&
      selectedIds.has(issue.accountId) &&
      (input.asset === undefined || issue.symbol === input.asset) &&
      issue.disposedAt.getUTCFullYear() === input.taxYear,
  );
  if (late.length > 0) {
    const named = late
      .map((issue) =>
        issue.kind === 'identified_late'
          ? `${issue.transactionId}: sold ${issue.disposedAt.toISOString()}, selection recorded ${issue.recordedAt.toISOString()}`
          : '',
      )
      .join('; ');
    reasons.push({
      code: ReadinessReasonCode.IdentifiedLate,
      count: late.length,
      message: `${late.length} disposal(s) have a lot selection recorded after the disposal (${named}). Specific identification must be made by the time of the sale (Treas. Reg. §1.1012-1(j)(3)), so the standing method (the elected method, FIFO without an election) chose their lots, not the selection; delete the selection, or keep it as a record of what was asked.`,
    });
  }

  const notSynced = accounts.filter((account) => account.syncStatus !== 'synced');
  if (notSynced.length > 0) {
    const states = [...new Set(notSynced.map((account) => account.syncStatus))].sort().join(', ');
    reasons.push({
      code: ReadinessReasonCode.AccountNotSynced,
      count: notSynced.length,
      message: `${notSynced.length} account(s) are not synced (${states}): their transaction history may be incomplete.`,
    });
  }
  return { status: reasons.length === 0 ? 'ready' : 'needs_review', reasons };
}
