/** Selections and totals of disposals for the gains report; no rule of its own beyond summing. */
import type { Decimal } from 'decimal.js';
import type { CostBasisResult, Disposal } from './cost-basis.types.js';
import { toCanonical, toDecimal, ZERO } from './exact-decimal.js';

/** Disposals whose disposedAt falls in `taxYear`, by UTC calendar year, in processing order. */
export function disposalsInYear(
  result: Pick<CostBasisResult, 'disposals'>,
  taxYear: number,
): readonly Disposal[] {
  return result.disposals.filter((disposal) => disposal.disposedAt.getUTCFullYear() === taxYear);
}

export interface TermTotals {
  readonly shortTermProceedsUsd: string;
  readonly shortTermCostBasisUsd: string;
  readonly shortTermGainUsd: string;
  readonly longTermProceedsUsd: string;
  readonly longTermCostBasisUsd: string;
  readonly longTermGainUsd: string;
  readonly proceedsUsd: string;
  readonly costBasisUsd: string;
  readonly netGainUsd: string;
  /** Disposal rows (Form 8949 lines), not sale transactions. */
  readonly disposalCount: number;
  /** Rows whose basis is unknown or not covered by lots: any makes the report needs_review. */
  readonly unknownBasisDisposalCount: number;
}

/** Sums disposals by holding term; gains add up exactly (proceeds − basis per row). */
export function splitByTerm(disposals: readonly Disposal[]): TermTotals {
  const sums = {
    short: { proceedsUsd: ZERO, costBasisUsd: ZERO, gainUsd: ZERO },
    long: { proceedsUsd: ZERO, costBasisUsd: ZERO, gainUsd: ZERO },
  };
  let unknownBasisDisposalCount = 0;
  for (const disposal of disposals) {
    const sum = sums[disposal.term];
    sum.proceedsUsd = sum.proceedsUsd.plus(toDecimal(disposal.proceedsUsd));
    sum.costBasisUsd = sum.costBasisUsd.plus(toDecimal(disposal.costBasisUsd));
    sum.gainUsd = sum.gainUsd.plus(toDecimal(disposal.gainUsd));
    if (!disposal.basisKnown) unknownBasisDisposalCount++;
  }
  const total = (pick: (sum: { proceedsUsd: Decimal; costBasisUsd: Decimal; gainUsd: Decimal }) => Decimal) =>
    toCanonical(pick(sums.short).plus(pick(sums.long)));
  return {
    shortTermProceedsUsd: toCanonical(sums.short.proceedsUsd),
    shortTermCostBasisUsd: toCanonical(sums.short.costBasisUsd),
    shortTermGainUsd: toCanonical(sums.short.gainUsd),
    longTermProceedsUsd: toCanonical(sums.long.proceedsUsd),
    longTermCostBasisUsd: toCanonical(sums.long.costBasisUsd),
    longTermGainUsd: toCanonical(sums.long.gainUsd),
    proceedsUsd: total((sum) => sum.proceedsUsd),
    costBasisUsd: total((sum) => sum.costBasisUsd),
    netGainUsd: total((sum) => sum.gainUsd),
    disposalCount: disposals.length,
    unknownBasisDisposalCount,
  };
}
