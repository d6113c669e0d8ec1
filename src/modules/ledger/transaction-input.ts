import type { Direction } from '../../domain/cost-basis/index.js';

/** One transaction leg as a source reports it and the ledger stores it. Decimals are text; never a JS float. */
export interface TransactionInput {
  readonly transactionId: string;
  /** Upper-case ticker. */
  readonly symbol: string;
  readonly direction: Direction;
  /** Decimal text > 0. */
  readonly amount: string;
  /** USD per unit, decimal text >= 0; null when the source gives none (transfers, deposits). */
  readonly priceUsd: string | null;
  /** USD fee of a trade, decimal text >= 0; null when none. */
  readonly feeUsd: string | null;
  readonly occurredAt: Date;
  /** Same value on a transfer_out and the transfer_in it moved to another own account. */
  readonly transferId: string | null;
}
