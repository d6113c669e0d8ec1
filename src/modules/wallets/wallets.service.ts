/**
 * /qeychain/wallets (design §9): the tenant's on-chain accounts with their holdings, from the
 * balance snapshots the balances endpoint serves (the cost-basis engine at the stored prices).
 * Keyset pages in (createdOn, id) order with an opaque, HMAC-signed cursor bound to the tenant:
 * a deep page costs what the first does, and a walk never repeats or skips a wallet while others
 * are linked. Read-only.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import type { AccountEntity } from '../accounts/entities/account.entity.js';
import { CursorCodec } from '../accounts/pagination/cursor-codec.js';
import { AccountsRepository } from '../accounts/repositories/accounts.repository.js';
import {
  BalanceSnapshotsRepository,
  type Snapshot,
} from '../accounts/repositories/balance-snapshots.repository.js';

export const DEFAULT_WALLET_PAGE = 50;
export const MAX_WALLET_PAGE = 200;
const CURSOR_PURPOSE = 'qeychain-wallets';

export type WalletUnavailableReason = 'no_balances_yet' | 'inconsistent_history';

export interface WalletView {
  readonly account: AccountEntity;
  /** BTC value of every holding (a bitcoin wallet: its BTC); null when unavailable. */
  readonly btcHoldings: Decimal | null;
  /** Basis of the known-basis lots held. */
  readonly costBasisUsd: Decimal | null;
  readonly unrealizedGainUsd: Decimal | null;
  /** Unknown-basis coins are left out of the gain, or an asset without a price out of the BTC value. */
  readonly needsReview: boolean;
  readonly unavailableReason: WalletUnavailableReason | null;
  readonly lastUpdatedOn: Date | null;
}

export interface WalletPage {
  readonly wallets: readonly WalletView[];
  readonly nextCursor: string | null;
}

interface WalletCursor {
  readonly c: number;
  readonly id: string;
}

const isWalletCursor = (value: unknown): value is WalletCursor =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as WalletCursor).c) &&
  typeof (value as WalletCursor).id === 'string' &&
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test((value as WalletCursor).id);

/** Exact sums and conversions (the global Decimal rounds to 20 significant digits). */
const Exact = Decimal.clone({ precision: 60 });

@Injectable()
export class WalletsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly snapshots: BalanceSnapshotsRepository,
    private readonly cursors: CursorCodec,
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
  ) {}

  async page(tenantId: string, limit = DEFAULT_WALLET_PAGE, cursor?: string): Promise<WalletPage> {
    const after = cursor ? await this.cursors.decode(tenantId, CURSOR_PURPOSE, cursor, isWalletCursor) : null;
    const rows = await this.accounts.listOnChainPage(
      tenantId,
      after ? { createdOn: new Date(after.c), id: after.id } : null,
      limit + 1,
    );
    const hasMore = rows.length > limit;
    const accounts = hasMore ? rows.slice(0, limit) : rows;
    const [snapshots, btcPrice] = await Promise.all([
      this.snapshots.findMany(
        tenantId,
        accounts.map((account) => account.id),
      ),
      this.prices.latestPricesUsd(['BTC']).then((prices) => prices.get('BTC')?.priceUsd ?? null),
    ]);
    const last = accounts.at(-1);
    return {
      wallets: accounts.map((account) => walletView(account, snapshots.get(account.id), btcPrice)),
      nextCursor:
        hasMore && last
          ? await this.cursors.encode(tenantId, CURSOR_PURPOSE, { c: last.createdOn.getTime(), id: last.id })
          : null,
    };
  }
}

/**
 * Figures as the balances show them. BTC counts as held; every other asset's market value (at the
 * balances' prices) is converted at the latest stored BTC price.
 */
function walletView(
  account: AccountEntity,
  snapshot: Snapshot | undefined,
  btcPriceUsd: string | null,
): WalletView {
  // The balances endpoint answers 422 for these: no honest figures to show.
  if (!snapshot || snapshot.issue) {
    return {
      account,
      btcHoldings: null,
      costBasisUsd: null,
      unrealizedGainUsd: null,
      needsReview: false,
      unavailableReason: snapshot ? 'inconsistent_history' : 'no_balances_yet',
      lastUpdatedOn: snapshot?.lastUpdatedOn ?? null,
    };
  }
  let btcHoldings = new Exact(0);
  let costBasisUsd = new Exact(0);
  let unrealizedGainUsd = new Exact(0);
  let needsReview = false;
  const btcPrice = btcPriceUsd === null ? null : new Exact(btcPriceUsd);
  for (const asset of snapshot.assets) {
    costBasisUsd = costBasisUsd.plus(asset.costBasisUsd);
    if (asset.unrealizedGainUsd !== null) unrealizedGainUsd = unrealizedGainUsd.plus(asset.unrealizedGainUsd);
    if (new Exact(asset.quantity).isZero()) continue;
    if (asset.needsReview) needsReview = true;
    if (asset.symbol === 'BTC') btcHoldings = btcHoldings.plus(asset.quantity);
    else if (asset.marketValueUsd !== null && btcPrice !== null && btcPrice.greaterThan(0)) {
      btcHoldings = btcHoldings.plus(new Exact(asset.marketValueUsd).dividedBy(btcPrice));
    } else {
      // No price for the asset (or for BTC): left out of the BTC value, and said so.
      needsReview = true;
    }
  }
  return {
    account,
    btcHoldings,
    costBasisUsd,
    unrealizedGainUsd,
    needsReview,
    unavailableReason: null,
    lastUpdatedOn: snapshot.lastUpdatedOn,
  };
}
