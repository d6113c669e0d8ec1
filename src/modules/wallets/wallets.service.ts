/**
 * /qeychain/wallets (design §9): the tenant's on-chain accounts with their holdings, from the
 * balance snapshots the balances endpoint serves (the cost-basis engine at the stored prices).
 * Keyset pages in (createdOn, id) order with an opaque, HMAC-signed cursor bound to the tenant:
 * a deep page costs what the first does, and a walk never repeats or skips a wallet while others
 * are linked. Read-only.
 */
import { Inject, Injectable } from '@nestjs/common';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import { walletFigures, type WalletFigures } from '../../domain/portfolio/index.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { AccountsService, type AccountRecord } from '../accounts/index.js';
import { LedgerService } from '../ledger/index.js';

export const DEFAULT_WALLET_PAGE = 50;
export const MAX_WALLET_PAGE = 200;
const CURSOR_PURPOSE = 'qeychain-wallets';

/** A wallet: the account and its figures (src/domain/portfolio). */
export interface WalletView extends WalletFigures {
  readonly account: AccountRecord;
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

@Injectable()
export class WalletsService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
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
      this.ledger.snapshotsOf(
        tenantId,
        accounts.map((account) => account.id),
      ),
      this.prices.latestPricesUsd(['BTC']).then((prices) => prices.get('BTC')?.priceUsd ?? null),
    ]);
    const last = accounts.at(-1);
    return {
      wallets: accounts.map((account) => ({
        account,
        ...walletFigures(snapshots.get(account.id), btcPrice),
      })),
      nextCursor:
        hasMore && last
          ? await this.cursors.encode(tenantId, CURSOR_PURPOSE, { c: last.createdOn.getTime(), id: last.id })
          : null,
    };
  }
}
