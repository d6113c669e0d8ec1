/**
 * A local stand-in for the CoinGecko API (node:http on 127.0.0.1, random port) serving
 * CoinGecko-shaped /coins/markets, /coins/{id}, /coins/{id}/market_chart and
 * /coins/{platform}/contract/{address} responses from a small deterministic data set, with scripted
 * failures (429 with Retry-After, 500, plan limits).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCoin {
  id: string;
  symbol: string;
  name: string;
  price: number;
  marketCap: number;
  volume: number;
  rank: number;
  circulating: number;
  total: number | null;
  max: number | null;
  /** developer_data / community_data as CoinGecko used to return them; omitted when undefined. */
  developer?: Record<string, number>;
  community?: Record<string, number>;
  /** Contracts (or mints) by asset platform id, as /coins/{id} lists them under `platforms`. */
  platforms?: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
}

interface ScriptedFailure {
  path: RegExp;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  remaining: number;
}

const DAY_MS = 86_400_000;
export const FAKE_LAST_UPDATED = '2026-04-01T11:59:30.000Z';

export const FAKE_COINS: FakeCoin[] = [
  {
    id: 'bitcoin',
    symbol: 'btc',
    name: 'Bitcoin',
    price: 84_250.5,
    marketCap: 1_668_000_000_000,
    volume: 31_000_000_000,
    rank: 1,
    circulating: 19_850_000,
    total: 19_850_000,
    max: 21_000_000,
    developer: { stars: 79_000, forks: 36_500, commit_count_4_weeks: 180, pull_request_contributors: 900 },
    community: { twitter_followers: 6_900_000, reddit_subscribers: 7_600_000 },
  },
  {
    id: 'ethereum',
    symbol: 'eth',
    name: 'Ethereum',
    price: 1_850.25,
    marketCap: 223_000_000_000,
    volume: 14_000_000_000,
    rank: 2,
    circulating: 120_700_000,
    total: 120_700_000,
    max: null,
    developer: { stars: 48_000, forks: 20_000, commit_count_4_weeks: 120, pull_request_contributors: 1_000 },
    community: { twitter_followers: 3_900_000, reddit_subscribers: 3_300_000 },
  },
  {
    // No developer/community data: CoinGecko stopped returning them.
    id: 'solana',
    symbol: 'sol',
    name: 'Solana',
    price: 125.125,
    marketCap: 64_000_000_000,
    volume: 3_900_000_000,
    rank: 6,
    circulating: 512_000_000,
    total: 600_000_000,
    max: null,
  },
];

/** Deterministic daily price of a coin `daysAgo` days before the fake's "now" (midnight UTC points). */
export function fakeDailyPrice(coin: FakeCoin, daysAgo: number): number {
  return Math.round(coin.price * (1 + 0.05 * Math.sin(daysAgo / 3 + coin.rank)) * 1e4) / 1e4;
}

export class CoinGeckoFakeServer {
  readonly requests: RecordedRequest[] = [];
  /** The fake's clock for market_chart; tests align it with the app's clock. */
  now = new Date(Date.parse('2026-04-01T12:00:00Z'));
  /** Days of history the "plan" serves; more answers 401 like the public/Demo plan. */
  maxHistoryDays = Number.POSITIVE_INFINITY;
  private readonly failures: ScriptedFailure[] = [];
  private server?: Server;

  constructor(readonly coins: FakeCoin[] = FAKE_COINS) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v3`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `times` requests whose path matches answer `status` (with headers/body). */
  fail(
    path: RegExp,
    status: number,
    options: { times?: number; headers?: Record<string, string>; body?: unknown } = {},
  ) {
    this.failures.push({
      path,
      status,
      headers: options.headers ?? {},
      body: options.body ?? { error: `fake ${status}` },
      remaining: options.times ?? 1,
    });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  requestsTo(path: RegExp): RecordedRequest[] {
    return this.requests.filter((request) => path.test(request.path));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/api\/v3/, '');
    this.requests.push({
      method: req.method ?? 'GET',
      path,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    });
    const failure = this.failures.find((f) => f.remaining > 0 && f.path.test(path));
    if (failure) {
      failure.remaining--;
      return send(res, failure.status, failure.body, failure.headers);
    }
    let match: RegExpExecArray | null;
    if (path === '/coins/markets') return send(res, 200, this.markets(url.searchParams));
    if ((match = /^\/coins\/([a-z0-9-]+)\/market_chart$/.exec(path))) {
      return this.marketChart(res, match[1], url.searchParams);
    }
    if ((match = /^\/coins\/([a-z0-9-]+)\/contract\/([A-Za-z0-9]+)$/.exec(path))) {
      return this.contract(res, match[1], match[2]);
    }
    if ((match = /^\/coins\/([a-z0-9-]+)$/.exec(path))) return this.coin(res, match[1]);
    return send(res, 404, { error: 'Not found' });
  }

  private markets(params: URLSearchParams) {
    const ids = new Set((params.get('ids') ?? '').split(','));
    return this.coins
      .filter((coin) => ids.has(coin.id))
      .sort((a, b) => a.rank - b.rank)
      .map((coin) => ({
        id: coin.id,
        symbol: coin.symbol,
        name: coin.name,
        image: `https://example.invalid/${coin.id}.png`,
        current_price: coin.price,
        market_cap: coin.marketCap,
        market_cap_rank: coin.rank,
        fully_diluted_valuation: coin.max ? coin.price * coin.max : null,
        total_volume: coin.volume,
        high_24h: coin.price * 1.02,
        low_24h: coin.price * 0.98,
        price_change_24h: 0,
        price_change_percentage_24h: 0,
        market_cap_change_24h: 0,
        market_cap_change_percentage_24h: 0,
        circulating_supply: coin.circulating,
        total_supply: coin.total,
        max_supply: coin.max,
        ath: coin.price * 1.5,
        ath_change_percentage: -33,
        ath_date: '2025-10-06T00:00:00.000Z',
        atl: 0.05,
        atl_change_percentage: 1e6,
        atl_date: '2013-07-06T00:00:00.000Z',
        roi: null,
        last_updated: FAKE_LAST_UPDATED,
      }));
  }

  private coin(res: ServerResponse, id: string) {
    const coin = this.coins.find((c) => c.id === id);
    if (!coin) return send(res, 404, { error: 'coin not found' });
    return send(res, 200, {
      id: coin.id,
      symbol: coin.symbol,
      name: coin.name,
      market_cap_rank: coin.rank,
      last_updated: FAKE_LAST_UPDATED,
      ...(coin.developer
        ? { developer_data: { ...coin.developer, subscribers: 3_900, total_issues: 7_000 } }
        : {}),
      ...(coin.community ? { community_data: { ...coin.community, telegram_channel_user_count: null } } : {}),
    });
  }

  /**
   * The coin a contract is on a platform, as CoinGecko answers it (the coin's data with
   * `asset_platform_id`, `contract_address` and `platforms`); EVM addresses match in any case,
   * like CoinGecko's. An unlisted contract answers 404 `{"error":"coin not found"}`.
   */
  private contract(res: ServerResponse, platform: string, address: string) {
    const evm = address.startsWith('0x');
    const same = (a: string) => (evm ? a.toLowerCase() === address.toLowerCase() : a === address);
    const coin = this.coins.find((c) => c.platforms?.[platform] !== undefined && same(c.platforms[platform]));
    if (!coin) return send(res, 404, { error: 'coin not found' });
    return send(res, 200, {
      id: coin.id,
      symbol: coin.symbol,
      name: coin.name,
      asset_platform_id: platform,
      contract_address: coin.platforms![platform],
      platforms: coin.platforms,
      market_cap_rank: coin.rank,
      last_updated: FAKE_LAST_UPDATED,
    });
  }

  /** Daily points at 00:00 UTC for the last `days` days, plus one point at "now" (as CoinGecko does). */
  private marketChart(res: ServerResponse, id: string, params: URLSearchParams) {
    const coin = this.coins.find((c) => c.id === id);
    if (!coin) return send(res, 404, { error: 'coin not found' });
    const days = Number(params.get('days'));
    if (days > this.maxHistoryDays) {
      return send(res, 401, {
        error: {
          status: {
            error_code: 10012,
            error_message:
              'Your request exceeds the allowed time range. Public API users are limited to querying historical data within the past 365 days.',
          },
        },
      });
    }
    const todayMs = Math.floor(this.now.getTime() / DAY_MS) * DAY_MS;
    const prices: number[][] = [];
    for (let daysAgo = days; daysAgo >= 1; daysAgo--)
      prices.push([todayMs - (daysAgo - 1) * DAY_MS, fakeDailyPrice(coin, daysAgo)]);
    prices.push([this.now.getTime(), coin.price]);
    return send(res, 200, {
      prices,
      market_caps: prices.map(([at, price]) => [at, price * coin.circulating]),
      total_volumes: prices.map(([at]) => [at, coin.volume]),
    });
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
