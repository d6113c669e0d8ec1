/**
 * A local stand-in for Bitstamp's API v2 over HTTPS (node:https on 127.0.0.1, a certificate made in
 * memory: test/fakes/local-tls.ts), written from Bitstamp's public documentation
 * (www.bitstamp.net/api), for ccxt's real `bitstamp` class told to trust that certificate:
 *
 * - public `GET /api/v2/markets/` (what loadMarkets and fetchCurrencies read);
 * - private `POST /api/v2/account_balances/`, `/api/v2/user_transactions/` (`offset`, `limit` at most
 *   1,000, newest first), `/api/v2/withdrawal-requests/` (`timedelta` in seconds, at most
 *   50,000,000; each request with its chain `transaction_id`), authenticated as Bitstamp's
 *   "Authentication" section says (API v2): headers `X-Auth: BITSTAMP <key>`, `X-Auth-Nonce` (36
 *   characters, never twice), `X-Auth-Timestamp` (ms, within 150 s), `X-Auth-Version: v2`, and
 *   `X-Auth-Signature` = hex HMAC-SHA256(secret, X-Auth + method + host + path + query +
 *   content type + nonce + timestamp + version + body). Refusals are Bitstamp's error bodies
 *   (HTTP 403, `{"status":"error","reason":…,"code":…}`): `API key not found` (API0001), `No
 *   permission found` (API0002), `Invalid nonce` (API0004), `Invalid signature` (API0005).
 *
 * user_transactions rows name amounts by lower-case currency keys, every currency of the account
 * in every row (zeros too), a trade its market by `base_quote` = the price; types 0 deposit,
 * 1 withdrawal, 2 market trade, 14 sub-account transfer, 25/26 staking in/out, 27 staking reward.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { localCertificate } from './local-tls.js';

export const FAKE_BITSTAMP_KEY = 'fakebitstampkey0000000000000000a';
export const FAKE_BITSTAMP_SECRET = 'fakebitstampsecret00000000000000';

/** Currencies every row carries (the account's), lower case. */
const ROW_CURRENCIES = ['usd', 'btc', 'eth', 'eur'];

export type BitstampRow = Record<string, string | number>;

export interface BitstampWithdrawalRequest {
  id: number;
  datetime: string;
  type: number;
  currency: string;
  amount: string;
  status: number;
  data: Record<string, unknown>;
  address: string;
  transaction_id: string;
  network: string;
}

export interface BitstampFault {
  path: RegExp;
  status?: number;
  body?: string;
  hang?: boolean;
  remaining: number;
}

/** Bitstamp's datetime: UTC "YYYY-MM-DD HH:MM:SS.ffffff". */
const datetime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}.000000`;
const zeros = () =>
  Object.fromEntries(ROW_CURRENCIES.map((c) => [c, c === 'usd' || c === 'eur' ? '0.00' : '0.00000000']));

/** A deposit (0), withdrawal (1), sub-account transfer (14), staking (25, 26) or reward (27) row. */
export function bitstampMovement(
  id: number,
  type: number,
  currency: string,
  time: string,
  amount: string,
  fee = '0.00000000',
): BitstampRow {
  return { ...zeros(), id, datetime: datetime(time), type: String(type), fee, [currency]: amount };
}

/** A market trade (type 2): base and quote amounts signed, `base_quote` the price, the fee in the quote. */
export function bitstampTrade(
  id: number,
  pair: string,
  time: string,
  baseAmount: string,
  quoteAmount: string,
  price: string,
  fee: string,
): BitstampRow {
  const [base, quote] = pair.split('_') as [string, string];
  return {
    ...zeros(),
    id,
    datetime: datetime(time),
    type: '2',
    fee,
    order_id: 900_000 + id,
    [base]: baseAmount,
    [quote]: quoteAmount,
    [pair]: price,
  };
}

export function bitstampWithdrawalRequest(
  id: number,
  currency: string,
  time: string,
  amount: string,
  txid: string,
): BitstampWithdrawalRequest {
  return {
    id,
    datetime: `${time.slice(0, 10)} ${time.slice(11, 19)}`,
    type: 1,
    currency,
    amount,
    status: 2,
    data: {},
    address: 'bc1qclientownwallet000000000000000000000000',
    transaction_id: txid,
    network: 'bitcoin',
  };
}

const MARKETS = [
  ['BTC', 'USD', 'Bitcoin / U.S. dollar'],
  ['ETH', 'USD', 'Ether / U.S. dollar'],
  ['ETH', 'BTC', 'Ether / Bitcoin'],
  ['BTC', 'EUR', 'Bitcoin / Euro'],
] as const;

export class FakeBitstamp {
  /** Private calls seen: path and form fields. */
  readonly requests: { path: string; params: Record<string, string> }[] = [];
  readonly faults: BitstampFault[] = [];
  readonly keys = new Map<string, string>();
  /** Keys without the permission to read transactions (No permission found). */
  readonly restricted = new Set<string>();
  rows: BitstampRow[] = [];
  withdrawalRequests: BitstampWithdrawalRequest[] = [];
  /** Currency (lower case) → total. */
  balances = new Map<string, string>();
  private readonly nonces = new Set<string>();
  private server?: Server;
  private host = '';

  constructor() {
    this.reset();
  }

  fail(fault: Omit<BitstampFault, 'remaining'> & { remaining?: number }): void {
    this.faults.push({ remaining: 1, ...fault });
  }

  reset(): void {
    this.requests.length = 0;
    this.faults.length = 0;
    this.keys.clear();
    this.keys.set(FAKE_BITSTAMP_KEY, FAKE_BITSTAMP_SECRET);
    this.restricted.clear();
    this.rows = [];
    this.withdrawalRequests = [];
    this.balances = new Map();
  }

  async start(): Promise<{ baseUrl: string; ca: string }> {
    const { key, cert } = localCertificate();
    this.server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () =>
        this.handle(
          req.method ?? 'GET',
          req.url ?? '/',
          req.headers,
          Buffer.concat(chunks).toString('utf8'),
          res,
        ),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return { baseUrl: `https://${this.host}`, ca: cert };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
    body: string,
    res: ServerResponse,
  ): void {
    const parsed = new URL(url, `https://${this.host}`);
    const path = parsed.pathname;
    const answer = (status: number, text: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(text);
    };
    const json = (value: unknown) => answer(200, JSON.stringify(value));
    const refuse = (reason: string, code: string) =>
      answer(403, JSON.stringify({ status: 'error', reason, code }));

    const fault = this.faults.find((f) => f.remaining > 0 && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      if (fault.hang) return;
      if (fault.status) return answer(fault.status, fault.body ?? '', 'text/plain');
      if (fault.body !== undefined) return answer(200, fault.body);
    }

    if (method === 'GET' && path === '/api/v2/markets/')
      return json(
        MARKETS.map(([base, quote, description]) => ({
          name: `${base}/${quote}`,
          market_symbol: `${base}${quote}`.toLowerCase(),
          base_currency: base,
          base_decimals: 8,
          counter_currency: quote,
          counter_decimals: quote === 'BTC' ? 8 : 2,
          minimum_order_value: quote === 'BTC' ? '0.0002' : '10',
          maximum_order_value: '1000000',
          minimum_order_amount: '0.00001',
          maximum_order_amount: '1000',
          trading: 'Enabled',
          instant_order_counter_decimals: 2,
          instant_and_market_orders: 'Enabled',
          description,
          market_type: 'SPOT',
        })),
      );
    if (method !== 'POST' || !path.startsWith('/api/v2/'))
      return answer(404, JSON.stringify({ status: 'error', reason: 'Not found', code: 'API0000' }));

    // Authentication (API v2).
    const xAuth = String(headers['x-auth'] ?? '');
    const nonce = String(headers['x-auth-nonce'] ?? '');
    const timestamp = String(headers['x-auth-timestamp'] ?? '');
    const version = String(headers['x-auth-version'] ?? '');
    const signature = String(headers['x-auth-signature'] ?? '');
    const contentType = body ? String(headers['content-type'] ?? '') : '';
    const apiKey = /^BITSTAMP (.+)$/.exec(xAuth)?.[1];
    if (!apiKey || !nonce || !timestamp || !signature || version !== 'v2')
      return refuse('Missing key, signature and nonce parameters', 'API0000');
    const secret = this.keys.get(apiKey);
    if (!secret) return refuse('API key not found', 'API0001');
    const message = `${xAuth}${method}${this.host}${path}${parsed.search.replace(/^\?/, '')}${contentType}${nonce}${timestamp}${version}${body}`;
    const expected = createHmac('sha256', secret).update(message).digest();
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return refuse('Invalid signature', 'API0005');
    if (nonce.length !== 36 || this.nonces.has(nonce) || Math.abs(Date.now() - Number(timestamp)) > 150_000)
      return refuse('Invalid nonce', 'API0004');
    this.nonces.add(nonce);
    if (this.restricted.has(apiKey) && path !== '/api/v2/account_balances/')
      return refuse('No permission found', 'API0002');
    const params = Object.fromEntries(new URLSearchParams(body));
    this.requests.push({ path, params });

    switch (path) {
      case '/api/v2/account_balances/':
        return json(
          [...this.balances].map(([currency, total]) => ({
            currency,
            total,
            available: total,
            reserved: '0.00000000',
          })),
        );
      case '/api/v2/user_transactions/': {
        const offset = Number(params['offset'] ?? 0);
        const limit = Number(params['limit'] ?? 100);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
          return answer(
            400,
            JSON.stringify({
              status: 'error',
              reason: { limit: ['Ensure this value is less than or equal to 1000.'] },
            }),
          );
        if (!Number.isInteger(offset) || offset < 0 || offset > 200_000)
          return answer(400, JSON.stringify({ status: 'error', reason: 'Invalid offset.' }));
        const sorted = [...this.rows].sort((a, b) =>
          params['sort'] === 'asc'
            ? String(a['datetime']).localeCompare(String(b['datetime']))
            : String(b['datetime']).localeCompare(String(a['datetime'])),
        );
        return json(sorted.slice(offset, offset + limit));
      }
      case '/api/v2/withdrawal-requests/': {
        const timedelta = Number(params['timedelta'] ?? 86_400);
        if (!Number.isInteger(timedelta) || timedelta < 0 || timedelta > 50_000_000)
          return answer(
            400,
            JSON.stringify({
              status: 'error',
              reason: { timedelta: ['Ensure this value is less than or equal to 50000000.'] },
            }),
          );
        const from = Date.now() - timedelta * 1000;
        return json(
          this.withdrawalRequests.filter((r) => Date.parse(`${r.datetime.replace(' ', 'T')}Z`) >= from),
        );
      }
      default:
        return answer(404, JSON.stringify({ status: 'error', reason: 'Not found', code: 'API0000' }));
    }
  }
}
