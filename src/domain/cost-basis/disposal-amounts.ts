/**
 * The engine's exact amounts of a disposal row as numbers, kept beside the row (not among its
 * fields: a row is plain data that crosses threads and becomes JSON, its amounts canonical text).
 * Whoever sums or rounds a tax year's rows (splitByTerm, Form 8949's lines) takes them from here
 * instead of parsing the text back, tens of thousands of times a report; a row made elsewhere (a
 * copy, a test's literal) has none and its text is parsed as before. Either way the same values:
 * each number is the one the engine wrote the row's text from.
 *
 * Kept in a hidden slot of the row (rows/hidden-slot.ts), not a WeakMap, since 2026-11-28: a
 * 100k-transaction FIFO run, six times, 4.9 s -> 3.9 s.
 */
import type { ScaledDecimal } from '../money/scaled-decimal.js';
import type { Disposal } from './cost-basis.types.js';
import { hiddenSlot } from '../rows/hidden-slot.js';

export interface DisposalAmounts {
  readonly proceedsUsd: ScaledDecimal;
  readonly costBasisUsd: ScaledDecimal;
  readonly gainUsd: ScaledDecimal;
}

const AMOUNTS = hiddenSlot<Disposal, DisposalAmounts>('disposalAmounts');

/** Called by the engine, once per row it makes, with the numbers it wrote `disposal`'s text from. */
export function keepDisposalAmounts(disposal: Disposal, amounts: DisposalAmounts): void {
  AMOUNTS.set(disposal, amounts);
}

/** The numbers behind the row's text when the engine made this very row; undefined otherwise. */
export function disposalAmounts(disposal: Disposal): DisposalAmounts | undefined {
  return AMOUNTS.get(disposal);
}
