/**
 * The transfer id both ends of an on-chain move compute from its transaction hash (docs/sources.md,
 * "Transfers between an exchange and the client's own wallet"): an exchange's withdrawal or deposit
 * that names its chain txid, and the watched wallet's receipt or payment in that transaction, are
 * a `transfer_out`/`transfer_in` pair with the same id, and the cost-basis engine moves the lots
 * (docs/cost-basis.md, "Transfers between own accounts").
 *
 * `chain:` and the 64 hex digits of the hash in lower case, without `0x`: bitcoin txids and
 * Ethereum transaction hashes both have that shape, whichever case or prefix a source writes.
 * A Solana transaction signature (base58 text of 64 bytes) is `chain:` and the signature as it is
 * written (base58 is case-sensitive). Anything else (a bank reference, nothing) has no id: that
 * leg stays a deposit or withdrawal.
 */
import { base58 } from '@scure/base';

const HASH = /^(?:0x)?([0-9a-f]{64})$/i;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

export function chainTransferId(txid: string | null | undefined): string | null {
  if (typeof txid !== 'string') return null;
  const text = txid.trim();
  const match = HASH.exec(text);
  if (match) return `chain:${match[1]!.toLowerCase()}`;
  return BASE58.test(text) && base58.decode(text).length === 64 ? `chain:${text}` : null;
}

/**
 * The ledger direction of a wallet's receipt (`deposit`) or payment (`withdrawal`): with a chain
 * transfer id it is a `transfer_in`/`transfer_out`; anything else keeps its direction.
 */
export function transferDirection<D extends string>(
  direction: D,
  transferId: string | null,
): D | 'transfer_in' | 'transfer_out' {
  if (transferId === null) return direction;
  if (direction === 'deposit') return 'transfer_in';
  if (direction === 'withdrawal') return 'transfer_out';
  return direction;
}
