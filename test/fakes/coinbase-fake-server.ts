/**
 * A local stand-in for Coinbase's APIs over HTTPS (node:https on 127.0.0.1 with a certificate made
 * in memory, test/fakes/local-tls.ts), written from Coinbase's public documentation (CDP "Advanced
 * Trade API" and "Coinbase App" Track APIs), for ccxt's real `coinbase` class pointed at it
 * through `urls.api` and told to trust the certificate:
 *
 * - public: `GET /v2/currencies`, `/v2/currencies/crypto`, `/v2/exchange-rates`,
 *   `/api/v3/brokerage/market/products` (`product_type=FUTURE` lists none): what loadMarkets reads;
 * - private, each with `Authorization: Bearer <JWT>` as the CDP "API key authentication" page says:
 *   ES256 over the header and claims with the key's EC P-256 private key; `kid` and `sub` the key
 *   name (`organizations/{org}/apiKeys/{key}`), `nbf` ≤ now < `exp` (two minutes), and `uri` =
 *   "<METHOD> <host><path>" of this very request (no query). A bad token or an unknown or revoked
 *   key answers 401 `Unauthorized`; a key without the view permission 403 `PERMISSION_DENIED`;
 *   - `GET /api/v3/brokerage/transaction_summary` (fee tier, read by loadMarkets with a key);
 *   - `GET /api/v3/brokerage/accounts` (`limit`, default 49, max 250; `cursor`; `has_next`);
 *   - `GET /api/v3/brokerage/orders/historical/fills` (`start_sequence_timestamp`, `limit`,
 *     `cursor`; newest first; the last page's `cursor` is empty);
 *   - `GET /v2/accounts/{account_id}/transactions` (newest first, `limit` default 25, max 100,
 *     `starting_after`; `pagination.next_starting_after` null on the last page): sends with their
 *     `network` (hash, transaction_fee, transaction_amount), staking rewards, fills, fiat deposits.
 *
 * Scripted failures on a path for the next N requests: an HTTP status with a body, a hang, or a
 * malformed body.
 */
import { createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { localCertificate } from './local-tls.js';

/** A CDP API key: its name, and its EC private key as Coinbase hands it out (SEC1 PEM). */
export function cdpKey(id: string): { name: string; privateKey: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    name: `organizations/0f0e0d0c-0000-4000-8000-00000000c0de/apiKeys/${id}`,
    privateKey: privateKey.export({ type: 'sec1', format: 'pem' }) as string,
    publicKey,
  };
}

export const FAKE_COINBASE_KEY = cdpKey('5e2f8a5a-1111-4000-8000-000000000001');

export interface CoinbaseAccount {
  uuid: string;
  name: string;
  currency: string;
  available_balance: { value: string; currency: string };
  default: boolean;
  active: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: null;
  type: 'ACCOUNT_TYPE_CRYPTO' | 'ACCOUNT_TYPE_FIAT';
  ready: boolean;
  hold: { value: string; currency: string };
}

export interface CoinbaseFill {
  entry_id: string;
  trade_id: string;
  order_id: string;
  trade_time: string;
  trade_type: 'FILL';
  price: string;
  size: string;
  commission: string;
  product_id: string;
  sequence_timestamp: string;
  liquidity_indicator: 'TAKER' | 'MAKER';
  size_in_quote: boolean;
  user_id: string;
  side: 'BUY' | 'SELL';
  retail_portfolio_id: string;
}

/** A v2 transaction of one account (wallet). */
export interface CoinbaseTransaction {
  id: string;
  type: string;
  status: 'completed' | 'pending' | 'failed';
  amount: { amount: string; currency: string };
  native_amount: { amount: string; currency: string };
  description: null;
  created_at: string;
  updated_at: string;
  resource: 'transaction';
  resource_path: string;
  instant_exchange: false;
  network?: {
    status: string;
    hash?: string;
    name?: string;
    transaction_fee?: { amount: string; currency: string };
    transaction_amount?: { amount: string; currency: string };
  };
  details?: { title: string; subtitle: string };
  /** A Convert's half: the trade both halves name. */
  trade?: { id: string; resource: 'trade'; resource_path: string };
}

export interface CoinbaseFault {
  path: RegExp;
  status?: number;
  body?: string;
  hang?: boolean;
  remaining: number;
}

const PRODUCTS = [
  ['BTC-USD', 'BTC', 'USD', '0.00000001', '0.01'],
  ['ETH-USD', 'ETH', 'USD', '0.00000001', '0.01'],
  ['ETH-BTC', 'ETH', 'BTC', '0.00000001', '0.00001'],
  ['DOGE-USD', 'DOGE', 'USD', '0.1', '0.00001'],
] as const;
const CRYPTO = [
  ['BTC', 'Bitcoin', 8],
  ['ETH', 'Ethereum', 18],
  ['DOGE', 'Dogecoin', 8],
  ['USDC', 'USDC', 6],
] as const;

export function coinbaseAccount(
  currency: string,
  value: string,
  uuid = `acct-${currency.toLowerCase()}`,
): CoinbaseAccount {
  return {
    uuid,
    name: `${currency} Wallet`,
    currency,
    available_balance: { value, currency },
    default: true,
    active: true,
    created_at: '2024-12-01T00:00:00.000Z',
    updated_at: '2025-03-01T00:00:00.000Z',
    deleted_at: null,
    type: currency === 'USD' ? 'ACCOUNT_TYPE_FIAT' : 'ACCOUNT_TYPE_CRYPTO',
    ready: true,
    hold: { value: '0', currency },
  };
}

export function coinbaseFill(
  tradeId: string,
  productId: string,
  side: 'BUY' | 'SELL',
  time: string,
  size: string,
  price: string,
  commission: string,
): CoinbaseFill {
  return {
    entry_id: `entry-${tradeId}`,
    trade_id: tradeId,
    order_id: `order-${tradeId}`,
    trade_time: time,
    trade_type: 'FILL',
    price,
    size,
    commission,
    product_id: productId,
    sequence_timestamp: time,
    liquidity_indicator: 'TAKER',
    size_in_quote: false,
    user_id: 'user-1',
    side,
    retail_portfolio_id: 'portfolio-1',
  };
}

export function coinbaseTransaction(
  accountUuid: string,
  id: string,
  type: string,
  currency: string,
  time: string,
  amount: string,
  more: Partial<CoinbaseTransaction> = {},
): CoinbaseTransaction {
  return {
    id,
    type,
    status: 'completed',
    amount: { amount, currency },
    native_amount: { amount: '0.00', currency: 'USD' },
    description: null,
    created_at: time,
    updated_at: time,
    resource: 'transaction',
    resource_path: `/v2/accounts/${accountUuid}/transactions/${id}`,
    instant_exchange: false,
    ...more,
  };
}

const b64url = (text: string) => Buffer.from(text, 'base64url');

export class FakeCoinbase {
  /** Private calls seen: method, path and query. */
  readonly requests: { method: string; path: string; query: Record<string, string> }[] = [];
  readonly faults: CoinbaseFault[] = [];
  /** Key name → public key. */
  readonly keys = new Map<string, KeyObject>();
  /** Keys without the view permission (403 PERMISSION_DENIED). */
  readonly viewless = new Set<string>();
  accounts: CoinbaseAccount[] = [];
  fills: CoinbaseFill[] = [];
  /** Account uuid → its v2 transactions. */
  transactions = new Map<string, CoinbaseTransaction[]>();
  /** The most rows a page holds (Coinbase: 250 accounts, 100 transactions, fills as asked); tests shrink them. */
  pageSize = 250;
  /** JWT `uri` claims seen (each checked against the request). */
  readonly uris: string[] = [];
  private server?: Server;
  private host = '';

  constructor() {
    this.reset();
  }

  fail(fault: Omit<CoinbaseFault, 'remaining'> & { remaining?: number }): void {
    this.faults.push({ remaining: 1, ...fault });
  }

  reset(): void {
    this.requests.length = 0;
    this.faults.length = 0;
    this.uris.length = 0;
    this.keys.clear();
    this.keys.set(FAKE_COINBASE_KEY.name, createPublicKey(FAKE_COINBASE_KEY.privateKey));
    this.viewless.clear();
    this.accounts = [];
    this.fills = [];
    this.transactions = new Map();
    this.pageSize = 250;
  }

  /** Starts on 127.0.0.1; answers the base URL (https) and the certificate to trust. */
  async start(): Promise<{ baseUrl: string; ca: string }> {
    const { key, cert } = localCertificate();
    this.server = createServer({ key, cert }, (req, res) => {
      req.resume();
      req.on('end', () => this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return { baseUrl: `https://${this.host}`, ca: cert };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(method: string, url: string, headers: IncomingHttpHeaders, res: ServerResponse): void {
    const parsed = new URL(url, `https://${this.host}`);
    const path = parsed.pathname;
    const query = Object.fromEntries(parsed.searchParams);
    const answer = (status: number, text: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(text);
    };
    const json = (value: unknown) => answer(200, JSON.stringify(value));

    const fault = this.faults.find((f) => f.remaining > 0 && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      if (fault.hang) return;
      if (fault.status) return answer(fault.status, fault.body ?? '');
      if (fault.body !== undefined) return answer(200, fault.body);
    }

    if (method === 'GET' && path === '/v2/currencies')
      return json({ data: [{ id: 'USD', name: 'US Dollar', min_size: '0.01' }] });
    if (method === 'GET' && path === '/v2/currencies/crypto')
      return json({
        data: CRYPTO.map(([code, name, exponent], i) => ({
          asset_id: `00000000-0000-4000-8000-00000000000${i}`,
          code,
          name,
          color: '#000000',
          sort_index: i,
          exponent,
          type: 'crypto',
          address_regex: '.*',
        })),
      });
    if (method === 'GET' && path === '/v2/exchange-rates')
      return json({
        data: { currency: 'USD', rates: { BTC: '0.0000105', ETH: '0.00033', DOGE: '5', USDC: '1' } },
      });
    if (method === 'GET' && path === '/api/v3/brokerage/market/products') {
      if (query['product_type'] === 'FUTURE') return json({ products: [], num_products: 0 });
      return json({
        products: PRODUCTS.map(([id, base, quote, baseIncrement, quoteIncrement]) => ({
          product_id: id,
          price: '1',
          base_increment: baseIncrement,
          quote_increment: quoteIncrement,
          quote_min_size: '1',
          quote_max_size: '10000000',
          base_min_size: '0',
          base_max_size: '100000',
          base_name: base,
          quote_name: quote,
          status: 'online',
          trading_disabled: false,
          product_type: 'SPOT',
          quote_currency_id: quote,
          base_currency_id: base,
          alias_to: [],
        })),
        num_products: PRODUCTS.length,
      });
    }

    // Private: the JWT of this request.
    const refused = this.refusal(method, path, String(headers['authorization'] ?? ''));
    if (refused === 'unauthorized') return answer(401, 'Unauthorized\n', 'text/plain');
    if (refused === 'forbidden')
      return answer(
        403,
        JSON.stringify({
          error: 'PERMISSION_DENIED',
          error_details: 'Missing required scopes',
          message: 'Missing required scopes',
        }),
      );
    this.requests.push({ method, path, query });
    const limit = (fallback: number, max: number) =>
      Math.min(Number(query['limit'] ?? fallback), max, this.pageSize);

    if (method === 'GET' && path === '/api/v3/brokerage/transaction_summary')
      return json({
        total_volume: 0,
        total_fees: 0,
        fee_tier: {
          pricing_tier: 'Advanced 1',
          usd_from: '0',
          usd_to: '1000',
          taker_fee_rate: '0.006',
          maker_fee_rate: '0.004',
        },
      });
    if (method === 'GET' && path === '/api/v3/brokerage/accounts') {
      const start = Number(query['cursor'] ?? 0);
      const size = limit(49, 250);
      const page = this.accounts.slice(start, start + size);
      const hasNext = start + size < this.accounts.length;
      return json({
        accounts: page,
        has_next: hasNext,
        cursor: hasNext ? String(start + size) : '',
        size: page.length,
      });
    }
    if (method === 'GET' && path === '/api/v3/brokerage/orders/historical/fills') {
      const from = query['start_sequence_timestamp']
        ? Date.parse(query['start_sequence_timestamp'])
        : -Infinity;
      const matching = this.fills
        .filter((f) => Date.parse(f.sequence_timestamp) >= from)
        .filter((f) => !query['product_id'] || f.product_id === query['product_id'])
        .sort((a, b) => Date.parse(b.sequence_timestamp) - Date.parse(a.sequence_timestamp));
      const start = Number(query['cursor'] ?? 0);
      const size = limit(100, 1000);
      const page = matching.slice(start, start + size);
      return json({ fills: page, cursor: start + size < matching.length ? String(start + size) : '' });
    }
    const transactions = /^\/v2\/accounts\/([^/]+)\/transactions$/.exec(path);
    if (method === 'GET' && transactions) {
      const uuid = transactions[1]!;
      if (!this.accounts.some((a) => a.uuid === uuid))
        return answer(404, JSON.stringify({ errors: [{ id: 'not_found', message: 'Not found' }] }));
      const all = [...(this.transactions.get(uuid) ?? [])].sort(
        (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
      );
      const after = query['starting_after'];
      const start = after ? all.findIndex((t) => t.id === after) + 1 : 0;
      const size = limit(25, 100);
      const page = all.slice(start, start + size);
      const next = start + size < all.length ? page[page.length - 1]!.id : null;
      return json({
        pagination: {
          ending_before: null,
          starting_after: after ?? null,
          previous_ending_before: null,
          next_starting_after: next,
          limit: size,
          order: 'desc',
          previous_uri: null,
          next_uri: next ? `/v2/accounts/${uuid}/transactions?starting_after=${next}` : null,
        },
        data: page,
      });
    }
    return answer(404, JSON.stringify({ errors: [{ id: 'not_found', message: 'Not found' }] }));
  }

  /** Why a private request is refused, if it is: the JWT checked as Coinbase documents it. */
  private refusal(method: string, path: string, authorization: string): 'unauthorized' | 'forbidden' | null {
    const token = /^Bearer (.+)$/.exec(authorization)?.[1];
    if (!token) return 'unauthorized';
    const [head, body, signature] = token.split('.');
    if (!head || !body || !signature) return 'unauthorized';
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(b64url(head).toString('utf8')) as Record<string, unknown>;
      claims = JSON.parse(b64url(body).toString('utf8')) as Record<string, unknown>;
    } catch {
      return 'unauthorized';
    }
    if (header['alg'] !== 'ES256' || typeof header['kid'] !== 'string') return 'unauthorized';
    const publicKey = this.keys.get(header['kid']);
    if (!publicKey || claims['sub'] !== header['kid']) return 'unauthorized';
    const signed = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      b64url(signature),
    );
    if (!signed) return 'unauthorized';
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims['nbf'] !== 'number' || typeof claims['exp'] !== 'number') return 'unauthorized';
    if (claims['nbf'] > now + 5 || claims['exp'] <= now) return 'unauthorized';
    this.uris.push(String(claims['uri']));
    if (claims['uri'] !== `${method} ${this.host}${path}`) return 'unauthorized';
    if (this.viewless.has(header['kid'])) return 'forbidden';
    return null;
  }
}
