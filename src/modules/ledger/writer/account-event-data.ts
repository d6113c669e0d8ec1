/**
 * The payloads of the refresh engine's events (docs/events.md): pure functions of what the write
 * stored. Decimals stay text; a change is reported only where a value differs.
 */
import type { Snapshot, SnapshotAsset } from '../repositories/balance-snapshots.repository.js';

export interface AssetChange {
  readonly symbol: string;
  readonly quantity: { readonly before: string; readonly after: string };
  readonly costBasisUsd: { readonly before: string; readonly after: string };
  readonly realizedGainUsd: { readonly before: string; readonly after: string };
}

const ZERO: Pick<SnapshotAsset, 'quantity' | 'costBasisUsd' | 'realizedGainUsd'> = {
  quantity: '0',
  costBasisUsd: '0',
  realizedGainUsd: '0',
};

/**
 * Per asset, what changed between the stored snapshot and the new one: quantity, cost basis,
 * realized gain (before/after; an asset that appears or disappears counts from or to zero).
 * Prices and market values are not compared (they move with the market, not with the data).
 */
export function balanceChanges(before: Snapshot | undefined, after: Snapshot): AssetChange[] {
  const old = new Map((before?.assets ?? []).map((asset) => [asset.symbol, asset]));
  const now = new Map(after.assets.map((asset) => [asset.symbol, asset]));
  const symbols = [...new Set([...old.keys(), ...now.keys()])].sort();
  const changes: AssetChange[] = [];
  for (const symbol of symbols) {
    const a = old.get(symbol) ?? ZERO;
    const b = now.get(symbol) ?? ZERO;
    if (
      a.quantity === b.quantity &&
      a.costBasisUsd === b.costBasisUsd &&
      a.realizedGainUsd === b.realizedGainUsd
    )
      continue;
    changes.push({
      symbol,
      quantity: { before: a.quantity, after: b.quantity },
      costBasisUsd: { before: a.costBasisUsd, after: b.costBasisUsd },
      realizedGainUsd: { before: a.realizedGainUsd, after: b.realizedGainUsd },
    });
  }
  return changes;
}
