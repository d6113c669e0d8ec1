/**
 * A local stand-in for Binance.US's REST API (node:http on 127.0.0.1), written from its public
 * documentation (docs.binance.us), for ccxt's real `binanceus` class pointed at it:
 *
 * - public `GET /api/v3/exchangeInfo` (what loadMarkets reads);
 * - SIGNED `GET /api/v3/account` (every asset of the account, zero balances too), `/api/v3/myTrades`
 *   (`symbol` required; `fromId`: trades with that id and later, ascending; with only `startTime`,
 *   that time's next 24 hours; `limit` at most 1,000), `/sapi/v1/capital/deposit/hisrec` and
 *   `/sapi/v1/capital/withdraw/history` (`startTime`/`endTime` at most 90 days apart, each row with
 *   its chain `txId`). Signed as Binance documents: `X-MBX-APIKEY`, a `timestamp` within
 *   `recvWindow` of the server's clock, and `signature` = hex HMAC-SHA256(secret, the query string
 *   before it). Refusals are Binance's bodies `{"code":…,"msg":…}`: -2015 invalid key (401), -1022
 *   bad signature (400), -1021 timestamp outside recvWindow (400), -1003 too many requests (429).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_BINANCEUS_KEY = 'fakeBinanceUsApiKey000000000000000000000000000000000000000000001';
export const FAKE_BINANCEUS_SECRET = 'fakeBinanceUsSecret0000000000000000000000000000000000000000002';

export interface BinanceTrade {
  symbol: string;
  id: number;
  orderId: number;
  orderListId: number;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
  isBestMatch: boolean;
}

export interface BinanceDeposit {
  id: string;
  amount: string;
  coin: string;
  network: string;
  status: number;
  address: string;
  addressTag: string;
  txId: string;
  insertTime: number;
  transferType: number;
  confirmTimes: string;
  unlockConfirm: number;
  walletType: number;
}

export interface BinanceWithdrawal {
  id: string;
  amount: string;
  transactionFee: string;
  coin: string;
  status: number;
  address: string;
  txId: string;
  applyTime: string;
  network: string;
  transferType: number;
  info: string;
  confirmNo: number;
  walletType: number;
  txKey: string;
  completeTime: string;
}

export interface BinanceFault {
  path: RegExp;
  status?: number;
  body?: string;
  hang?: boolean;
  remaining: number;
}

const DAY = 86_400_000;
const binanceTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;

export function binanceTrade(
  symbol: string,
  id: number,
  isBuyer: boolean,
  time: string,
  qty: string,
  price: string,
  commission: string,
  commissionAsset: string,
  quoteQty: string,
): BinanceTrade {
  return {
    symbol,
    id,
    orderId: 10_000 + id,
    orderListId: -1,
    price,
    qty,
    quoteQty,
    commission,
    commissionAsset,
    time: Date.parse(time),
    isBuyer,
    isMaker: false,
    isBestMatch: true,
  };
}

export function binanceDeposit(
  id: string,
  coin: string,
  time: string,
  amount: string,
  txId: string,
): BinanceDeposit {
  return {
    id,
    amount,
    coin,
    network: coin,
    status: 1,
    address: 'deposit-address',
    addressTag: '',
    txId,
    insertTime: Date.parse(time),
    transferType: 0,
    confirmTimes: '2/2',
    unlockConfirm: 0,
    walletType: 0,
  };
}

export function binanceWithdrawal(
  id: string,
  coin: string,
  time: string,
  amount: string,
  fee: string,
  txId: string,
): BinanceWithdrawal {
  return {
    id,
    amount,
    transactionFee: fee,
    coin,
    status: 6,
    address: 'bc1qclientownwallet000000000000000000000000',
    txId,
    applyTime: binanceTime(time),
    network: coin,
    transferType: 0,
    info: '',
    confirmNo: 3,
    walletType: 0,
    txKey: '',
    completeTime: binanceTime(new Date(Date.parse(time) + 600_000).toISOString()),
  };
}

const SYMBOLS = [
  ['BTCUSD', 'BTC', 'USD'],
  ['ETHUSD', 'ETH', 'USD'],
  ['ETHBTC', 'ETH', 'BTC'],
  ['SOLUSD', 'SOL', 'USD'],
  ['DOGEUSD', 'DOGE', 'USD'],
] as const;

export class FakeBinanceUs {
  readonly requests: { path: string; query: Record<string, string> }[] = [];
  readonly faults: BinanceFault[] = [];
  readonly keys = new Map<string, string>();
  trades: BinanceTrade[] = [];
  deposits: BinanceDeposit[] = [];
  withdrawals: BinanceWithdrawal[] = [];
  /** Asset → free balance; the account lists them all, zeros included. */
  balances = new Map<string, string>();
  /** The most trades a page holds (Binance: 1,000); tests shrink it. */
  pageSize = 1000;
  private server?: Server;

  constructor() {
    this.reset();
  }

  fail(fault: Omit<BinanceFault, 'remaining'> & { remaining?: number }): void {
    this.faults.push({ remaining: 1, ...fault });
  }

  reset(): void {
    this.requests.length = 0;
    this.faults.length = 0;
    this.keys.clear();
    this.keys.set(FAKE_BINANCEUS_KEY, FAKE_BINANCEUS_SECRET);
    this.trades = [];
    this.deposits = [];
    this.withdrawals = [];
    this.balances = new Map();
    this.pageSize = 1000;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(method: string, url: string, headers: IncomingHttpHeaders, res: ServerResponse): void {
    const [path = '/', search = ''] = url.split('?');
    const query = Object.fromEntries(new URLSearchParams(search));
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    const json = (value: unknown) => answer(200, JSON.stringify(value));
    const error = (status: number, code: number, msg: string) =>
      answer(status, JSON.stringify({ code, msg }));

    const fault = this.faults.find((f) => f.remaining > 0 && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      if (fault.hang) return;
      if (fault.status === 429)
        return error(429, -1003, 'Too many requests; current limit is 1200 request weight per 1 MINUTE.');
      if (fault.status) return answer(fault.status, fault.body ?? '');
      if (fault.body !== undefined) return answer(200, fault.body);
    }

    if (method === 'GET' && path === '/api/v3/exchangeInfo')
      return json({
        timezone: 'UTC',
        serverTime: Date.now(),
        rateLimits: [],
        exchangeFilters: [],
        symbols: SYMBOLS.map(([symbol, baseAsset, quoteAsset]) => ({
          symbol,
          status: 'TRADING',
          baseAsset,
          baseAssetPrecision: 8,
          quoteAsset,
          quotePrecision: quoteAsset === 'USD' ? 4 : 8,
          quoteAssetPrecision: quoteAsset === 'USD' ? 4 : 8,
          baseCommissionPrecision: 8,
          quoteCommissionPrecision: 8,
          orderTypes: ['LIMIT', 'MARKET'],
          icebergAllowed: true,
          ocoAllowed: true,
          quoteOrderQtyMarketAllowed: true,
          isSpotTradingAllowed: true,
          isMarginTradingAllowed: false,
          filters: [
            { filterType: 'PRICE_FILTER', minPrice: '0.00001', maxPrice: '1000000', tickSize: '0.00001' },
            { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '9000', stepSize: '0.00001' },
          ],
          permissions: ['SPOT'],
        })),
      });

    // SIGNED endpoints.
    const apiKey = String(headers['x-mbx-apikey'] ?? '');
    const secret = this.keys.get(apiKey);
    if (!secret) return error(401, -2015, 'Invalid API-key, IP, or permissions for action.');
    const signed = /^(.*)&signature=([0-9a-f]{64})$/.exec(search);
    if (!signed) return error(400, -1022, 'Signature for this request is not valid.');
    const expected = createHmac('sha256', secret).update(signed[1]!).digest();
    const given = Buffer.from(signed[2]!, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return error(400, -1022, 'Signature for this request is not valid.');
    const timestamp = Number(query['timestamp']);
    const recvWindow = Number(query['recvWindow'] ?? 5000);
    if (!Number.isFinite(timestamp) || Math.abs(Date.now() - timestamp) > recvWindow)
      return error(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    const { signature: _signature, timestamp: _timestamp, recvWindow: _recv, ...params } = query;
    this.requests.push({ path, query: params });

    switch (path) {
      case '/api/v3/account':
        return json({
          makerCommission: 10,
          takerCommission: 10,
          buyerCommission: 0,
          sellerCommission: 0,
          canTrade: true,
          canWithdraw: true,
          canDeposit: true,
          updateTime: Date.now(),
          accountType: 'SPOT',
          balances: [...this.balances].map(([asset, free]) => ({ asset, free, locked: '0.00000000' })),
          permissions: ['SPOT'],
        });
      case '/api/v3/myTrades': {
        const symbol = params['symbol'];
        if (!symbol || !SYMBOLS.some(([s]) => s === symbol)) return error(400, -1121, 'Invalid symbol.');
        const limit = Math.min(Number(params['limit'] ?? 500), 1000, this.pageSize);
        let rows = this.trades.filter((t) => t.symbol === symbol).sort((a, b) => a.id - b.id);
        if (params['fromId'] !== undefined) rows = rows.filter((t) => t.id >= Number(params['fromId']));
        else if (params['startTime'] !== undefined) {
          const start = Number(params['startTime']);
          const end = params['endTime'] !== undefined ? Number(params['endTime']) : start + DAY;
          if (end - start > DAY)
            return error(400, -1127, 'More than 24 hours between startTime and endTime.');
          rows = rows.filter((t) => t.time >= start && t.time <= end);
        } else rows = rows.slice(-limit);
        return json(rows.slice(0, limit));
      }
      case '/sapi/v1/capital/deposit/hisrec':
      case '/sapi/v1/capital/withdraw/history': {
        const end = params['endTime'] !== undefined ? Number(params['endTime']) : Date.now();
        const start = params['startTime'] !== undefined ? Number(params['startTime']) : end - 90 * DAY;
        if (end - start > 90 * DAY)
          return error(400, -1127, 'More than 90 days between startTime and endTime.');
        if (path.endsWith('hisrec'))
          return json(this.deposits.filter((d) => d.insertTime >= start && d.insertTime <= end));
        return json(
          this.withdrawals.filter((w) => {
            const at = Date.parse(`${w.applyTime.replace(' ', 'T')}Z`);
            return at >= start && at <= end;
          }),
        );
      }
      default:
        return error(404, -1000, 'Not found');
    }
  }
}
