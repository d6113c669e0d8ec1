import type { LedgerEntry } from './cost-basis.types.js';

/** Matched transfer legs, both ways, as positions in the processing-ordered entries. */
export interface TransferMatches {
  readonly inIndexByOutIndex: ReadonlyMap<number, number>;
  readonly outIndexByInIndex: ReadonlyMap<number, number>;
}

/**
 * The transferId prefix of a conversion: wrapping or unwrapping an asset (ETH → WETH) in one
 * account (docs/cost-basis.md, "Swaps and wraps on chain"; src/domain/chains/swaps.ts).
 */
export const CONVERSION_TRANSFER_PREFIX = 'wrap:';

/** A transferId naming a conversion pair (one account, two symbols) rather than a transfer. */
export function isConversionTransferId(transferId: string | undefined): boolean {
  return transferId !== undefined && transferId.startsWith(CONVERSION_TRANSFER_PREFIX);
}

/**
 * Pairs each transfer_in with a transfer_out over entries already in processing order.
 * A pair needs the same transferId and symbol, different accounts, and the out processed
 * before the in. A conversion (transferId `wrap:…`) pairs instead an out and an in of the same
 * account with different symbols: the lots change symbol, keeping their basis and dates. With
 * several candidates, the earliest unmatched out is taken. Anything left over is unmatched: a
 * lone out is a withdrawal, a lone in a deposit of unknown basis.
 */
export function matchTransfers(entriesInProcessingOrder: readonly LedgerEntry[]): TransferMatches {
  const pendingOutIndexesByTransferId = new Map<string, number[]>();
  const inIndexByOutIndex = new Map<number, number>();
  const outIndexByInIndex = new Map<number, number>();

  entriesInProcessingOrder.forEach((entry, index) => {
    if (entry.transferId === undefined) return;
    const pending = pendingOutIndexesByTransferId.get(entry.transferId) ?? [];
    if (entry.direction === 'transfer_out') {
      pending.push(index);
      pendingOutIndexesByTransferId.set(entry.transferId, pending);
    } else if (entry.direction === 'transfer_in') {
      const candidate = pending.findIndex((outIndex) => {
        const out = entriesInProcessingOrder[outIndex];
        return isConversionTransferId(entry.transferId)
          ? out.symbol !== entry.symbol && out.accountId === entry.accountId
          : out.symbol === entry.symbol && out.accountId !== entry.accountId;
      });
      if (candidate === -1) return;
      const [outIndex] = pending.splice(candidate, 1);
      inIndexByOutIndex.set(outIndex, index);
      outIndexByInIndex.set(index, outIndex);
    }
  });
  return { inIndexByOutIndex, outIndexByInIndex };
}
