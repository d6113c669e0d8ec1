/**
 * A local stand-in for Gemini's REST API (node:http on 127.0.0.1, random port), written from
 * Gemini's public documentation (docs.gemini.com / developer.gemini.com, "REST API"), for ccxt's
 * real `gemini` class pointed at it through `urls.api` (EXCHANGE_API_URLS):
 *
 * - public `GET /v1/symbols` (lower-case market ids) and `GET /v1/symbols/details/{symbol}`
 *   (base_currency, quote_currency, tick_size, quote_increment, min_order_size, status);
 * - `GET /` of the web exchange, the page ccxt's fetchCurrencies reads (a `currencyData` JSON
 *   script: `tradingPairs` and `currencies` rows in the order ccxt's parser documents); ccxt's
 *   loadMarkets reads it, then `/v1/symbols`;
 * - private `POST /v1/balances`, `/v1/mytrades`, `/v1/transfers`, `/v1/balances/staking`,
 *   `/v1/staking/history` (newest first, `since`/`until` ISO datetimes, `limit` at most 500, the
 *   events grouped by provider), each authenticated as Gemini
 *   documents "Private API invocation": the JSON payload (`request` = the path, an increasing
 *   `nonce`, the parameters) base64-encoded in `X-GEMINI-PAYLOAD`, `X-GEMINI-SIGNATURE` = hex
 *   HMAC-SHA384(payload, secret), the key in `X-GEMINI-APIKEY`. Errors are Gemini's error body
 *   `{"result":"error","reason":…,"message":…}`: an unknown key `InvalidApiKey` (HTTP 400), a bad
 *   signature `InvalidSignature` (400), a nonce not above the last `InvalidNonce` (400), a key
 *   without the Auditor role `MissingRole` (403), rate limiting `RateLimit` (429);
 * - `mytrades` per `symbol` (required: `InvalidSymbol` otherwise), `transfers` for every currency;
 *   both take `timestamp` (seconds or milliseconds, Gemini's "Timestamps": on or after it) and a
 *   page size (`limit_trades`, default 50, max 500; `limit_transfers`, default 10, max 50). As the
 *   "List Past Trades" page describes paging: the page is the oldest items on or after
 *   `timestamp`, listed newest first, so the next request starts after the newest of the page.
 *   Without `timestamp`, the most recent items (here: the newest page).
 *
 * Scripted failures on a path for the next N requests: an HTTP status with Gemini's error body,
 * a hang, or a malformed body.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Gemini account-scoped keys start `account-` (ccxt refuses master keys before any request). */
export const FAKE_GEMINI_KEY = 'account-fakegeminikey0001';
export const FAKE_GEMINI_SECRET = 'fakeGeminiSecret42xyzABCdef';

/** A past trade as POST /v1/mytrades lists it. */
export interface GeminiTrade {
  price: string;
  amount: string;
  timestamp: number;
  timestampms: number;
  type: 'Buy' | 'Sell';
  aggressor: boolean;
  fee_currency: string;
  fee_amount: string;
  tid: number;
  order_id: string;
  exchange: 'gemini';
  is_auction_fill: boolean;
  is_clearing_fill: boolean;
  /** Upper case, e.g. ETHUSD. */
  symbol: string;
}

/** A deposit or withdrawal as POST /v1/transfers lists it. */
export interface GeminiTransfer {
  type: 'Deposit' | 'Withdrawal';
  status: 'Advanced' | 'Complete' | 'Pending';
  timestampms: number;
  eid: number;
  currency: string;
  amount: string;
  method?: string;
  txHash?: string;
  outputIdx?: number;
  destination?: string;
  withdrawalId?: string;
  feeAmount?: string;
}

/** A Gemini Staking event as POST /v1/staking/history lists it (amounts are JSON numbers there). */
export interface GeminiStakingEvent {
  providerId: string;
  transactionId: string;
  transactionType: 'Deposit' | 'Redeem' | 'Interest';
  amountCurrency: string;
  amount: number;
  priceCurrency?: string;
  priceAmount?: number;
  dateTime: number;
}

export interface GeminiFault {
  path: RegExp;
  status?: number;
  /** Gemini's error `reason` (with status, default 400). */
  reason?: string;
  body?: string;
  hang?: boolean;
  remaining: number;
}

const ms = (iso: string) => Date.parse(iso);

export function geminiTrade(
  tid: number,
  symbol: string,
  type: 'Buy' | 'Sell',
  time: string,
  amount: string,
  price: string,
  fee: string,
  feeCurrency: string,
): GeminiTrade {
  return {
    price,
    amount,
    timestamp: Math.floor(ms(time) / 1000),
    timestampms: ms(time),
    type,
    aggressor: true,
    fee_currency: feeCurrency,
    fee_amount: fee,
    tid,
    order_id: String(tid + 1_000_000),
    exchange: 'gemini',
    is_auction_fill: false,
    is_clearing_fill: false,
    symbol,
  };
}

export function geminiTransfer(
  eid: number,
  type: 'Deposit' | 'Withdrawal',
  currency: string,
  time: string,
  amount: string,
  more: Partial<GeminiTransfer> = {},
): GeminiTransfer {
  return {
    type,
    status: 'Complete',
    timestampms: ms(time),
    eid,
    currency,
    amount,
    ...(currency === 'USD' ? { method: 'ACH' } : {}),
    ...more,
  };
}

/** The markets: spot pairs and one perpetual (ignored by the source: spot only). */
const SYMBOLS: Record<string, { base: string; quote: string; tick: number; amount: number; min: string }> = {
  btcusd: { base: 'BTC', quote: 'USD', tick: 2, amount: 8, min: '0.00001' },
  ethusd: { base: 'ETH', quote: 'USD', tick: 2, amount: 6, min: '0.001' },
  ethbtc: { base: 'ETH', quote: 'BTC', tick: 5, amount: 6, min: '0.001' },
  solusd: { base: 'SOL', quote: 'USD', tick: 3, amount: 6, min: '0.01' },
  dogeusd: { base: 'DOGE', quote: 'USD', tick: 5, amount: 6, min: '0.1' },
  btcgusdperp: { base: 'BTC', quote: 'GUSD', tick: 1, amount: 4, min: '0.0001' },
};
const CURRENCIES = [
  ['BTC', 'Bitcoin', 1, 8, 0, 8, 8, false, null, 'bitcoin'],
  ['ETH', 'Ether', 2, 6, 0, 18, 8, false, null, 'ethereum'],
  ['SOL', 'Solana', 3, 6, 0, 9, 8, false, null, 'solana'],
  ['DOGE', 'Dogecoin', 4, 6, 0, 8, 8, false, null, 'dogecoin'],
  ['GUSD', 'Gemini Dollar', 5, 2, 0, 2, 2, false, null, 'ethereum'],
  ['USD', 'US Dollar', 0, 2, 2, 2, 2, true, '$', null],
];

export class FakeGemini {
  /** Private calls seen: path and payload (request and nonce dropped). */
  readonly requests: { path: string; params: Record<string, unknown> }[] = [];
  readonly faults: GeminiFault[] = [];
  /** API key → secret. */
  readonly keys = new Map<string, string>([[FAKE_GEMINI_KEY, FAKE_GEMINI_SECRET]]);
  /** Keys without the Auditor (or Trader) role: MissingRole. */
  readonly roleless = new Set<string>();
  trades: GeminiTrade[] = [];
  transfers: GeminiTransfer[] = [];
  /** Currency → amount, listed as set (a currency with nothing left may simply be absent). */
  balances = new Map<string, string>();
  /** The most rows a page holds (Gemini: 500 trades, 50 transfers); tests shrink them. */
  tradePageSize = 500;
  transferPageSize = 50;
  stakingPageSize = 500;
  staking: GeminiStakingEvent[] = [];
  /** Currency → staked balance (POST /v1/balances/staking). */
  stakingBalances = new Map<string, string>();
  private readonly nonces = new Map<string, bigint>();
  private server?: Server;

  fail(fault: Omit<GeminiFault, 'remaining'> & { remaining?: number }): void {
    this.faults.push({ remaining: 1, ...fault });
  }

  reset(): void {
    this.requests.length = 0;
    this.faults.length = 0;
    this.keys.clear();
    this.keys.set(FAKE_GEMINI_KEY, FAKE_GEMINI_SECRET);
    this.roleless.clear();
    this.trades = [];
    this.transfers = [];
    this.balances = new Map();
    this.tradePageSize = 500;
    this.transferPageSize = 50;
    this.stakingPageSize = 500;
    this.staking = [];
    this.stakingBalances = new Map();
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
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
    const path = url.split('?')[0]!;
    const answer = (status: number, text: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(text);
    };
    const json = (value: unknown) => answer(200, JSON.stringify(value));
    const error = (status: number, reason: string, message: string) =>
      answer(status, JSON.stringify({ result: 'error', reason, message }));

    const fault = this.faults.find((f) => f.remaining > 0 && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      if (fault.hang) return;
      if (fault.status || fault.reason) {
        if (fault.body !== undefined) return answer(fault.status ?? 400, fault.body);
        return error(fault.status ?? 400, fault.reason ?? 'RateLimit', 'Requests were made too frequently.');
      }
      if (fault.body !== undefined) return answer(200, fault.body);
    }

    if (method === 'GET' && path === '/') {
      const data = {
        tradingPairs: Object.entries(SYMBOLS).map(([id, s]) => [
          id.toUpperCase(),
          s.tick,
          s.amount,
          s.min,
          10,
          true,
        ]),
        currencies: CURRENCIES,
        networks: [
          ['bitcoin', 'BTC', 'Bitcoin'],
          ['ethereum', 'ETH', 'Ethereum'],
          ['solana', 'SOL', 'Solana'],
          ['dogecoin', 'DOGE', 'Dogecoin'],
        ],
      };
      return answer(
        200,
        `<!doctype html><html><body><script type="application/json" id="currencyData">${JSON.stringify(data)}</script></body></html>`,
        'text/html',
      );
    }
    if (method === 'GET' && path === '/v1/symbols') return json(Object.keys(SYMBOLS));
    const details = /^\/v1\/symbols\/details\/(\w+)$/.exec(path);
    if (method === 'GET' && details) {
      const id = details[1]!.toLowerCase();
      const s = SYMBOLS[id];
      if (!s) return error(400, 'InvalidSymbol', `Supplied value '${details[1]}' is not a valid symbol.`);
      return json({
        symbol: id.toUpperCase(),
        base_currency: s.base,
        quote_currency: s.quote,
        tick_size: 10 ** -s.amount,
        quote_increment: 10 ** -s.tick,
        min_order_size: s.min,
        status: 'open',
        wrap_enabled: false,
        product_type: id.endsWith('perp') ? 'swap' : 'spot',
        contract_type: id.endsWith('perp') ? 'linear' : 'vanilla',
        contract_price_currency: s.quote,
      });
    }
    if (method !== 'POST' || !path.startsWith('/v1/'))
      return error(404, 'EndpointNotFound', `API entry point ${path} not found`);

    // Private API invocation (docs: "Private API invocation", "Error Codes").
    const apiKey = String(headers['x-gemini-apikey'] ?? '');
    const payloadHeader = String(headers['x-gemini-payload'] ?? '');
    const signature = String(headers['x-gemini-signature'] ?? '');
    if (!apiKey) return error(400, 'MissingApikeyHeader', 'The X-GEMINI-APIKEY header was missing');
    if (!payloadHeader) return error(400, 'MissingPayloadHeader', 'The X-GEMINI-PAYLOAD header was missing');
    if (!signature) return error(400, 'MissingSignatureHeader', 'The X-GEMINI-SIGNATURE header was missing');
    const secret = this.keys.get(apiKey);
    if (!secret) return error(400, 'InvalidApiKey', `Invalid API key '${apiKey}'`);
    const expected = createHmac('sha384', secret).update(payloadHeader).digest();
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return error(400, 'InvalidSignature', `InvalidSignature for payload ${payloadHeader}`);
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(Buffer.from(payloadHeader, 'base64').toString('utf8')) as Record<string, unknown>;
    } catch {
      return error(400, 'InvalidJson', 'The payload is not valid base64-encoded JSON');
    }
    if (payload['request'] !== path)
      return error(400, 'InvalidRequestURI', `request ${String(payload['request'])} does not match ${path}`);
    const nonce = /^\d+$/.test(String(payload['nonce'])) ? BigInt(String(payload['nonce'])) : undefined;
    const last = this.nonces.get(apiKey) ?? -1n;
    if (nonce === undefined || nonce <= last)
      return error(
        400,
        'InvalidNonce',
        `Nonce '${String(payload['nonce'])}' has not increased since your last call`,
      );
    this.nonces.set(apiKey, nonce);
    if (this.roleless.has(apiKey))
      return error(
        403,
        'MissingRole',
        'To access this endpoint, you need to log in to the website and go to the settings page to assign one of these roles [Auditor, Trader] to API key',
      );
    const { request: _request, nonce: _nonce, ...params } = payload;
    this.requests.push({ path, params });

    switch (path) {
      case '/v1/balances':
        return json(
          [...this.balances].map(([currency, amount]) => ({
            type: 'exchange',
            currency,
            amount,
            available: amount,
            availableForWithdrawal: amount,
          })),
        );
      case '/v1/mytrades': {
        const symbol = String(params['symbol'] ?? '').toLowerCase();
        if (!SYMBOLS[symbol])
          return error(400, 'InvalidSymbol', `Supplied value '${symbol}' is not a valid symbol.`);
        const limit = Math.min(Number(params['limit_trades'] ?? 50), 500, this.tradePageSize);
        const rows = this.trades.filter((t) => t.symbol.toLowerCase() === symbol);
        return json(this.page(rows, (t) => t.timestampms, params['timestamp'], limit));
      }
      case '/v1/transfers': {
        const limit = Math.min(Number(params['limit_transfers'] ?? 10), 50, this.transferPageSize);
        return json(this.page(this.transfers, (t) => t.timestampms, params['timestamp'], limit));
      }
      case '/v1/balances/staking':
        return json(
          [...this.stakingBalances].map(([currency, balance]) => ({
            type: 'Staking',
            currency,
            balance: Number(balance),
            available: 0,
            availableForWithdrawal: Number(balance),
            balanceByProvider: {},
          })),
        );
      case '/v1/staking/history': {
        // Newest first unless sortAsc; `since` / `until` ISO datetimes (or timestamps), inclusive.
        const bound = (value: unknown, fallback: number) =>
          value === undefined ? fallback : typeof value === 'number' ? value : Date.parse(String(value));
        const since = bound(params['since'], Number.NEGATIVE_INFINITY);
        const until = bound(params['until'], Number.POSITIVE_INFINITY);
        const limit = Math.min(Number(params['limit'] ?? 50), 500, this.stakingPageSize);
        const rows = this.staking
          .filter((e) => e.dateTime >= since && e.dateTime <= until)
          .sort((a, b) => (params['sortAsc'] === true ? a.dateTime - b.dateTime : b.dateTime - a.dateTime))
          .slice(0, limit);
        const providers = [...new Set(rows.map((r) => r.providerId))];
        return json(
          providers.map((providerId) => ({
            providerId,
            transactions: rows
              .filter((r) => r.providerId === providerId)
              .map(({ providerId: _provider, ...rest }) => rest),
          })),
        );
      }
      default:
        return error(404, 'EndpointNotFound', `API entry point ${path} not found`);
    }
  }

  /**
   * Gemini's paging: with `timestamp` (seconds below 10^11, else milliseconds), the oldest `limit`
   * items on or after it; without, the newest `limit`; either way listed newest first.
   */
  private page<T>(rows: readonly T[], time: (row: T) => number, timestamp: unknown, limit: number): T[] {
    const ascending = [...rows].sort((a, b) => time(a) - time(b));
    let chosen: T[];
    if (timestamp === undefined) chosen = ascending.slice(-limit);
    else {
      const n = Number(timestamp);
      const from = n < 1e11 ? n * 1000 : n;
      chosen = ascending.filter((row) => time(row) >= from).slice(0, limit);
    }
    return chosen.reverse();
  }
}
