/** Selections and totals of disposals for the gains report; no rule of its own beyond summing. */
import { InvalidDecimalError } from '../money/format.js';
import { parseScaled, SCALED_ZERO, type ScaledDecimal } from '../money/scaled-decimal.js';
import type { CostBasisResult, Disposal } from './cost-basis.types.js';
import { disposalAmounts } from './disposal-amounts.js';

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
    short: { proceedsUsd: SCALED_ZERO, costBasisUsd: SCALED_ZERO, gainUsd: SCALED_ZERO },
    long: { proceedsUsd: SCALED_ZERO, costBasisUsd: SCALED_ZERO, gainUsd: SCALED_ZERO },
  };
  let unknownBasisDisposalCount = 0;
  for (const disposal of disposals) {
    const sum = sums[disposal.term];
    // The engine's own numbers for its rows (disposal-amounts.ts), else the text parsed.
    const amounts = disposalAmounts(disposal);
    sum.proceedsUsd = sum.proceedsUsd.plus(amounts?.proceedsUsd ?? decimalOf(disposal.proceedsUsd));
    sum.costBasisUsd = sum.costBasisUsd.plus(amounts?.costBasisUsd ?? decimalOf(disposal.costBasisUsd));
    sum.gainUsd = sum.gainUsd.plus(amounts?.gainUsd ?? decimalOf(disposal.gainUsd));
    if (!disposal.basisKnown) unknownBasisDisposalCount++;
  }
  type Sum = { proceedsUsd: ScaledDecimal; costBasisUsd: ScaledDecimal; gainUsd: ScaledDecimal };
  const total = (pick: (sum: Sum) => ScaledDecimal) => pick(sums.short).plus(pick(sums.long)).toCanonical();
  return {
    shortTermProceedsUsd: sums.short.proceedsUsd.toCanonical(),
    shortTermCostBasisUsd: sums.short.costBasisUsd.toCanonical(),
    shortTermGainUsd: sums.short.gainUsd.toCanonical(),
    longTermProceedsUsd: sums.long.proceedsUsd.toCanonical(),
    longTermCostBasisUsd: sums.long.costBasisUsd.toCanonical(),
    longTermGainUsd: sums.long.gainUsd.toCanonical(),
    proceedsUsd: total((sum) => sum.proceedsUsd),
    costBasisUsd: total((sum) => sum.costBasisUsd),
    netGainUsd: total((sum) => sum.gainUsd),
    disposalCount: disposals.length,
    unknownBasisDisposalCount,
  };
}

/** A disposal's decimal text (the engine writes it canonical; anything else is refused). */
function decimalOf(text: string): ScaledDecimal {
  const value = parseScaled(text);
  if (value === null) throw new InvalidDecimalError(text);
  return value;
}
