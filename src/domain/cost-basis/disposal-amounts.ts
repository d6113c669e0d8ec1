/**
 * The engine's exact amounts of a disposal row as numbers, kept beside the row (not among its
 * fields: a row is plain data that crosses threads and becomes JSON, its amounts canonical text).
 * Whoever sums or rounds a tax year's rows (splitByTerm, Form 8949's lines) takes them from here
 * instead of parsing the text back, tens of thousands of times a report; a row made elsewhere (a
 * copy, a test's literal) has none and its text is parsed as before. Either way the same values:
 * each number is the one the engine wrote the row's text from.
 *
 * Kept under a non-enumerable symbol-keyed property of the row, which nothing else sees: JSON,
 * structured cloning (the worker pool), spreads and Jest's equality all skip it, so a copy has no
 * amounts, as before. Until 2026-11-28 a WeakMap held them: with hundreds of thousands of rows in a
 * large history its ephemeron table made the garbage collector's work the larger part of the
 * engine's time (a 100k-transaction FIFO run 5.0–5.9 s for six, 3.7–4.2 s without it).
 */
import type { ScaledDecimal } from '../money/scaled-decimal.js';
import type { Disposal } from './cost-basis.types.js';

export interface DisposalAmounts {
  readonly proceedsUsd: ScaledDecimal;
  readonly costBasisUsd: ScaledDecimal;
  readonly gainUsd: ScaledDecimal;
}

const AMOUNTS = Symbol('disposalAmounts');

type WithAmounts = Disposal & { readonly [AMOUNTS]?: DisposalAmounts };

/** Called by the engine, once per row it makes, with the numbers it wrote `disposal`'s text from. */
export function keepDisposalAmounts(disposal: Disposal, amounts: DisposalAmounts): void {
  Object.defineProperty(disposal, AMOUNTS, { value: amounts, enumerable: false });
}

/** The numbers behind the row's text when the engine made this very row; undefined otherwise. */
export function disposalAmounts(disposal: Disposal): DisposalAmounts | undefined {
  return (disposal as WithAmounts)[AMOUNTS];
}
