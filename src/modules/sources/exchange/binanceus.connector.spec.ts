/**
 * The exchange connector running ccxt's real `binanceus` class against a local fake Binance.US
 * (test/fakes/binanceus-fake-server.ts) that checks each SIGNED request's HMAC-SHA256 signature
 * and timestamp: trades asked per market (no trade of a fully sold currency missed: the account
 * lists every asset, zero ones too), paged by trade id; deposits and withdrawals in 90-day windows
 * with their chain txIds; a crypto-for-crypto trade; refused keys, 429 and malformed answers.
 */
import {
  binanceDeposit as deposit,
  binanceTrade as trade,
  binanceWithdrawal as withdrawal,
  FAKE_BINANCEUS_KEY,
  FAKE_BINANCEUS_SECRET,
  FakeBinanceUs,
} from '../../../../test/fakes/binanceus-fake-server.js';
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
import { ExchangeConnector } from './exchange.connector.js';

const PRICES: Record<string, string> = {
  'BTC 2025-01-05': '90000',
  'SOL 2025-01-06': '200',
  'BTC 2025-02-10': '95000',
  'BTC 2025-02-20': '96000',
  'ETH 2025-02-20': '2880',
};
const prices = tablePrices(PRICES, ['BTC', 'ETH', 'SOL', 'DOGE']);

const IN_HASH = 'cd'.repeat(32);
const OUT_HASH = 'ab'.repeat(32);

/**
 * A sample account (USD came in by bank, which these lists do not show): BTC bought (the
 * commission in BTC), SOL bought and all of it sold (the commission of the buy in SOL, of the sale
 * in USD), 0.02 BTC withdrawn (fee 0.0001), 0.05 BTC deposited, 1 ETH bought for 0.03 BTC. BTCUSD
 * and SOLUSD both have a trade 1 (ids are per market). Binance.US lists every asset: BTC 0.1 −
 * 0.0001 − 0.02 − 0.0001 + 0.05 − 0.03 = 0.0998, ETH 1 − 0.001 = 0.999, SOL 10 − 0.01 − 9.99 = 0.
 */
function sampleAccount(binance: FakeBinanceUs): void {
  binance.trades = [
    trade('BTCUSD', 1, true, '2025-01-05T10:00:00Z', '0.1', '90000', '0.0001', 'BTC', '9000'),
    trade('SOLUSD', 1, true, '2025-01-06T10:00:00Z', '10', '200', '0.01', 'SOL', '2000'),
    trade('SOLUSD', 2, false, '2025-01-20T10:00:00Z', '9.99', '250', '2.4975', 'USD', '2497.5'),
    trade('ETHBTC', 1, true, '2025-02-20T08:00:00Z', '1', '0.03', '0.001', 'ETH', '0.03'),
  ];
  binance.withdrawals = [withdrawal('W1', 'BTC', '2025-02-10T12:00:00Z', '0.02', '0.0001', OUT_HASH)];
  binance.deposits = [deposit('D1', 'BTC', '2025-02-12T09:00:00Z', '0.05', IN_HASH)];
  binance.balances = new Map([
    ['USD', '1495.0025'],
    ['BTC', '0.0998'],
    ['ETH', '0.999'],
    ['SOL', '0.00000000'],
    ['DOGE', '0.00000000'],
  ]);
}

describe('ExchangeConnector (ccxt) against a fake Binance.US', () => {
  const binance = new FakeBinanceUs();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await binance.start();
  });
  afterAll(() => binance.stop());
  beforeEach(() => {
    binance.reset();
    sampleAccount(binance);
  });

  const connector = (requestTimeoutMs = 5_000) =>
    new ExchangeConnector(prices, { requestTimeoutMs, apiUrls: { binanceus: baseUrl }, rateLimitMs: 1 });
  const request = (
    options: { lastSyncedAt?: Date | null; credentials?: Record<string, string> } = {},
  ): ConnectorRequest =>
    exchangeRequest({
      id: '00000000-0000-4000-8000-000000000051',
      platform: 'binanceus',
      credentials: options.credentials ?? { apiKey: FAKE_BINANCEUS_KEY, secret: FAKE_BINANCEUS_SECRET },
      lastSyncedAt: options.lastSyncedAt,
    });
  const rows = (legs: readonly SourceTransaction[]) =>
    legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd, t.feeUsd, t.transferId]);

  it('a full first sync: every market of a listed asset asked by trade id (SOL fully sold included), deposits and withdrawals by 90-day windows with their txIds', async () => {
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const legs = await legsOf(result);
    expect(rows(legs)).toEqual([
      ['trade:BTCUSD:1:BTC', 'buy', 'BTC', '0.1', '90000', null, null],
      ['trade:BTCUSD:1:fee', 'fee', 'BTC', '0.0001', '90000', null, null],
      ['trade:SOLUSD:1:SOL', 'buy', 'SOL', '10', '200', null, null],
      ['trade:SOLUSD:1:fee', 'fee', 'SOL', '0.01', '200', null, null],
      ['trade:SOLUSD:2:SOL', 'sell', 'SOL', '9.99', '250', '2.4975', null],
      ['ledger:withdrawal:W1', 'transfer_out', 'BTC', '0.02', null, null, `chain:${OUT_HASH}`],
      ['ledger:withdrawal:W1:fee', 'fee', 'BTC', '0.0001', '95000', null, null],
      ['ledger:deposit:D1', 'transfer_in', 'BTC', '0.05', null, null, `chain:${IN_HASH}`],
      // 1 ETH for 0.03 BTC (BTC 96,000 that day): ETH at 2,880; the commission in ETH a fee.
      ['trade:ETHBTC:1:BTC', 'sell', 'BTC', '0.03', '96000', null, null],
      ['trade:ETHBTC:1:ETH', 'buy', 'ETH', '1', '2880', null, null],
      ['trade:ETHBTC:1:fee', 'fee', 'ETH', '0.001', '2880', null, null],
    ]);
    expect(result.reportedBalances).toEqual(
      new Map([
        ['BTC', '0.0998'],
        ['ETH', '0.999'],
      ]),
    );
    // SOL, fully sold: basis 10 × 200 = 2,000; the 0.01 SOL commission disposes of 2 at 200 (gain
    // 0); the sale of 9.99: proceeds 2,497.5 − 2.4975 = 2,495.0025, basis 1,998, gain 497.0025.
    const ledger: LedgerEntry[] = asLedger('binanceus', legs);
    const sol = computeCostBasis(ledger, { method: 'fifo' }).disposals.filter((d) => d.symbol === 'SOL');
    expect(sol.map((d) => [d.transactionId, d.quantity, d.proceedsUsd, d.costBasisUsd, d.gainUsd])).toEqual([
      ['trade:SOLUSD:1:fee', '0.01', '2', '2', '0'],
      ['trade:SOLUSD:2:SOL', '9.99', '2495.0025', '1998', '497.0025'],
    ]);
    // By trade id from the first, 1,000 a page: every market touching a listed asset (all five:
    // USD, BTC, ETH, SOL and DOGE are listed, SOL and DOGE at zero), one short page each.
    const trades = binance.requests.filter((r) => r.path === '/api/v3/myTrades');
    expect(trades.map((r) => `${r.query['symbol']} ${r.query['fromId']} ${r.query['limit']}`)).toEqual([
      'BTCUSD 0 1000',
      'DOGEUSD 0 1000',
      'ETHBTC 0 1000',
      'ETHUSD 0 1000',
      'SOLUSD 0 1000',
    ]);
    // 90-day windows from Binance.US's opening (2019-09-01) to now, for each list.
    const windows = binance.requests.filter((r) => r.path.endsWith('hisrec'));
    expect(windows[0]!.query['startTime']).toBe(String(Date.parse('2019-09-01T00:00:00Z')));
    expect(
      windows.every((r) => Number(r.query['endTime']) - Number(r.query['startTime']) === 90 * 86_400_000),
    ).toBe(true);
    expect(Number(windows[windows.length - 1]!.query['endTime'])).toBeGreaterThan(Date.now());
  });

  it('a market with more than 1,000 trades is read over pages by fromId (a full page asks again after its last id)', async () => {
    // 1,001 more BTCUSD buys of 0.001 BTC at 90,000 without commission (ids 2 to 1,002).
    for (let id = 2; id <= 1002; id++)
      binance.trades.push(
        trade('BTCUSD', id, true, '2025-01-07T10:00:00Z', '0.001', '90000', '0', 'USD', '90'),
      );
    binance.balances.set('BTC', '1.1008'); // 0.0998 + 1.001
    const legs = await legsOf(await connector().fetch(request()));
    expect(
      legs.filter((t) => t.transactionId.startsWith('trade:BTCUSD:') && t.direction === 'buy'),
    ).toHaveLength(1002);
    const btc = binance.requests.filter(
      (r) => r.path === '/api/v3/myTrades' && r.query['symbol'] === 'BTCUSD',
    );
    expect(btc.map((r) => r.query['fromId'])).toEqual(['0', '1001']);
  });

  it('an incremental sync asks the movements from the last sync less a day (trades: every market’s history again, upserted by id)', async () => {
    const lastSyncedAt = new Date('2025-02-15T00:00:00Z');
    const result = await connector().fetch(request({ lastSyncedAt }));
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('incremental');
    const first = binance.requests.find((r) => r.path.endsWith('withdraw/history'))!;
    expect(first.query['startTime']).toBe(String(lastSyncedAt.getTime() - 86_400_000));
    expect(rows(await legsOf(result)).filter((r) => String(r[0]).startsWith('ledger:'))).toEqual([]);
  });

  it('a revoked key (-2015) and a wrong secret (-1022) are refused: reconnect, the secret in no message', async () => {
    await expect(connector().verifyCredentials(request())).resolves.toBeUndefined();
    const wrong = 'wrongSecret000000000000000000000000000000000000000000000000000';
    const error = await connector()
      .fetch(request({ credentials: { apiKey: FAKE_BINANCEUS_KEY, secret: wrong } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceAuthorizationError);
    expect((error as Error).message).not.toContain(wrong);
    binance.keys.delete(FAKE_BINANCEUS_KEY);
    await expect(connector().fetch(request())).rejects.toBeInstanceOf(SourceAuthorizationError);
  });

  it.each([
    ['HTTP 429 (-1003) on myTrades', { path: /myTrades/, status: 429 }, /rate limiting/],
    [
      'HTTP 503 on deposits',
      { path: /hisrec/, status: 503, body: 'Service Unavailable' },
      /unreachable or failing/,
    ],
    [
      'malformed JSON on withdrawals',
      { path: /withdraw\/history/, body: '[{"id":' },
      /not JSON|could not be read/,
    ],
  ])('%s: SourceUnavailableError (retried later, nothing returned)', async (_case, fault, message) => {
    binance.fail(fault);
    const error = await connector()
      .fetch(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(message);
  });
});
