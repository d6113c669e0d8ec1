/**
 * The exchange connector running ccxt's real `okx` class against a local fake OKX
 * (test/fakes/okx-fake-server.ts) that checks each private request's OK-ACCESS-SIGN (base64
 * HMAC-SHA256), passphrase and timestamp: fills over `after` pages (USDT and BTC quotes, fees in
 * the currency received), deposits and withdrawals from the funding account with their chain
 * txIds (the withdrawal's basis carried to the client's wallet), balances of the trading and
 * funding accounts summed, an incremental sync, refused keys, 429 and malformed answers.
 */
import {
  FAKE_OKX_KEY,
  FAKE_OKX_PASSPHRASE,
  FAKE_OKX_SECRET,
  FakeOkx,
  okxDeposit as deposit,
  okxFill as fill,
  okxWithdrawal as withdrawal,
} from '../../../../test/fakes/okx-fake-server.js';
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
  'USDT 2025-01-05': '1',
  'USDT 2025-01-06': '1',
  'BTC 2025-01-05': '90000',
  'ETH 2025-01-06': '3000',
  'BTC 2025-02-10': '95000',
  'BTC 2025-02-20': '96000',
};
const prices = tablePrices(PRICES, ['BTC', 'ETH', 'USDT']);

const IN_HASH = 'cd'.repeat(32);
const OUT_HASH = 'ab'.repeat(32);

/**
 * A sample account: 20,000 USDT deposited into the funding account (15,000 moved to trading: the
 * client's own accounts, not read), BTC and ETH bought for USDT (OKX charges the fee in what is
 * received), 0.5 ETH sold for BTC, 0.02 BTC withdrawn to the client's own wallet with a 0.0001 fee.
 * Balances: trading BTC 0.1 − 0.0001 − 0.0201 (to funding) + 0.015 − 0.000015 = 0.094785, ETH
 * 2 − 0.002 − 0.5 = 1.498; funding USDT 20,000 − 15,000 = 5,000 (the 15,000 spent in trading).
 */
function sampleAccount(okx: FakeOkx): void {
  okx.deposits = [deposit('D1', 'USDT', '2025-01-02T09:00:00Z', '20000', IN_HASH)];
  okx.fills = [
    fill('1001', 'BTC-USDT', 'buy', '2025-01-05T10:00:00Z', '0.1', '90000', '0.0001', 'BTC'),
    fill('1002', 'ETH-USDT', 'buy', '2025-01-06T10:00:00Z', '2', '3000', '0.002', 'ETH'),
    fill('1003', 'ETH-BTC', 'sell', '2025-02-20T08:00:00Z', '0.5', '0.03', '0.000015', 'BTC'),
  ];
  okx.withdrawals = [withdrawal('W1', 'BTC', '2025-02-10T12:00:00Z', '0.02', '0.0001', OUT_HASH)];
  okx.trading = new Map([
    ['BTC', '0.094785'],
    ['ETH', '1.498'],
    ['USDT', '0'],
  ]);
  okx.funding = new Map([['USDT', '5000']]);
}

describe('ExchangeConnector (ccxt) against a fake OKX', () => {
  const okx = new FakeOkx();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await okx.start();
  });
  afterAll(() => okx.stop());
  beforeEach(() => {
    okx.reset();
    sampleAccount(okx);
  });

  const connector = (requestTimeoutMs = 5_000) =>
    new ExchangeConnector(prices, { requestTimeoutMs, apiUrls: { okx: baseUrl }, rateLimitMs: 1 });
  const request = (
    options: { lastSyncedAt?: Date | null; credentials?: Record<string, string> } = {},
  ): ConnectorRequest =>
    exchangeRequest({
      id: '00000000-0000-4000-8000-000000000041',
      platform: 'okx',
      credentials: options.credentials ?? {
        apiKey: FAKE_OKX_KEY,
        secret: FAKE_OKX_SECRET,
        passphrase: FAKE_OKX_PASSPHRASE,
      },
      lastSyncedAt: options.lastSyncedAt,
    });
  const rows = (legs: readonly SourceTransaction[]) =>
    legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd, t.transferId]);

  it('a full first sync over `after` pages: fills, funding deposits and withdrawals with their txIds, balances of both accounts summed', async () => {
    okx.pageSize = 1;
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('full');
    expect(rows(await legsOf(result))).toEqual([
      // USDT is an asset (priced 1 that day), not money: the deposit with its chain hash is a
      // transfer_in (unpaired: a deposit of unknown basis).
      ['ledger:deposit:D1', 'transfer_in', 'USDT', '20000', null, `chain:${IN_HASH}`],
      // 0.1 BTC for 9,000 USDT (USDT at 1): BTC at 90,000; the fee in BTC (received) a disposal.
      ['trade:t1001:BTC', 'buy', 'BTC', '0.1', '90000', null],
      ['trade:t1001:USDT', 'sell', 'USDT', '9000', '1', null],
      ['trade:t1001:fee', 'fee', 'BTC', '0.0001', '90000', null],
      ['trade:t1002:ETH', 'buy', 'ETH', '2', '3000', null],
      ['trade:t1002:USDT', 'sell', 'USDT', '6000', '1', null],
      ['trade:t1002:fee', 'fee', 'ETH', '0.002', '3000', null],
      // The withdrawal: 0.02 on chain (its txId), the 0.0001 fee a disposal at 95,000.
      ['ledger:withdrawal:W1', 'transfer_out', 'BTC', '0.02', null, `chain:${OUT_HASH}`],
      ['ledger:withdrawal:W1:fee', 'fee', 'BTC', '0.0001', '95000', null],
      // 0.5 ETH for 0.015 BTC (BTC 96,000 that day): ETH at 0.03 × 96,000 = 2,880.
      ['trade:t1003:BTC', 'buy', 'BTC', '0.015', '96000', null],
      ['trade:t1003:ETH', 'sell', 'ETH', '0.5', '2880', null],
      ['trade:t1003:fee', 'fee', 'BTC', '0.000015', '96000', null],
    ]);
    expect(result.reportedBalances).toEqual(
      new Map([
        ['BTC', '0.094785'],
        ['ETH', '1.498'],
        ['USDT', '5000'],
      ]),
    );
    expect(
      okx.requests
        .filter((r) => /fills|history/.test(r.path))
        .map((r) => `${r.path.split('/').pop()} ${r.query['after'] ?? '-'}`),
    ).toEqual([
      'deposit-history -',
      `deposit-history ${Date.parse('2025-01-02T09:00:00Z')}`,
      'withdrawal-history -',
      `withdrawal-history ${Date.parse('2025-02-10T12:00:00Z')}`,
      'fills-history -',
      'fills-history 1003',
      'fills-history 1002',
      'fills-history 1001',
    ]);
    // Both accounts' balances are read: trading and funding.
    expect(okx.requests.map((r) => r.path).filter((p) => /balance/.test(p))).toEqual([
      '/api/v5/account/balance',
      '/api/v5/asset/balances',
    ]);
  });

  it('the withdrawal to the client’s own wallet carries its basis there', async () => {
    const legs = await legsOf(await connector().fetch(request()));
    const ledger: LedgerEntry[] = asLedger('okx', legs);
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
    // The 0.1 BTC lot cost 9,000 (90,000 a BTC; the fee was its own disposal). 0.0001 paid the
    // trade fee, 0.0001 the withdrawal fee; the 0.02 sent keep 0.02 × 90,000 = 1,800 and 2025-01-05.
    const lot = result.openLots.find((l) => l.accountId === 'wallet')!;
    expect([lot.quantity, lot.costBasisUsd, lot.basisKnown, lot.acquiredAt]).toEqual([
      '0.02',
      '1800',
      true,
      new Date('2025-01-05T10:00:00Z'),
    ]);
  });

  it('an incremental sync asks fills from `begin` and movements from `before` = the last sync less a day', async () => {
    const lastSyncedAt = new Date('2025-02-15T00:00:00Z');
    const since = lastSyncedAt.getTime() - INCREMENTAL_OVERLAP_MS;
    const result = await connector().fetch(request({ lastSyncedAt }));
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('incremental');
    expect(rows(await legsOf(result)).map((r) => r[0])).toEqual([
      'trade:t1003:BTC',
      'trade:t1003:ETH',
      'trade:t1003:fee',
    ]);
    const first = (name: string) => okx.requests.find((r) => r.path.endsWith(name))!.query;
    expect(first('fills-history')['begin']).toBe(String(since));
    expect(first('deposit-history')['before']).toBe(String(since - 1));
    expect(first('withdrawal-history')['before']).toBe(String(since - 1));
  });

  it('a revoked key (50111), a wrong secret (50113) and a wrong passphrase (50105) are refused: reconnect, nothing secret in the message', async () => {
    await expect(connector().verifyCredentials(request())).resolves.toBeUndefined();
    for (const credentials of [
      { apiKey: FAKE_OKX_KEY, secret: 'WRONGSECRET00000000000000000000', passphrase: FAKE_OKX_PASSPHRASE },
      { apiKey: FAKE_OKX_KEY, secret: FAKE_OKX_SECRET, passphrase: 'wrong-passphrase' },
    ]) {
      const error = await connector()
        .fetch(request({ credentials }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceAuthorizationError);
      expect((error as Error).message).not.toMatch(/WRONGSECRET|wrong-passphrase/);
    }
    okx.keys.delete(FAKE_OKX_KEY);
    await expect(connector().fetch(request())).rejects.toThrow(
      /okx refused the API key \(AuthenticationError\)/,
    );
  });

  it.each([
    ['HTTP 429 (50011) on fills', { path: /fills-history/, status: 429 }, /rate limiting/],
    [
      'HTTP 503 on withdrawals',
      { path: /withdrawal-history/, status: 503, body: 'Service Unavailable' },
      /unreachable or failing/,
    ],
    [
      'malformed JSON on deposits',
      { path: /deposit-history/, body: '{"code":"0","data":[' },
      /not JSON|could not be read/,
    ],
    [
      'a list where the answer object belongs',
      { path: /fills-history/, body: '[]' },
      /not an object|answered with an error/,
    ],
  ])('%s: SourceUnavailableError (retried later, nothing returned)', async (_case, fault, message) => {
    okx.fail(fault);
    const error = await connector()
      .fetch(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(message);
  });
});
