/**
 * Method elections (docs/cost-basis.md, "Method elections"): which lot-selection method is in
 * force for an account at a moment. Pure; the tenant's elections come from the database.
 *
 * For a disposal at t in account A: among A's elections whose effectiveFrom is on or before t's
 * UTC date, the one recorded last; else the same among the tenant-wide elections (accountId
 * null); else DEFAULT_COST_BASIS_METHOD (FIFO). Elections are append-only: a later election for
 * the same scope supersedes the earlier ones from its own effective date on.
 */
import { DEFAULT_COST_BASIS_METHOD } from './cost-basis-method.js';
import type { CostBasisMethod } from './cost-basis.types.js';

export interface MethodElection {
  /** null: tenant-wide. */
  readonly accountId: string | null;
  readonly method: CostBasisMethod;
  /** YYYY-MM-DD (UTC). */
  readonly effectiveFrom: string;
  readonly recordedAt: Date;
}

const utcDate = (at: Date): string => at.toISOString().slice(0, 10);

/** Latest-recorded first; equal instants: the greater effectiveFrom first (deterministic). */
const byRecordedDesc = (a: MethodElection, b: MethodElection): number =>
  b.recordedAt.getTime() - a.recordedAt.getTime() ||
  (a.effectiveFrom < b.effectiveFrom ? 1 : a.effectiveFrom > b.effectiveFrom ? -1 : 0);

/** The election of one scope in force on `date` (YYYY-MM-DD), or null. */
export function electionInForce(
  elections: readonly MethodElection[],
  accountId: string | null,
  date: string,
): MethodElection | null {
  return (
    elections.filter((e) => e.accountId === accountId && e.effectiveFrom <= date).sort(byRecordedDesc)[0] ??
    null
  );
}

/** The method in force for `accountId` at `at`: the account's election, else the tenant's, else FIFO. */
export function electedMethod(
  elections: readonly MethodElection[],
  accountId: string,
  at: Date,
): CostBasisMethod {
  const date = utcDate(at);
  return (
    electionInForce(elections, accountId, date)?.method ??
    electionInForce(elections, null, date)?.method ??
    DEFAULT_COST_BASIS_METHOD
  );
}

/**
 * CostBasisOptions.methodFor for a tenant's elections, memoized per (account, UTC date): a
 * history of many entries asks once per account and day. Undefined when there are none (the
 * engine then uses its single method, FIFO by default).
 */
export function methodForElections(
  elections: readonly MethodElection[],
): ((accountId: string, at: Date) => CostBasisMethod) | undefined {
  if (elections.length === 0) return undefined;
  const cache = new Map<string, CostBasisMethod>();
  return (accountId, at) => {
    const key = `${accountId}|${utcDate(at)}`;
    let method = cache.get(key);
    if (method === undefined) {
      method = electedMethod(elections, accountId, at);
      cache.set(key, method);
    }
    return method;
  };
}
