/**
 * The one set of direction rules (docs/cost-basis.md): which directions exist, which need a USD
 * price, which may carry a trade fee, which are transfers and which add to a holding. The engine,
 * the checks of what a source sends and the sandbox all read them from here.
 */
import type { Direction } from './cost-basis.types.js';

/** Every direction, in the order the API documents them. */
export const DIRECTIONS: readonly Direction[] = [
  'buy',
  'sell',
  'deposit',
  'withdrawal',
  'transfer_in',
  'transfer_out',
  'income',
  'fee',
];

/** Directions whose cost-basis treatment needs a USD price. */
export const PRICED_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>(['buy', 'sell', 'income', 'fee']);
/** Directions that may carry a trade fee (adds to basis on a buy, reduces proceeds on a sell). */
export const FEE_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>(['buy', 'sell']);
/** Directions that may carry a transferId linking the two legs of an own-account transfer. */
export const TRANSFER_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>([
  'transfer_in',
  'transfer_out',
]);
/** Directions that add their amount to the account's holding; every other one removes it. */
export const INBOUND_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>([
  'buy',
  'income',
  'deposit',
  'transfer_in',
]);

export function isDirection(value: unknown): value is Direction {
  return (DIRECTIONS as readonly unknown[]).includes(value);
}
