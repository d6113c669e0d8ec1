/**
 * A local stand-in for OKX's REST API v5 (node:http on 127.0.0.1), written from OKX's public
 * documentation (www.okx.com/docs-v5), for ccxt's real `okx` class pointed at it (EXCHANGE_API_URLS):
 *
 * - public `GET /api/v5/public/instruments?instType=SPOT` (FUTURES, SWAP, OPTION: none here);
 * - private, each authenticated as OKX's "REST Authentication" says: `OK-ACCESS-KEY`,
 *   `OK-ACCESS-PASSPHRASE`, `OK-ACCESS-TIMESTAMP` (ISO 8601 with milliseconds, within 30 s), and
 *   `OK-ACCESS-SIGN` = base64(HMAC-SHA256(secret, timestamp + method + requestPath with its query
 *   + body)). Refusals are OKX's bodies `{"code":…,"msg":…,"data":[]}`: 50111 invalid key, 50113
 *   invalid sign, 50105 wrong passphrase (HTTP 401), 50102 timestamp expired, 50011 too many
 *   requests (HTTP 429);
 *   - `GET /api/v5/asset/currencies` (ccxt's fetchCurrencies, with a key);
 *   - `GET /api/v5/account/balance` (trading account) and `/api/v5/asset/balances` (funding);
 *   - `GET /api/v5/trade/fills-history` (`instType`, `begin` ms, `after` = a billId: older rows;
 *     newest first, `limit` at most 100);
 *   - `GET /api/v5/asset/deposit-history`, `/api/v5/asset/withdrawal-history` (`before` / `after`
 *     in ms, newest first, `limit` at most 100; each with its chain `txId`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_OKX_KEY = '8f1d2e3c-0000-4000-8000-00000000a0b1';
export const FAKE_OKX_SECRET = 'F00DFACEF00DFACEF00DFACEF00DFACE';
export const FAKE_OKX_PASSPHRASE = 'Fake-Passphrase-1';

export interface OkxFill {
  instType: 'SPOT';
  instId: string;
  tradeId: string;
  ordId: string;
  clOrdId: string;
  billId: string;
  tag: string;
  fillPx: string;
  fillSz: string;
  side: 'buy' | 'sell';
  posSide: 'net';
  execType: 'T' | 'M';
  feeCcy: string;
  /** Negative: a charge. */
  fee: string;
  ts: string;
  fillTime: string;
}

export interface OkxDeposit {
  actualDepBlkConfirm: string;
  amt: string;
  areaCodeFrom: string;
  ccy: string;
  chain: string;
  depId: string;
  from: string;
  fromWdId: string;
  state: string;
  to: string;
  ts: string;
  txId: string;
}

export interface OkxWithdrawal {
  chain: string;
  fee: string;
  feeCcy: string;
  ccy: string;
  clientId: string;
  amt: string;
  txId: string;
  from: string;
  areaCodeFrom: string;
  to: string;
  areaCodeTo: string;
  state: string;
  ts: string;
  nonTradableAsset: boolean;
  wdId: string;
}

export interface OkxFault {
  path: RegExp;
  status?: number;
  body?: string;
  hang?: boolean;
  remaining: number;
}

const ms = (iso: string) => String(Date.parse(iso));

export function okxFill(
  billId: string,
  instId: string,
  side: 'buy' | 'sell',
  time: string,
  size: string,
  price: string,
  fee: string,
  feeCcy: string,
): OkxFill {
  return {
    instType: 'SPOT',
    instId,
    tradeId: `t${billId}`,
    ordId: `o${billId}`,
    clOrdId: '',
    billId,
    tag: '',
    fillPx: price,
    fillSz: size,
    side,
    posSide: 'net',
    execType: 'T',
    feeCcy,
    fee: fee === '0' ? '0' : `-${fee}`,
    ts: ms(time),
    fillTime: ms(time),
  };
}

export function okxDeposit(depId: string, ccy: string, time: string, amt: string, txId: string): OkxDeposit {
  return {
    actualDepBlkConfirm: '6',
    amt,
    areaCodeFrom: '',
    ccy,
    chain: ccy === 'USDT' ? 'USDT-ERC20' : `${ccy}-Bitcoin`,
    depId,
    from: '',
    fromWdId: '',
    state: '2',
    to: 'deposit-address',
    ts: ms(time),
    txId,
  };
}

export function okxWithdrawal(
  wdId: string,
  ccy: string,
  time: string,
  amt: string,
  fee: string,
  txId: string,
): OkxWithdrawal {
  return {
    chain: `${ccy}-Bitcoin`,
    fee,
    feeCcy: ccy,
    ccy,
    clientId: '',
    amt,
    txId,
    from: '',
    areaCodeFrom: '',
    to: 'bc1qclientownwallet000000000000000000000000',
    areaCodeTo: '',
    state: '2',
    ts: ms(time),
    nonTradableAsset: false,
    wdId,
  };
}

const INSTRUMENTS = [
  ['BTC-USDT', 'BTC', 'USDT', '0.1'],
  ['ETH-USDT', 'ETH', 'USDT', '0.01'],
  ['ETH-BTC', 'ETH', 'BTC', '0.00001'],
] as const;
const CURRENCIES = ['BTC', 'ETH', 'USDT'];

export class FakeOkx {
  readonly requests: { path: string; query: Record<string, string> }[] = [];
  readonly faults: OkxFault[] = [];
  /** key → secret and passphrase. */
  readonly keys = new Map<string, { secret: string; passphrase: string }>();
  fills: OkxFill[] = [];
  deposits: OkxDeposit[] = [];
  withdrawals: OkxWithdrawal[] = [];
  /** Trading account and funding account balances: currency → amount. */
  trading = new Map<string, string>();
  funding = new Map<string, string>();
  /** The most rows a page holds (OKX: 100); tests shrink it. */
  pageSize = 100;
  private server?: Server;

  constructor() {
    this.reset();
  }

  fail(fault: Omit<OkxFault, 'remaining'> & { remaining?: number }): void {
    this.faults.push({ remaining: 1, ...fault });
  }

  reset(): void {
    this.requests.length = 0;
    this.faults.length = 0;
    this.keys.clear();
    this.keys.set(FAKE_OKX_KEY, { secret: FAKE_OKX_SECRET, passphrase: FAKE_OKX_PASSPHRASE });
    this.fills = [];
    this.deposits = [];
    this.withdrawals = [];
    this.trading = new Map();
    this.funding = new Map();
    this.pageSize = 100;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
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
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
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
    const parsed = new URL(url, 'http://okx.invalid');
    const path = parsed.pathname;
    const query = Object.fromEntries(parsed.searchParams);
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    const ok = (data: unknown[]) => answer(200, JSON.stringify({ code: '0', msg: '', data }));
    const error = (status: number, code: string, msg: string) =>
      answer(status, JSON.stringify({ code, msg, data: [] }));

    const fault = this.faults.find((f) => f.remaining > 0 && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      if (fault.hang) return;
      if (fault.status === 429) return error(429, '50011', 'Too Many Requests');
      if (fault.status) return answer(fault.status, fault.body ?? '');
      if (fault.body !== undefined) return answer(200, fault.body);
    }

    if (method === 'GET' && path === '/api/v5/public/instruments') {
      if (query['instType'] !== 'SPOT') return ok([]);
      return ok(
        INSTRUMENTS.map(([instId, baseCcy, quoteCcy, tickSz]) => ({
          instType: 'SPOT',
          instId,
          uly: '',
          instFamily: '',
          baseCcy,
          quoteCcy,
          settleCcy: '',
          ctValCcy: '',
          optType: '',
          ctVal: '',
          ctMult: '',
          ctType: '',
          listTime: '1606468572000',
          expTime: '',
          lever: '10',
          tickSz,
          lotSz: '0.00000001',
          minSz: '0.00001',
          alias: '',
          state: 'live',
          maxLmtSz: '9999999999',
          maxMktSz: '1000000',
        })),
      );
    }

    // REST authentication.
    const apiKey = String(headers['ok-access-key'] ?? '');
    const timestamp = String(headers['ok-access-timestamp'] ?? '');
    const sign = String(headers['ok-access-sign'] ?? '');
    const passphrase = String(headers['ok-access-passphrase'] ?? '');
    const key = this.keys.get(apiKey);
    if (!key) return error(401, '50111', 'Invalid OK-ACCESS-KEY');
    const expected = createHmac('sha256', key.secret)
      .update(`${timestamp}${method}${parsed.pathname}${parsed.search}${body}`)
      .digest();
    const given = Buffer.from(sign, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return error(401, '50113', 'Invalid Sign');
    if (passphrase !== key.passphrase) return error(401, '50105', 'OK-ACCESS-PASSPHRASE incorrect');
    if (
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(timestamp) ||
      Math.abs(Date.now() - Date.parse(timestamp)) > 30_000
    )
      return error(401, '50102', 'Timestamp request expired');
    this.requests.push({ path, query });
    const limit = Math.min(Number(query['limit'] ?? 100), 100, this.pageSize);

    switch (path) {
      case '/api/v5/asset/currencies':
        return ok(
          CURRENCIES.map((ccy) => ({
            ccy,
            chain: `${ccy}-${ccy === 'USDT' ? 'ERC20' : ccy === 'BTC' ? 'Bitcoin' : 'ERC20'}`,
            name: ccy,
            canDep: true,
            canWd: true,
            canInternal: true,
            minDep: '0.00000001',
            minWd: '0.0001',
            maxWd: '1000',
            wdTickSz: '8',
            minFee: '0.0001',
            maxFee: '0.0002',
            mainNet: true,
            needTag: false,
            minDepArrivalConfirm: '1',
            minWdUnlockConfirm: '2',
            depQuotaFixed: '',
            usedDepQuotaFixed: '',
          })),
        );
      case '/api/v5/account/balance':
        return ok([
          {
            totalEq: '0',
            uTime: String(Date.now()),
            details: [...this.trading].map(([ccy, bal]) => ({
              ccy,
              eq: bal,
              cashBal: bal,
              availBal: bal,
              availEq: bal,
              frozenBal: '0',
              ordFrozen: '0',
              uTime: String(Date.now()),
            })),
          },
        ]);
      case '/api/v5/asset/balances':
        return ok([...this.funding].map(([ccy, bal]) => ({ ccy, bal, availBal: bal, frozenBal: '0' })));
      case '/api/v5/trade/fills-history': {
        if (query['instType'] !== 'SPOT') return error(400, '51000', 'Parameter instType error');
        const begin = query['begin'] ? Number(query['begin']) : -Infinity;
        const after = query['after'];
        const rows = this.fills
          .filter((f) => Number(f.ts) >= begin && (after === undefined || BigInt(f.billId) < BigInt(after)))
          .sort((a, b) => (BigInt(b.billId) > BigInt(a.billId) ? 1 : -1));
        return ok(rows.slice(0, limit));
      }
      case '/api/v5/asset/deposit-history':
      case '/api/v5/asset/withdrawal-history': {
        const before = query['before'] ? Number(query['before']) : -Infinity;
        const after = query['after'] ? Number(query['after']) : Infinity;
        const all: { ts: string }[] = path.endsWith('deposit-history') ? this.deposits : this.withdrawals;
        const rows = all
          .filter((r) => Number(r.ts) > before && Number(r.ts) < after)
          .sort((a, b) => Number(b.ts) - Number(a.ts));
        return ok(rows.slice(0, limit));
      }
      default:
        return error(404, '50000', 'Not found');
    }
  }
}
