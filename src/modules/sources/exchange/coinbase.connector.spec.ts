/**
 * The exchange connector running ccxt's real `coinbase` class (Advanced Trade, CDP keys) against a
 * local fake Coinbase over HTTPS (test/fakes/coinbase-fake-server.ts) that verifies each private
 * request's ES256 JWT and its `uri` claim: balances and accounts over cursor pages, fills over
 * cursor pages, the v2 transactions of every wallet (a staking reward, a withdrawal to the
 * client's own wallet with its chain hash and network fee, fills Coinbase lists there too), a
 * crypto-for-crypto fill, an incremental sync, and the failures the refresh engine tells apart.
 */
import {
  cdpKey,
  coinbaseAccount as account,
  coinbaseFill as fill,
  coinbaseTransaction as tx,
  FAKE_COINBASE_KEY,
  FakeCoinbase,
} from '../../../../test/fakes/coinbase-fake-server.js';
import {
  asLedger,
  exchangeRequest,
  legsOf,
  tablePrices,
} from '../../../../test/fakes/exchange-spec-support.js';
import { computeCostBasis } from '../../../domain/cost-basis/index.js';
import type { LedgerEntry } from '../../../domain/cost-basis/cost-basis.types.js';
import {
  SourceAuthorizationError,
  SourceUnavailableError,
  type ConnectorRequest,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import { ExchangeConnector, INCREMENTAL_OVERLAP_MS } from './exchange.connector.js';

const PRICES: Record<string, string> = {
  'BTC 2025-02-10': '95000',
  'ETH 2025-02-15': '2700',
  'BTC 2025-02-20': '96000',
};
const prices = tablePrices(PRICES, ['BTC', 'ETH', 'DOGE', 'USDC']);

const OUT_HASH = 'ab'.repeat(32);

/**
 * A sample account: 20,000 USD in, BTC and ETH bought on Advanced Trade, 0.5 ETH sold for BTC on
 * ETH-BTC, an ETH staking reward, BTC sent to the client's own wallet (0.0201 left the wallet:
 * 0.02 on chain and a 0.0001 network fee). Coinbase's balances agree: USD 20,000 − (9,000 + 36) −
 * (6,000 + 24) = 4,940; BTC 0.1 − 0.0201 + 0.015 − 0.00004 = 0.09486; ETH 2 − 0.5 + 0.01 = 1.51;
 * DOGE and USDC wallets empty (Coinbase lists them anyway).
 */
function sampleAccount(coinbase: FakeCoinbase): void {
  coinbase.accounts = [
    account('USD', '4940.00'),
    account('BTC', '0.09486'),
    account('ETH', '1.51'),
    account('DOGE', '0'),
    account('USDC', '0'),
  ];
  coinbase.fills = [
    fill('F1', 'BTC-USD', 'BUY', '2025-01-05T10:00:00Z', '0.1', '90000', '36'),
    fill('F2', 'ETH-USD', 'BUY', '2025-01-06T10:00:00Z', '2', '3000', '24'),
    fill('F3', 'ETH-BTC', 'SELL', '2025-02-20T08:00:00Z', '0.5', '0.03', '0.00004'),
  ];
  coinbase.transactions = new Map([
    [
      'acct-usd',
      [
        tx('acct-usd', 'D1', 'fiat_deposit', 'USD', '2025-01-02T09:00:00Z', '20000.00'),
        tx('acct-usd', 'A1', 'advanced_trade_fill', 'USD', '2025-01-05T10:00:00Z', '-9036.00'),
        tx('acct-usd', 'A2', 'advanced_trade_fill', 'USD', '2025-01-06T10:00:00Z', '-6024.00'),
      ],
    ],
    [
      'acct-btc',
      [
        tx('acct-btc', 'A3', 'advanced_trade_fill', 'BTC', '2025-01-05T10:00:00Z', '0.1'),
        tx('acct-btc', 'W1', 'send', 'BTC', '2025-02-10T12:00:00Z', '-0.0201', {
          network: {
            status: 'confirmed',
            hash: OUT_HASH,
            name: 'bitcoin',
            transaction_fee: { amount: '0.0001', currency: 'BTC' },
            transaction_amount: { amount: '0.02', currency: 'BTC' },
          },
          details: { title: 'Sent Bitcoin', subtitle: 'To Bitcoin address' },
        }),
        tx('acct-btc', 'A4', 'advanced_trade_fill', 'BTC', '2025-02-20T08:00:00Z', '0.01496'),
      ],
    ],
    [
      'acct-eth',
      [
        tx('acct-eth', 'A5', 'advanced_trade_fill', 'ETH', '2025-01-06T10:00:00Z', '2'),
        tx('acct-eth', 'S1', 'staking_reward', 'ETH', '2025-02-15T00:00:00Z', '0.01'),
        tx('acct-eth', 'A6', 'advanced_trade_fill', 'ETH', '2025-02-20T08:00:00Z', '-0.5'),
      ],
    ],
  ]);
}

describe('ExchangeConnector (ccxt) against a fake Coinbase (HTTPS, CDP JWT)', () => {
  const coinbase = new FakeCoinbase();
  let baseUrl: string;
  let ca: string;
  beforeAll(async () => {
    ({ baseUrl, ca } = await coinbase.start());
  });
  afterAll(() => coinbase.stop());
  beforeEach(() => {
    coinbase.reset();
    sampleAccount(coinbase);
  });

  const connector = (requestTimeoutMs = 5_000) =>
    new ExchangeConnector(prices, {
      requestTimeoutMs,
      apiUrls: { coinbase: baseUrl },
      rateLimitMs: 1,
      trustedCa: ca,
    });
  const request = (
    options: { lastSyncedAt?: Date | null; credentials?: Record<string, string> } = {},
  ): ConnectorRequest =>
    exchangeRequest({
      id: '00000000-0000-4000-8000-000000000021',
      platform: 'coinbase',
      credentials: options.credentials ?? {
        apiKey: FAKE_COINBASE_KEY.name,
        secret: FAKE_COINBASE_KEY.privateKey,
      },
      lastSyncedAt: options.lastSyncedAt,
    });
  const rows = (legs: readonly SourceTransaction[]) =>
    legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd, t.feeUsd]);

  it('a full first sync over cursor pages: fills, accounts, every wallet’s transactions; the ETH-BTC fill in two legs, the staking reward income, the send a transfer leg with its hash and its network fee a fee', async () => {
    coinbase.pageSize = 2;
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('full');
    const legs = await legsOf(result);
    expect(rows(legs)).toEqual([
      // The USD deposit is money; the v2 advanced_trade_fill rows are the fills again: left out.
      ['trade:F1:BTC', 'buy', 'BTC', '0.1', '90000', '36'],
      ['trade:F2:ETH', 'buy', 'ETH', '2', '3000', '24'],
      // 0.0201 left the wallet: 0.02 reached the chain (the transfer), 0.0001 paid the network
      // (a fee: a disposal at the day's 95,000).
      ['ledger:W1', 'transfer_out', 'BTC', '0.02', null, null],
      ['ledger:W1:fee', 'fee', 'BTC', '0.0001', '95000', null],
      ['ledger:S1', 'income', 'ETH', '0.01', '2700', null],
      // 0.5 ETH sold at 0.03 BTC, BTC 96,000 that day: ETH at 2,880, 0.015 BTC bought at 96,000;
      // the commission (in the quote, BTC) a fee.
      ['trade:F3:BTC', 'buy', 'BTC', '0.015', '96000', null],
      ['trade:F3:ETH', 'sell', 'ETH', '0.5', '2880', null],
      ['trade:F3:fee', 'fee', 'BTC', '0.00004', '96000', null],
    ]);
    expect(legs.find((t) => t.transactionId === 'ledger:W1')!.transferId).toBe(`chain:${OUT_HASH}`);
    expect(result.reportedBalances).toEqual(
      new Map([
        ['BTC', '0.09486'],
        ['ETH', '1.51'],
      ]),
    );
    // Two rows a page: 5 accounts in 3 pages (balances, then accounts), each wallet's transactions
    // (3 rows: 2 pages; the empty DOGE and USDC wallets 1 each), the fills in 2 pages.
    const paths = coinbase.requests
      .filter((r) => r.path !== '/api/v3/brokerage/transaction_summary')
      .map(
        (r) =>
          `${r.path.replace('/api/v3/brokerage/', '').replace(/\/transactions$/, '')} ${r.query['cursor'] ?? r.query['starting_after'] ?? '-'}`,
      );
    expect(paths).toEqual([
      'accounts -',
      'accounts 2',
      'accounts 4',
      'accounts -',
      'accounts 2',
      'accounts 4',
      '/v2/accounts/acct-usd -',
      '/v2/accounts/acct-usd A1',
      '/v2/accounts/acct-btc -',
      '/v2/accounts/acct-btc W1',
      '/v2/accounts/acct-eth -',
      '/v2/accounts/acct-eth S1',
      '/v2/accounts/acct-doge -',
      '/v2/accounts/acct-usdc -',
      'orders/historical/fills -',
      'orders/historical/fills 2',
    ]);
    // Every JWT named this very request: "GET 127.0.0.1:<port>/path", as Coinbase requires.
    expect(coinbase.uris.every((uri) => /^GET 127\.0\.0\.1:\d+\/(api\/v3|v2)\//.test(uri))).toBe(true);
  });

  it('the withdrawal to the client’s own wallet carries its basis there', async () => {
    const legs = await legsOf(await connector().fetch(request()));
    const ledger: LedgerEntry[] = asLedger('coinbase', legs);
    ledger.push({
      accountId: 'wallet',
      transactionId: `${OUT_HASH}:deposit`,
      symbol: 'BTC',
      direction: 'transfer_in',
      amount: '0.02',
      priceUsd: '0',
      timestamp: new Date('2025-02-10T12:30:00Z'),
      transferId: `chain:${OUT_HASH}`,
    });
    const result = computeCostBasis(ledger, { method: 'fifo' });
    // The 0.1 BTC lot cost 9,036: 90,360 a BTC. The network fee disposes of 0.0001 (basis 9.036,
    // proceeds 9.5, gain 0.464); the 0.02 sent keep 0.02 × 90,360 = 1,807.2 and 2025-01-05.
    const fee = result.disposals.find((d) => d.transactionId === 'ledger:W1:fee')!;
    expect([fee.proceedsUsd, fee.costBasisUsd, fee.gainUsd]).toEqual(['9.5', '9.036', '0.464']);
    const lot = result.openLots.find((l) => l.accountId === 'wallet')!;
    expect([lot.quantity, lot.costBasisUsd, lot.basisKnown, lot.acquiredAt]).toEqual([
      '0.02',
      '1807.2',
      true,
      new Date('2025-01-05T10:00:00Z'),
    ]);
  });

  it('a Convert (ETH to BTC outside Advanced Trade: a v2 `trade` row in each wallet, one trade id) is one crypto-for-crypto trade; a half without its pair is left out', async () => {
    PRICES['ETH 2025-03-01'] = '2268';
    const convert = { id: 'C1', resource: 'trade', resource_path: '/v2/accounts/acct-eth/trades/C1' };
    coinbase.transactions.get('acct-eth')!.push(
      tx('acct-eth', 'T1', 'trade', 'ETH', '2025-03-01T12:00:00Z', '-0.3', {
        trade: { ...convert, resource: 'trade' as const },
      }),
    );
    coinbase.transactions.get('acct-btc')!.push(
      tx('acct-btc', 'T2', 'trade', 'BTC', '2025-03-01T12:00:00Z', '0.0081', {
        trade: { ...convert, resource: 'trade' as const },
      }),
      // The received half of another convert whose given half is not listed: left out.
      tx('acct-btc', 'T3', 'trade', 'BTC', '2025-03-02T12:00:00Z', '0.001', {
        trade: { id: 'C2', resource: 'trade' as const, resource_path: '/v2/accounts/acct-btc/trades/C2' },
      }),
    );
    try {
      const legs = await legsOf(await connector().fetch(request()));
      // 0.3 ETH at 2,268 = 680.4 USD for 0.0081 BTC: 680.4 / 0.0081 = 84,000 a BTC.
      expect(rows(legs.filter((t) => t.transactionId.startsWith('trade:convert:')))).toEqual([
        ['trade:convert:C1:BTC', 'buy', 'BTC', '0.0081', '84000', null],
        ['trade:convert:C1:ETH', 'sell', 'ETH', '0.3', '2268', null],
      ]);
      expect(legs.some((t) => t.transactionId.includes('C2') || t.transactionId.startsWith('ledger:T'))).toBe(
        false,
      );
    } finally {
      delete PRICES['ETH 2025-03-01'];
    }
  });

  it('an incremental sync asks fills from the last sync less a day and stops each wallet’s transactions at the first page reaching it', async () => {
    coinbase.pageSize = 1;
    const lastSyncedAt = new Date('2025-02-17T00:00:00Z');
    const result = await connector().fetch(request({ lastSyncedAt }));
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('incremental');
    expect(rows(await legsOf(result))).toEqual([
      ['trade:F3:BTC', 'buy', 'BTC', '0.015', '96000', null],
      ['trade:F3:ETH', 'sell', 'ETH', '0.5', '2880', null],
      ['trade:F3:fee', 'fee', 'BTC', '0.00004', '96000', null],
    ]);
    const since = new Date(lastSyncedAt.getTime() - INCREMENTAL_OVERLAP_MS).toISOString();
    const fills = coinbase.requests.filter((r) => r.path.endsWith('/fills'));
    expect(fills.map((r) => r.query['start_sequence_timestamp'])).toEqual([since]);
    // Newest first, one a page, from 2025-02-16: the ETH wallet's A6 (2025-02-20) is newer; the
    // next page's S1 (2025-02-15) is older (ccxt drops it), so the paging stops there.
    const eth = coinbase.requests.filter((r) => r.path === '/v2/accounts/acct-eth/transactions');
    expect(eth.map((r) => r.query['starting_after'] ?? '-')).toEqual(['-', 'A6']);
  });

  it('a revoked key (401) and a key without the view permission (403 PERMISSION_DENIED) are refused: reconnect', async () => {
    await expect(connector().verifyCredentials(request())).resolves.toBeUndefined();
    coinbase.viewless.add(FAKE_COINBASE_KEY.name);
    await expect(connector().verifyCredentials(request())).rejects.toBeInstanceOf(SourceAuthorizationError);
    coinbase.keys.delete(FAKE_COINBASE_KEY.name);
    await expect(connector().fetch(request())).rejects.toThrow(
      /coinbase refused the API key \(AuthenticationError\)/,
    );
  });

  it('another key’s private key (a signature the key name does not verify) is refused, and the key is in no message', async () => {
    const other = cdpKey('5e2f8a5a-2222-4000-8000-000000000002');
    const error = await connector()
      .fetch(request({ credentials: { apiKey: FAKE_COINBASE_KEY.name, secret: other.privateKey } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceAuthorizationError);
    expect((error as Error).message).not.toContain('BEGIN');
  });

  it.each([
    [
      'HTTP 429 on fills',
      {
        path: /fills/,
        status: 429,
        body: '{"errors":[{"id":"rate_limit_exceeded","message":"Too many requests"}]}',
      },
      /rate limiting/,
    ],
    [
      'HTTP 503 on accounts',
      { path: /brokerage\/accounts/, status: 503, body: 'upstream connect error' },
      /unreachable or failing/,
    ],
    [
      'malformed JSON on transactions',
      { path: /transactions/, body: '{"pagination":{' },
      /not JSON|could not be read/,
    ],
    [
      'a list where the fills object belongs',
      { path: /fills/, body: '[]' },
      /not an object|could not be read/,
    ],
  ])('%s: SourceUnavailableError (retried later, nothing returned)', async (_case, fault, message) => {
    coinbase.fail(fault);
    const error = await connector()
      .fetch(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(message);
  });
});
