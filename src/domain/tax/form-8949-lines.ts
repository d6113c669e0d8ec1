/**
 * Form 8949 lines from the cost-basis engine's disposal rows (docs/tax-report.md). Pure: no
 * framework, database or clock.
 *
 * Owns: which part and box a line goes to, rounding each line to cents (once, here, at the edge)
 * and the totals, which are sums of the rounded lines so that a form, its CSV and the gains
 * report add up to the same cents. Never: decides lots, basis or holding periods (the engine
 * does) or formats currency text (src/domain/money/format.ts does).
 */
import type { Decimal } from 'decimal.js';
import { disposalAmounts, type Disposal, type HoldingTerm } from '../cost-basis/index.js';
import { ExactDecimal, ZERO } from '../money/exact-decimal.js';
import { canonicalDecimal, roundUsdToCents, USD_FRACTION_DIGITS } from '../money/format.js';
import { parseScaled, roundScaled, ScaledDecimal } from '../money/scaled-decimal.js';
import { hiddenSlot } from '../rows/hidden-slot.js';

/** First tax year with the digital-asset boxes G–L (2025 Form 8949). */
export const FIRST_DIGITAL_ASSET_BOX_YEAR = 2025;

export type Form8949Part = 'I' | 'II';
export type Form8949Box = 'C' | 'F' | 'G' | 'H' | 'I' | 'J' | 'K' | 'L';
/**
 * Who held the coins when they were disposed of: a custodial platform (an exchange: a broker
 * that files Form 1099-DA from 2025) or the client's own on-chain wallet (no broker, no 1099-DA).
 */
export type Custody = 'custodial' | 'self_custody';
/**
 * Why a line must be reviewed before filing: its basis (first), else a lot selection recorded
 * after the sale (the line's lots are the standing method's: docs/cost-basis.md).
 */
export type LineReviewReason = 'unknown_basis' | 'uncovered_disposal' | 'identified_late';

/** First instant whose acquisitions in a broker's custody are covered digital assets (2026-01-01 UTC). */
export const FIRST_COVERED_ACQUISITION = new Date(Date.UTC(2026, 0, 1));

/**
 * The box of a line. Before 2025: C (short) / F (long), "not reported to you on Form 1099-B".
 * From 2025 (digital-asset boxes):
 *   custodial, covered → G (short) / J (long): "reported on Form(s) 1099-DA showing basis was
 *     reported to the IRS" (the broker must report the basis of a covered digital asset);
 *   custodial          → H (short) / K (long): "…showing basis was not reported to the IRS";
 *   self_custody       → I (short) / L (long): "not reported to you on Form 1099-DA".
 * `covered`: isCoveredDigitalAsset. docs/tax-report.md, "Parts and boxes".
 */
export function form8949Box(
  taxYear: number,
  term: HoldingTerm,
  custody: Custody,
  covered = false,
): Form8949Box {
  if (taxYear < FIRST_DIGITAL_ASSET_BOX_YEAR) return term === 'short' ? 'C' : 'F';
  if (custody === 'custodial' && covered) return term === 'short' ? 'G' : 'J';
  if (custody === 'custodial') return term === 'short' ? 'H' : 'K';
  return term === 'short' ? 'I' : 'L';
}

/**
 * A covered digital asset (Treas. Reg. §1.6045-1(a)(15)(i)(J)): sold from a custodial (exchange)
 * account, from a lot acquired in that same account (bought or received there, never moved) on or
 * after 2026-01-01. The broker reports its basis on Form 1099-DA. A lot transferred in from another
 * account, a deposit, or a lot acquired before 2026 is not covered.
 */
export function isCoveredDigitalAsset(disposal: Disposal, custody: Custody): boolean {
  return (
    custody === 'custodial' &&
    disposal.acquiredInAccount &&
    disposal.acquiredAt !== null &&
    disposal.acquiredAt.getTime() >= FIRST_COVERED_ACQUISITION.getTime()
  );
}

export interface Form8949Line {
  readonly part: Form8949Part;
  readonly box: Form8949Box;
  readonly term: HoldingTerm;
  readonly symbol: string;
  /** Canonical decimal text of the quantity disposed of. */
  readonly quantity: string;
  /** Column (a), e.g. "0.5 BTC". */
  readonly description: string;
  /** Column (b), UTC date YYYY-MM-DD; null when no lot covered the quantity. */
  readonly dateAcquired: string | null;
  /** Column (c), UTC date YYYY-MM-DD. */
  readonly dateSold: string;
  /** Column (d), rounded half-up to cents. */
  readonly proceedsUsd: Decimal;
  /** Column (e), rounded half-up to cents ('0' placeholder when the basis is unknown: flagged). */
  readonly costBasisUsd: Decimal;
  /** Column (h) = (d) − (e) of the rounded columns, as the form requires. */
  readonly gainUsd: Decimal;
  readonly accountId: string;
  readonly transactionId: string;
  readonly reviewReason: LineReviewReason | null;
  /** Its sale has a lot selection recorded after it, not applied (a late identification). */
  readonly identifiedLate: boolean;
}

export interface LineTotals {
  readonly lines: number;
  readonly proceedsUsd: Decimal;
  readonly costBasisUsd: Decimal;
  readonly gainUsd: Decimal;
}

export interface BoxTotals extends LineTotals {
  readonly part: Form8949Part;
  readonly box: Form8949Box;
  readonly term: HoldingTerm;
}

/** UTC dates as YYYY-MM-DD, each day's text made once per form (a form has tens of thousands of lines). */
function utcDates(): (instant: Date) => string {
  const textByDay = new Map<number, string>();
  return (instant) => {
    const day = Math.floor(instant.getTime() / 86_400_000);
    let text = textByDay.get(day);
    if (text === undefined) {
      text = instant.toISOString().slice(0, 10);
      textByDay.set(day, text);
    }
    return text;
  };
}

const BOX_ORDER: readonly Form8949Box[] = ['C', 'G', 'H', 'I', 'F', 'J', 'K', 'L'];

/**
 * One line per disposal row, ordered as they go on the form: part I before part II, by box,
 * then by date sold (the engine's processing order within a day).
 */
export function toForm8949Lines(
  disposals: readonly Disposal[],
  taxYear: number,
  custodyOf: (accountId: string) => Custody,
): Form8949Line[] {
  const utcDate = utcDates();
  const keyed = disposals.map((disposal, index) => {
    const line = toLine(disposal, taxYear, custodyOf, utcDate);
    return { line, box: BOX_ORDER.indexOf(line.box), index };
  });
  keyed.sort(
    (a, b) =>
      a.box - b.box ||
      (a.line.dateSold < b.line.dateSold ? -1 : a.line.dateSold > b.line.dateSold ? 1 : 0) ||
      a.index - b.index,
  );
  return keyed.map(({ line }) => line);
}

/**
 * Each line's proceeds, basis and gain in cents, beside the line rather than among its fields (a
 * line is plain data that crosses threads and becomes JSON; rows/hidden-slot.ts): the sums of tens of thousands of lines are
 * then integer additions, not decimal.js ones, with the same totals (sumLines). A line without an
 * entry (revived from text, made elsewhere) is summed with decimal.js as before.
 */
const LINE_CENTS = hiddenSlot<Form8949Line, { proceeds: bigint; costBasis: bigint; gain: bigint }>(
  'lineCents',
);

const CENTS_PER_UNIT = [100n, 10n, 1n];

/**
 * roundUsdToCents of the engine's text, with its cents; null cents when the text is not plain
 * decimal. `exact`: the number the engine wrote the text from (disposal-amounts.ts), if known.
 */
function roundedToCents(
  text: string,
  exact: ScaledDecimal | undefined,
): { decimal: Decimal; cents: bigint | null } {
  const scaled = exact ?? parseScaled(text);
  if (scaled === null) return { decimal: roundUsdToCents(text), cents: null };
  // roundUsdToCents' own path for decimal text, the cents kept.
  const rounded = roundScaled(scaled, USD_FRACTION_DIGITS);
  return {
    decimal: new ExactDecimal(rounded.toCanonical()),
    cents: rounded.units * CENTS_PER_UNIT[rounded.scale]!,
  };
}

const centsDecimal = (cents: bigint): Decimal =>
  new ExactDecimal(new ScaledDecimal(cents, USD_FRACTION_DIGITS).toCanonical());

function toLine(
  disposal: Disposal,
  taxYear: number,
  custodyOf: (accountId: string) => Custody,
  utcDate: (instant: Date) => string,
): Form8949Line {
  const amounts = disposalAmounts(disposal);
  const proceeds = roundedToCents(disposal.proceedsUsd, amounts?.proceedsUsd);
  const costBasis = roundedToCents(disposal.costBasisUsd, amounts?.costBasisUsd);
  const proceedsUsd = proceeds.decimal;
  const costBasisUsd = costBasis.decimal;
  const quantity = canonicalDecimal(disposal.quantity);
  const custody = custodyOf(disposal.accountId);
  const line: Form8949Line = {
    part: disposal.term === 'short' ? 'I' : 'II',
    box: form8949Box(taxYear, disposal.term, custody, isCoveredDigitalAsset(disposal, custody)),
    term: disposal.term,
    symbol: disposal.symbol,
    quantity,
    description: `${quantity} ${disposal.symbol}`,
    dateAcquired: disposal.acquiredAt ? utcDate(disposal.acquiredAt) : null,
    dateSold: utcDate(disposal.disposedAt),
    proceedsUsd,
    costBasisUsd,
    gainUsd: proceedsUsd.minus(costBasisUsd),
    accountId: disposal.accountId,
    transactionId: disposal.transactionId,
    reviewReason: !disposal.basisKnown
      ? disposal.acquiredAt === null
        ? 'uncovered_disposal'
        : 'unknown_basis'
      : disposal.identifiedLate
        ? 'identified_late'
        : null,
    identifiedLate: disposal.identifiedLate,
  };
  if (proceeds.cents !== null && costBasis.cents !== null) {
    LINE_CENTS.set(line, {
      proceeds: proceeds.cents,
      costBasis: costBasis.cents,
      gain: proceeds.cents - costBasis.cents,
    });
  }
  return line;
}

/**
 * The lines' sums, exact: in integer cents when every line was made here (toForm8949Lines), else
 * with decimal.js. Either way the same values (a decimal.js sum at 1,000 digits never rounds, and
 * a value has one decimal.js form: zero is never −0 here, as no line holds −0).
 */
export function sumLines(lines: readonly Form8949Line[]): LineTotals {
  let proceeds = 0n;
  let costBasis = 0n;
  let gain = 0n;
  for (const line of lines) {
    const cents = LINE_CENTS.get(line);
    if (cents === undefined) return sumLinesExactly(lines);
    proceeds += cents.proceeds;
    costBasis += cents.costBasis;
    gain += cents.gain;
  }
  if (lines.length === 0) return { lines: 0, proceedsUsd: ZERO, costBasisUsd: ZERO, gainUsd: ZERO };
  return {
    lines: lines.length,
    proceedsUsd: centsDecimal(proceeds),
    costBasisUsd: centsDecimal(costBasis),
    gainUsd: centsDecimal(gain),
  };
}

function sumLinesExactly(lines: readonly Form8949Line[]): LineTotals {
  let proceedsUsd = ZERO;
  let costBasisUsd = ZERO;
  let gainUsd = ZERO;
  for (const line of lines) {
    proceedsUsd = proceedsUsd.plus(line.proceedsUsd);
    costBasisUsd = costBasisUsd.plus(line.costBasisUsd);
    gainUsd = gainUsd.plus(line.gainUsd);
  }
  return { lines: lines.length, proceedsUsd, costBasisUsd, gainUsd };
}

export function addTotals(a: LineTotals, b: LineTotals): LineTotals {
  return {
    lines: a.lines + b.lines,
    proceedsUsd: a.proceedsUsd.plus(b.proceedsUsd),
    costBasisUsd: a.costBasisUsd.plus(b.costBasisUsd),
    gainUsd: a.gainUsd.plus(b.gainUsd),
  };
}

/** Totals per box that has lines (each box is one set of Form 8949 pages), in form order. */
export function totalsByBox(lines: readonly Form8949Line[]): BoxTotals[] {
  return BOX_ORDER.flatMap((box) => {
    const inBox = lines.filter((line) => line.box === box);
    if (inBox.length === 0) return [];
    const { part, term } = inBox[0];
    return [{ part, box, term, ...sumLines(inBox) }];
  });
}

/** Cents as plain decimal text for the form and CSV ("1234.50", "-20.00"); never "-0.00". */
export function centsText(value: Decimal): string {
  return value.isZero() ? '0.00' : value.toFixed(2);
}
