/**
 * Prices for what the chains bring (issue 30 item 4): daily USD prices of the tokens a chain
 * account holds or moved, by contract or mint, fetched from the market provider when a refresh
 * needs them and stored beside the catalog's history (chain_token, chain_token_price).
 *
 * - A token whose ledger symbol is a catalog asset (USDC, WETH's ETH…) is the catalog's: nothing
 *   is fetched.
 * - Any other token: the provider is asked which coin the contract is (`/coins/{platform}/contract/
 *   {address}`), then for that coin's daily history over the range the account needs. A token the
 *   provider does not know is recorded `unpriceable` and asked again after UNPRICEABLE_RETRY_MS.
 * - Provider calls are bounded by a process-wide budget per minute (TOKEN_PRICE_CALLS_PER_MINUTE,
 *   under CoinGecko's Demo plan's 30): a token the budget cannot cover now, or whose call failed,
 *   is `deferred` and asked on the next refresh. Nothing here throws for a token it cannot price.
 *
 * Called by refreshes (background jobs), never while answering a request.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import type { ChainTokenRef, TokenPriceState } from '../../common/ports/market-prices.port.js';
import { AppConfig } from '../../config/app-config.js';
import { ChainTokenEntity, ChainTokenPriceEntity } from './entities/chain-token.entity.js';
import { MarketRepository } from './market.repository.js';
import { MARKET_DATA_PROVIDER, type MarketDataProvider } from './providers/market-data-provider.js';

/** An unpriceable token is asked again after a week (new listings appear). */
export const UNPRICEABLE_RETRY_MS = 7 * 86_400_000;

/** A sliding one-minute window of provider calls, shared by every refresh of this process. */
export class CallBudget {
  private readonly spent: number[] = [];

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `calls` from the budget if all fit in the last minute's window; false leaves it untouched. */
  take(calls: number): boolean {
    const now = this.now();
    while (this.spent.length > 0 && this.spent[0] <= now - 60_000) this.spent.shift();
    if (this.spent.length + calls > this.perMinute) return false;
    for (let i = 0; i < calls; i++) this.spent.push(now);
    return true;
  }
}

@Injectable()
export class TokenPricesService {
  private readonly logger = new Logger(TokenPricesService.name);
  private readonly budget: CallBudget;

  constructor(
    @InjectRepository(ChainTokenEntity) private readonly tokens: Repository<ChainTokenEntity>,
    @InjectRepository(ChainTokenPriceEntity) private readonly prices: Repository<ChainTokenPriceEntity>,
    private readonly market: MarketRepository,
    @Inject(MARKET_DATA_PROVIDER) private readonly provider: MarketDataProvider,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.budget = new CallBudget(config.TOKEN_PRICE_CALLS_PER_MINUTE, () => clock.now().getTime());
  }

  async ensure(
    refs: readonly ChainTokenRef[],
    fromDate: string,
    toDate: string,
  ): Promise<Map<string, TokenPriceState>> {
    const now = this.clock.now();
    const wanted = new Map<string, ChainTokenRef>();
    for (const ref of refs) wanted.set(ref.symbol.toUpperCase(), ref);
    const states = new Map<string, TokenPriceState>();
    if (wanted.size === 0) return states;
    const catalog = await this.market.findBySymbols([...wanted.keys()]);
    const stored = new Map(
      (await this.tokens.findBy({ symbol: In([...wanted.keys()]) })).map((row) => [row.symbol, row]),
    );
    for (const [symbol, ref] of wanted) {
      if (catalog.has(symbol)) {
        states.set(symbol, 'catalog');
        continue;
      }
      const row = stored.get(symbol);
      if (row?.status === 'unpriceable' && now.getTime() - row.checkedAt.getTime() < UNPRICEABLE_RETRY_MS) {
        states.set(symbol, 'unpriceable');
        continue;
      }
      if (row?.status === 'priced' && covers(row, fromDate, toDate)) {
        states.set(symbol, 'priced');
        continue;
      }
      states.set(symbol, await this.fetch(symbol, ref, row, fromDate, toDate, now));
    }
    return states;
  }

  private async fetch(
    symbol: string,
    ref: ChainTokenRef,
    row: ChainTokenEntity | undefined,
    fromDate: string,
    toDate: string,
    now: Date,
  ): Promise<TokenPriceState> {
    if (!this.provider.contractCoin) return 'unpriceable';
    // The contract lookup (unless a priced row already names the coin) and the coin's history.
    const known = row?.status === 'priced' ? row.coingeckoId : null;
    if (!this.budget.take(known ? 1 : 2)) return 'deferred';
    // Ask for the union of what is stored and what is wanted, so the stored range stays one span.
    const from = row?.pricedFrom && row.pricedFrom < fromDate ? row.pricedFrom : fromDate;
    const to = row?.pricedTo && row.pricedTo > toDate ? row.pricedTo : toDate;
    try {
      const coin = known
        ? { coingeckoId: known }
        : await this.provider.contractCoin(ref.platform, ref.contract);
      if (!coin) {
        await this.tokens.save(
          this.tokens.create({
            ...identity(symbol, ref),
            coingeckoId: null,
            status: 'unpriceable',
            pricedFrom: null,
            pricedTo: null,
            checkedAt: now,
          }),
        );
        return 'unpriceable';
      }
      const days = await this.provider.dailyHistory(coin.coingeckoId, from, to);
      await this.tokens.manager.transaction(async (manager) => {
        if (days.length > 0) {
          await manager
            .createQueryBuilder()
            .insert()
            .into(ChainTokenPriceEntity)
            .values(days.map((day) => ({ symbol, date: day.date, priceUsd: day.priceUsd })))
            .orUpdate(['price_usd'], ['symbol', 'date'])
            .execute();
        }
        await manager.save(
          ChainTokenEntity,
          manager.create(ChainTokenEntity, {
            ...identity(symbol, ref),
            coingeckoId: coin.coingeckoId,
            status: 'priced',
            pricedFrom: from,
            pricedTo: to,
            checkedAt: now,
          }),
        );
      });
      return 'priced';
    } catch (error) {
      this.logger.warn(
        `Prices of token ${symbol} (${ref.platform} ${ref.contract}) deferred: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 'deferred';
    }
  }

  /** The last stored price on or before `date` per symbol (chain tokens only). */
  async onDate(symbols: readonly string[], date: string): Promise<Map<string, string>> {
    if (symbols.length === 0) return new Map();
    const rows: { symbol: string; priceUsd: string }[] = await this.prices.manager.query(
      `SELECT p.symbol, p.price_usd AS "priceUsd"
         FROM unnest($1::text[]) AS wanted(symbol)
         CROSS JOIN LATERAL (
           SELECT * FROM chain_token_price c
            WHERE c.symbol = wanted.symbol AND c.date <= $2
            ORDER BY c.date DESC LIMIT 1) p`,
      [symbols, date],
    );
    return new Map(rows.map((row) => [row.symbol, row.priceUsd]));
  }

  /** The latest stored price per symbol, with its UTC day. */
  async latest(symbols: readonly string[]): Promise<Map<string, { priceUsd: string; date: string }>> {
    if (symbols.length === 0) return new Map();
    const rows: { symbol: string; priceUsd: string; date: string }[] = await this.prices.manager.query(
      `SELECT DISTINCT ON (symbol) symbol, price_usd AS "priceUsd", to_char(date, 'YYYY-MM-DD') AS date
         FROM chain_token_price WHERE symbol = ANY($1::text[])
        ORDER BY symbol, date DESC`,
      [symbols],
    );
    return new Map(rows.map((row) => [row.symbol, { priceUsd: row.priceUsd, date: row.date }]));
  }
}

function identity(symbol: string, ref: ChainTokenRef) {
  return { symbol, platform: ref.platform, contract: ref.contract };
}

function covers(row: ChainTokenEntity, fromDate: string, toDate: string): boolean {
  return (
    row.pricedFrom !== null && row.pricedTo !== null && row.pricedFrom <= fromDate && row.pricedTo >= toDate
  );
}
