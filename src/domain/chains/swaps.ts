/**
 * Swaps and wraps in a watched wallet's history (issue 30 item 3; docs/cost-basis.md, "Swaps and
 * wraps on chain"), chain-agnostic: it reads a transaction's legs as the wallet saw them (what
 * left, what arrived, the fee) and says what they mean for the ledger. The EVM connector calls it
 * on its address legs; a Solana history can call it on its own (wSOL is a wrap pair like WETH).
 *
 * Per transaction hash, the legs other than fees:
 * - **Wrap / unwrap**: exactly one asset left and one arrived, they are a wrap pair of the chain
 *   (ETH ↔ WETH, POL ↔ WPOL) and the amounts are equal: a `transfer_out` of what left and a
 *   `transfer_in` of what arrived, both with transferId `wrap:<hash>` (WRAP_TRANSFER_PREFIX). The
 *   cost-basis engine moves the lots from one symbol to the other in the same account, with their
 *   basis and acquisition dates: no disposal.
 * - **Swap** (a DEX trade, an aggregator route): one asset left (one or more legs of it) and
 *   another arrived (one or more legs), nothing else: a trade, as an exchange's crypto-for-crypto
 *   trade is recorded (src/domain/exchanges/exchange-history.ts): a `sell` of what left and a
 *   `buy` of what arrived, both at one USD value V of the trade. V is the fair market value of
 *   what left (its stored daily price × amount: in an arm's-length trade both sides are worth the
 *   same, and what left is the asset the wallet already held and priced, while what arrives is
 *   more often a thinly traded token), or, when that asset has no price, of what arrived; the
 *   unpriced side's unit price is V / its amount, rounded half-up to 20 decimals. Neither side priced: the legs stay
 *   as they came (a deposit of unknown basis, a withdrawal), flagged like an unknown token.
 * - Anything else (only one side, an asset both leaving and arriving, three or more assets: a
 *   liquidity deposit, a batch) stays as it came: deposits and withdrawals, never guessed.
 * The fee stays a `fee` priced by the caller (gas is a disposal of the gas asset at market value,
 * not part of the trade's value).
 *
 * Pure: prices come in as a lookup; amounts are decimal text computed with ExactDecimal.
 */
import type { Decimal } from 'decimal.js';
import { ExactDecimal } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';
import { CONVERSION_TRANSFER_PREFIX } from '../cost-basis/transfer-matching.js';

/** The prefix of the transferId a wrap's two legs share (the engine's conversion pairs). */
export const WRAP_TRANSFER_PREFIX = CONVERSION_TRANSFER_PREFIX;

/** Digits kept after the point of a unit price derived by division (as exchange trades do). */
const DERIVED_PRICE_DECIMALS = 20;

export interface WalletLeg {
  readonly transactionId: string;
  /** The chain transaction (hash or signature) the leg belongs to. */
  readonly hash: string;
  readonly direction: 'deposit' | 'withdrawal' | 'fee';
  readonly symbol: string;
  /** Decimal text > 0. */
  readonly amount: string;
  readonly occurredAt: Date;
  /** The transfer id the caller gave the leg (a chain id pairing with an exchange), or null. */
  readonly transferId: string | null;
}

export interface WrapPair {
  readonly native: string;
  readonly wrapped: string;
}

export type WalletLegMeaning =
  | { readonly kind: 'as_is' }
  | { readonly kind: 'wrap' }
  | { readonly kind: 'swap'; readonly valueUsd: string; readonly pricedBy: 'sent' | 'received' };

export interface ClassifiedLeg {
  readonly transactionId: string;
  readonly hash: string;
  readonly symbol: string;
  readonly amount: string;
  readonly occurredAt: Date;
  /** `fee` legs come back as `fee` with priceUsd null: the caller prices gas. */
  readonly direction: 'deposit' | 'withdrawal' | 'fee' | 'buy' | 'sell' | 'transfer_in' | 'transfer_out';
  readonly priceUsd: string | null;
  readonly transferId: string | null;
  /** What the leg's transaction was read as. */
  readonly meaning: WalletLegMeaning;
}

/**
 * USD per unit of `symbol` on the UTC day `date` (YYYY-MM-DD), or undefined when none is stored
 * on or before it.
 */
export type PriceOnDay = (symbol: string, date: string) => string | undefined;

export interface SwapRules {
  readonly wraps: readonly WrapPair[];
  readonly priceOnDay: PriceOnDay;
}

/** The legs with swaps and wraps recognised, in the order given. */
export function classifyWalletLegs(legs: readonly WalletLeg[], rules: SwapRules): ClassifiedLeg[] {
  const byHash = new Map<string, WalletLeg[]>();
  for (const leg of legs) {
    if (leg.direction === 'fee') continue;
    const group = byHash.get(leg.hash) ?? [];
    group.push(leg);
    byHash.set(leg.hash, group);
  }
  const meanings = new Map<string, { meaning: WalletLegMeaning; prices?: Map<string, string> }>();
  for (const [hash, group] of byHash) meanings.set(hash, readTransaction(group, rules));

  return legs.map((leg) => {
    const base = {
      transactionId: leg.transactionId,
      hash: leg.hash,
      symbol: leg.symbol,
      amount: leg.amount,
      occurredAt: leg.occurredAt,
    };
    const read = leg.direction === 'fee' ? undefined : meanings.get(leg.hash);
    const meaning = read?.meaning ?? { kind: 'as_is' as const };
    if (leg.direction === 'fee' || meaning.kind === 'as_is')
      return { ...base, direction: leg.direction, priceUsd: null, transferId: leg.transferId, meaning };
    if (meaning.kind === 'wrap')
      return {
        ...base,
        direction: leg.direction === 'deposit' ? 'transfer_in' : 'transfer_out',
        priceUsd: null,
        transferId: `${WRAP_TRANSFER_PREFIX}${leg.hash}`,
        meaning,
      };
    return {
      ...base,
      direction: leg.direction === 'deposit' ? 'buy' : 'sell',
      priceUsd: read!.prices!.get(leg.symbol)!,
      transferId: null,
      meaning,
    };
  });
}

/** Amount per symbol of one side of a transaction. */
function totals(legs: readonly WalletLeg[]): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const leg of legs) out.set(leg.symbol, (out.get(leg.symbol) ?? new ExactDecimal(0)).plus(leg.amount));
  return out;
}

function readTransaction(
  legs: readonly WalletLeg[],
  rules: SwapRules,
): { meaning: WalletLegMeaning; prices?: Map<string, string> } {
  const asIs = { meaning: { kind: 'as_is' as const } };
  const sent = totals(legs.filter((leg) => leg.direction === 'withdrawal'));
  const received = totals(legs.filter((leg) => leg.direction === 'deposit'));
  if (sent.size !== 1 || received.size !== 1) return asIs;
  const [[sentSymbol, sentAmount]] = [...sent] as [[string, Decimal]];
  const [[receivedSymbol, receivedAmount]] = [...received] as [[string, Decimal]];
  if (sentSymbol === receivedSymbol) return asIs;

  const isWrap = rules.wraps.some(
    (pair) =>
      (pair.native === sentSymbol && pair.wrapped === receivedSymbol) ||
      (pair.wrapped === sentSymbol && pair.native === receivedSymbol),
  );
  if (isWrap && sentAmount.eq(receivedAmount)) return { meaning: { kind: 'wrap' } };

  const day = legs[0]!.occurredAt.toISOString().slice(0, 10);
  const sentPrice = rules.priceOnDay(sentSymbol, day);
  const receivedPrice = sentPrice === undefined ? rules.priceOnDay(receivedSymbol, day) : undefined;
  if (sentPrice === undefined && receivedPrice === undefined) return asIs;
  const derive = (value: Decimal, amount: Decimal) =>
    canonicalDecimal(value.div(amount).toDecimalPlaces(DERIVED_PRICE_DECIMALS, ExactDecimal.ROUND_HALF_UP));
  const prices = new Map<string, string>();
  let value: Decimal;
  if (sentPrice !== undefined) {
    value = sentAmount.times(sentPrice);
    prices.set(sentSymbol, canonicalDecimal(sentPrice));
    prices.set(receivedSymbol, derive(value, receivedAmount));
  } else {
    value = receivedAmount.times(receivedPrice!);
    prices.set(receivedSymbol, canonicalDecimal(receivedPrice!));
    prices.set(sentSymbol, derive(value, sentAmount));
  }
  return {
    meaning: {
      kind: 'swap',
      valueUsd: canonicalDecimal(value),
      pricedBy: sentPrice !== undefined ? 'sent' : 'received',
    },
    prices,
  };
}
