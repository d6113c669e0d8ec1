/**
 * A wallet's figures (design §9 /qeychain/wallets) as the balances show them: BTC counts as held;
 * every other asset's market value (at the balances' prices) is converted at the latest stored
 * BTC price. Pure: the wallets module reads the accounts, snapshots and price.
 */
import type { Decimal } from 'decimal.js';
import { snapshotExclusionReason, type SnapshotExclusionReason, type Snapshot } from '../balances/index.js';
import { ExactDecimal, share, ZERO } from '../money/exact-decimal.js';

export interface WalletFigures {
  /** BTC value of every holding (a bitcoin wallet: its BTC); null when unavailable. */
  readonly btcHoldings: Decimal | null;
  /** Basis of the known-basis lots held. */
  readonly costBasisUsd: Decimal | null;
  readonly unrealizedGainUsd: Decimal | null;
  /** Unknown-basis coins are left out of the gain, or an asset without a price out of the BTC value. */
  readonly needsReview: boolean;
  readonly unavailableReason: SnapshotExclusionReason | null;
  readonly lastUpdatedOn: Date | null;
}

export function walletFigures(snapshot: Snapshot | undefined, btcPriceUsd: string | null): WalletFigures {
  const unavailableReason = snapshotExclusionReason(snapshot);
  // The balances endpoint answers 422 for these: no honest figures to show.
  if (!snapshot || unavailableReason !== null) {
    return {
      btcHoldings: null,
      costBasisUsd: null,
      unrealizedGainUsd: null,
      needsReview: false,
      unavailableReason,
      lastUpdatedOn: snapshot?.lastUpdatedOn ?? null,
    };
  }
  let btcHoldings = ZERO;
  let costBasisUsd = ZERO;
  let unrealizedGainUsd = ZERO;
  let needsReview = false;
  const btcPrice = btcPriceUsd === null ? null : new ExactDecimal(btcPriceUsd);
  for (const asset of snapshot.assets) {
    costBasisUsd = costBasisUsd.plus(asset.costBasisUsd);
    if (asset.unrealizedGainUsd !== null) unrealizedGainUsd = unrealizedGainUsd.plus(asset.unrealizedGainUsd);
    if (new ExactDecimal(asset.quantity).isZero()) continue;
    if (asset.needsReview) needsReview = true;
    if (asset.symbol === 'BTC') btcHoldings = btcHoldings.plus(asset.quantity);
    else if (asset.marketValueUsd !== null && btcPrice !== null && btcPrice.greaterThan(0)) {
      btcHoldings = btcHoldings.plus(share(asset.marketValueUsd, btcPrice));
    } else {
      // No price for the asset (or for BTC): left out of the BTC value, and said so.
      needsReview = true;
    }
  }
  return {
    btcHoldings,
    costBasisUsd,
    unrealizedGainUsd,
    needsReview,
    unavailableReason: null,
    lastUpdatedOn: snapshot.lastUpdatedOn,
  };
}
