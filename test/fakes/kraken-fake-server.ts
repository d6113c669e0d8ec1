/**
 * A local stand-in for Kraken's REST API (node:http on 127.0.0.1, random port), in the shape of
 * the real one, for ccxt pointed at it through `urls.api` (EXCHANGE_API_URLS):
 *
 * - public `GET /0/public/AssetPairs`, `/0/public/Assets`, `/0/public/Time` (what ccxt's
 *   loadMarkets reads);
 * - private `POST /0/private/Balance`, `/0/private/BalanceEx` (staking and earn wallets under their
 *   own codes: `ETH2.S`, `DOT.S`, `XBT.M`, `USDC.F`), `/0/private/TradesHistory`,
 *   `/0/private/Ledgers`, `/0/private/WithdrawStatus`, `/0/private/DepositStatus` (funding
 *   movements with their chain `txid`, a plain list, `start` exclusive, `asset` filter), form-encoded, each checked like Kraken does: a known `API-Key`, a
 *   `nonce`, and `API-Sign` = base64(HMAC-SHA512(path + SHA256(nonce + postdata), base64decode(secret))).
 *   A wrong key answers `EAPI:Invalid key`, a wrong signature `EAPI:Invalid signature`;
 * - history newest first, `start`/`end` (unix seconds, start exclusive) and `ofs` paging with
 *   `count`, `pageSize` rows a page (Kraken: 50).
 *
 * Scripted failures on a path, for the next N requests: an HTTP status (429), Kraken errors
 * (`EAPI:Rate limit exceeded`), a hang (no answer), or a malformed body.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_KRAKEN_KEY = 'fake-kraken-api-key';
/** A base64 secret, as Kraken issues them (64 bytes). */
export const FAKE_KRAKEN_SECRET = Buffer.alloc(64, 7).toString('base64');

export interface KrakenTrade {
  ordertxid: string;
  postxid: string;
  pair: string;
  time: number;
  type: 'buy' | 'sell';
  ordertype: string;
  price: string;
  cost: string;
  fee: string;
  vol: string;
  margin: string;
  misc: string;
}

export interface KrakenLedgerEntry {
  refid: string;
  time: number;
  /** Kraken's type: trade, deposit, withdrawal, transfer, staking, earn, … */
  type: string;
  /** e.g. `allocation`, `reward` (earn); `spottostaking`, `stakingfromspot` (transfer); '' for most. */
  subtype: string;
  aclass: string;
  /** Kraken's asset code, wallet suffix included: XETH, ETH2.S, DOT.S, XBT.M, USDC.F, ETH.B. */
  asset: string;
  /** Where the row is booked, where Kraken says it (`spot / main`, `earn / bonded`, …). */
  wallet?: string;
  amount: string;
  fee: string;
  balance: string;
}

/** A funding movement as WithdrawStatus / DepositStatus list it. */
export interface KrakenMovement {
  method: string;
  aclass: string;
  asset: string;
  /** The refid of its Ledgers row. */
  refid: string;
  txid: string;
  info: string;
  amount: string;
  fee: string;
  time: number;
  status: string;
}

export interface KrakenFault {
  path: RegExp;
  /** HTTP status to answer (e.g. 429, 503). */
  status?: number;
  /** Kraken `error` strings to answer with HTTP 200 (e.g. `EAPI:Rate limit exceeded`). */
  errors?: string[];
  /** A body to answer as is (e.g. malformed JSON). */
  body?: string;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
  remaining: number;
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/** A closed trade as TradesHistory lists it, under its trade id. */
export function krakenTrade(
  id: string,
  pair: string,
  type: 'buy' | 'sell',
  time: string,
  vol: string,
  price: string,
  cost: string,
  fee: string,
): [string, KrakenTrade] {
  return [
    id,
    {
      ordertxid: `O-${id}`,
      postxid: `P-${id}`,
      pair,
      time: seconds(time),
      type,
      ordertype: 'limit',
      price,
      cost,
      fee,
      vol,
      margin: '0',
      misc: '',
    },
  ];
}

/** A ledger row as Ledgers lists it, under its ledger id (`subtype`, `refid`, `wallet` when given). */
export function krakenEntry(
  id: string,
  type: string,
  asset: string,
  time: string,
  amount: string,
  fee = '0.0000000000',
  more: { subtype?: string; refid?: string; wallet?: string } = {},
): [string, KrakenLedgerEntry] {
  return [
    id,
    {
      refid: more.refid ?? `R-${id}`,
      time: seconds(time),
      type,
      subtype: more.subtype ?? '',
      aclass: 'currency',
      asset,
      ...(more.wallet ? { wallet: more.wallet } : {}),
      amount,
      fee,
      balance: '0',
    },
  ];
}

/** A Bitcoin withdrawal or deposit as WithdrawStatus / DepositStatus list it, for a ledger row's refid. */
export function krakenMovement(
  refid: string,
  asset: string,
  time: string,
  amount: string,
  fee: string,
  txid: string,
  info = 'bc1qexternal0000000000000000000000000000000',
): KrakenMovement {
  return {
    method: 'Bitcoin',
    aclass: 'currency',
    asset,
    refid,
    txid,
    info,
    amount,
    fee,
    time: seconds(time),
    status: 'Success',
  };
}

/**
 * A sample account, used by the connector spec and the e2e test: USD in, BTC and ETH bought, BTC
 * partly sold, BTC withdrawn with a fee in BTC, BTC deposited, DOT staking rewards. Kraken's
 * balances agree with it (USD 20,000 − 9,036 − 6,024 + 3,984 = 8,924; BTC 0.1 − 0.04 − 0.02 −
 * 0.0001 + 0.05 = 0.0899).
 */
export const KRAKEN_TRADES: ReadonlyMap<string, KrakenTrade> = new Map([
  krakenTrade('TA1', 'XXBTZUSD', 'buy', '2025-01-05T10:00:00Z', '0.1', '90000.0', '9000.0', '36.0'),
  krakenTrade('TA2', 'XETHZUSD', 'buy', '2025-01-06T10:00:00Z', '2.0', '3000.00', '6000.00', '24.00'),
  krakenTrade('TA3', 'XXBTZUSD', 'sell', '2025-02-01T10:00:00Z', '0.04', '100000.0', '4000.0', '16.0'),
]);
export const KRAKEN_LEDGER: ReadonlyMap<string, KrakenLedgerEntry> = new Map([
  krakenEntry('LA1', 'deposit', 'ZUSD', '2025-01-02T09:00:00Z', '20000.0000'),
  krakenEntry('LA3', 'trade', 'XXBT', '2025-01-05T10:00:00Z', '0.1000000000'),
  krakenEntry('LA4', 'trade', 'XETH', '2025-01-06T10:00:00Z', '2.0000000000'),
  krakenEntry('LA5', 'trade', 'XXBT', '2025-02-01T10:00:00Z', '-0.0400000000'),
  krakenEntry('LA6', 'withdrawal', 'XXBT', '2025-02-10T12:00:00Z', '-0.0200000000', '0.0001000000'),
  krakenEntry('LA2', 'deposit', 'XXBT', '2025-02-12T09:00:00Z', '0.0500000000'),
  krakenEntry('LA7', 'staking', 'DOT', '2025-02-15T00:00:00Z', '1.5000000000'),
]);
export const KRAKEN_BALANCES: ReadonlyMap<string, string> = new Map([
  ['ZUSD', '8924.0000'],
  ['XXBT', '0.0899000000'],
  ['XETH', '2.0000000000'],
  ['DOT', '1.5000000000'],
]);

const PAIRS = {
  XXBTZUSD: { altname: 'XBTUSD', wsname: 'XBT/USD', base: 'XXBT', quote: 'ZUSD', pair_decimals: 1 },
  XETHZUSD: { altname: 'ETHUSD', wsname: 'ETH/USD', base: 'XETH', quote: 'ZUSD', pair_decimals: 2 },
  XETHXXBT: { altname: 'ETHXBT', wsname: 'ETH/XBT', base: 'XETH', quote: 'XXBT', pair_decimals: 5 },
  DOTUSD: { altname: 'DOTUSD', wsname: 'DOT/USD', base: 'DOT', quote: 'ZUSD', pair_decimals: 4 },
};

const asset = (altname: string, decimals = 10) => ({
  aclass: 'currency',
  altname,
  decimals,
  display_decimals: Math.min(decimals, 8),
  status: 'enabled',
});
/**
 * Assets as Kraken lists them: the spot codes, and the read-only staking and earn variants that
 * appear in Ledgers and BalanceEx (their altname is their id: `ETH2.S`, `DOT.S`, `XBT.M`, …).
 */
const ASSETS = {
  XXBT: asset('XBT'),
  XETH: asset('ETH'),
  ZUSD: asset('USD', 4),
  DOT: asset('DOT'),
  ETH2: asset('ETH2'),
  'ETH2.S': asset('ETH2.S'),
  'ETH.B': asset('ETH.B'),
  'DOT.S': asset('DOT.S'),
  'DOT28.S': asset('DOT28.S'),
  'XBT.M': asset('XBT.M'),
  'USDC.F': asset('USDC.F', 8),
  USDC: asset('USDC', 8),
  NEWCOIN: asset('NEWCOIN'),
};

export class FakeKraken {
  /** Private calls seen: path and form fields (the nonce dropped). */
  readonly requests: { path: string; params: Record<string, string> }[] = [];
  readonly faults: KrakenFault[] = [];
  /** API key → base64 secret. */
  readonly keys = new Map<string, string>([[FAKE_KRAKEN_KEY, FAKE_KRAKEN_SECRET]]);
  trades = new Map<string, KrakenTrade>();
  ledger = new Map<string, KrakenLedgerEntry>();
  /** Kraken asset id → balance text. */
  balances = new Map<string, string>();
  withdrawals: KrakenMovement[] = [];
  deposits: KrakenMovement[] = [];
  pageSize = 50;
  private server?: Server;

  fail(fault: Omit<KrakenFault, 'remaining'> & { remaining?: number }): void {
    this.faults.push({ remaining: 1, ...fault });
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
    headers: Record<string, string | string[] | undefined>,
    body: string,
    res: import('node:http').ServerResponse,
  ): void {
    const path = url.split('?')[0]!;
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    const ok = (result: unknown) => answer(200, JSON.stringify({ error: [], result }));
    const errors = (...list: string[]) => answer(200, JSON.stringify({ error: list }));

    const fault = this.faults.find((f) => f.remaining > 0 && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      if (fault.hang) return; // the socket stays open until the client gives up
      if (fault.status)
        return answer(fault.status, fault.body ?? JSON.stringify({ error: ['EGeneral:Too many requests'] }));
      if (fault.errors) return errors(...fault.errors);
      if (fault.body !== undefined) return answer(200, fault.body);
    }

    if (method === 'GET' && path === '/0/public/Time')
      return ok({ unixtime: Math.floor(Date.now() / 1000), rfc1123: new Date().toUTCString() });
    if (method === 'GET' && path === '/0/public/AssetPairs') {
      const pairs = Object.fromEntries(
        Object.entries(PAIRS).map(([id, p]) => [
          id,
          {
            ...p,
            aclass_base: 'currency',
            aclass_quote: 'currency',
            lot: 'unit',
            lot_decimals: 8,
            lot_multiplier: 1,
            leverage_buy: [],
            leverage_sell: [],
            fees: [[0, 0.4]],
            fees_maker: [[0, 0.25]],
            fee_volume_currency: 'ZUSD',
            margin_call: 80,
            margin_stop: 40,
            ordermin: '0.0001',
            costmin: '0.5',
            status: 'online',
          },
        ]),
      );
      return ok(pairs);
    }
    if (method === 'GET' && path === '/0/public/Assets') return ok(ASSETS);

    const priv = /^\/0\/private\/(\w+)$/.exec(path);
    if (method !== 'POST' || !priv)
      return answer(404, JSON.stringify({ error: ['EGeneral:Unknown method'] }));
    const params = Object.fromEntries(new URLSearchParams(body));
    const apiKey = String(headers['api-key'] ?? '');
    const secret = this.keys.get(apiKey);
    if (!secret) return errors('EAPI:Invalid key');
    const nonce = params['nonce'];
    if (!nonce || !/^\d+$/.test(nonce)) return errors('EAPI:Invalid nonce');
    const expected = createHmac('sha512', Buffer.from(secret, 'base64'))
      .update(
        Buffer.concat([
          Buffer.from(path),
          createHash('sha256')
            .update(nonce + body)
            .digest(),
        ]),
      )
      .digest();
    const given = Buffer.from(String(headers['api-sign'] ?? ''), 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return errors('EAPI:Invalid signature');
    const { nonce: _nonce, ...rest } = params;
    this.requests.push({ path, params: rest });

    switch (priv[1]) {
      case 'Balance':
        return ok(Object.fromEntries(this.balances));
      case 'BalanceEx':
        // Kraken's extended balance: one entry per asset code, each wallet (ETH2.S, DOT.S, USDC.F)
        // under its own code, apart from the spot code (XETH, DOT, USDC).
        return ok(
          Object.fromEntries(
            [...this.balances].map(([asset, balance]) => [
              asset,
              { balance, hold_trade: '0', credit: '0', credit_used: '0' },
            ]),
          ),
        );
      case 'TradesHistory': {
        const { page, count } = this.page(this.trades, params);
        return ok({ trades: page, count });
      }
      case 'Ledgers': {
        const { page, count } = this.page(this.ledger, params);
        return ok({ ledger: page, count });
      }
      case 'WithdrawStatus':
        return ok(this.movements(this.withdrawals, params));
      case 'DepositStatus':
        return ok(this.movements(this.deposits, params));
      default:
        return errors('EGeneral:Unknown method');
    }
  }

  /** Newest first, `start` exclusive (unix seconds), of one `asset` when asked. */
  private movements(rows: readonly KrakenMovement[], params: Record<string, string>): KrakenMovement[] {
    const start = params['start'] !== undefined ? Number(params['start']) : Number.NEGATIVE_INFINITY;
    return rows
      .filter((row) => row.time > start && (params['asset'] === undefined || row.asset === params['asset']))
      .sort((a, b) => b.time - a.time);
  }

  /** Newest first, `start` exclusive and `end` inclusive (unix seconds), `ofs` rows skipped. */
  private page<T extends { time: number }>(
    rows: Map<string, T>,
    params: Record<string, string>,
  ): { page: Record<string, T>; count: number } {
    const start = params['start'] !== undefined ? Number(params['start']) : Number.NEGATIVE_INFINITY;
    const end = params['end'] !== undefined ? Number(params['end']) : Number.POSITIVE_INFINITY;
    const matching = [...rows]
      .filter(([, row]) => row.time > start && row.time <= end)
      .sort((a, b) => b[1].time - a[1].time);
    const ofs = Number(params['ofs'] ?? 0);
    return { page: Object.fromEntries(matching.slice(ofs, ofs + this.pageSize)), count: matching.length };
  }
}
