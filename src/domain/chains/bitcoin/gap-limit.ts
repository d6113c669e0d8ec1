/**
 * Address discovery of an extended key by the BIP44 gap limit: on each chain (receive, change),
 * derive addresses in order until `gapLimit` consecutive ones have no history. The caller says
 * whether an address has history (an Esplora lookup); this file does no I/O.
 */
import type { AddressChain, WatchedExtendedKey } from './extended-key.js';

/** BIP44's gap limit: wallets stop after 20 unused addresses in a row. */
export const DEFAULT_GAP_LIMIT = 20;

export interface DiscoveredAddress {
  readonly chain: AddressChain;
  readonly index: number;
  readonly address: string;
}

export interface Discovery {
  /** Every address with history, receive chain first, each chain in index order. */
  readonly used: readonly DiscoveredAddress[];
  /** How many addresses were looked up (used + the trailing unused ones). */
  readonly scanned: number;
}

/**
 * Scans both chains. `hasHistory` is called for addresses in order, in batches of `gapLimit`
 * (one batch runs its lookups concurrently, bounded by the caller's own limiter).
 */
export async function discoverAddresses(
  key: WatchedExtendedKey,
  hasHistory: (address: string) => Promise<boolean>,
  gapLimit = DEFAULT_GAP_LIMIT,
  /** Stops a runaway scan; far beyond any real wallet. */
  maxIndex = 100_000,
): Promise<Discovery> {
  if (!Number.isInteger(gapLimit) || gapLimit < 1)
    throw new RangeError('gapLimit must be a positive integer');
  const used: DiscoveredAddress[] = [];
  let scanned = 0;
  for (const chain of [0, 1] as const) {
    let unusedRun = 0;
    let index = 0;
    while (unusedRun < gapLimit && index < maxIndex) {
      const batch = Array.from({ length: gapLimit - unusedRun }, (_, i) => ({
        chain,
        index: index + i,
        address: key.address(chain, index + i),
      }));
      const results = await Promise.all(batch.map((candidate) => hasHistory(candidate.address)));
      scanned += batch.length;
      for (let i = 0; i < batch.length; i++) {
        if (results[i]) {
          used.push(batch[i]!);
          unusedRun = 0;
        } else {
          unusedRun += 1;
        }
      }
      index += batch.length;
    }
  }
  return { used, scanned };
}
