/**
 * The exchange connector running ccxt's real `bitstamp` class against a local fake Bitstamp over
 * HTTPS (test/fakes/bitstamp-fake-server.ts, a certificate only this client trusts) that checks
 * each private request's X-Auth v2 HMAC-SHA256 signature and nonce: user_transactions over
 * 1,000-row offset pages, a crypto-for-crypto trade, a staking reward, a deposit and a withdrawal
 * of less than one unit (ccxt finds no currency for those), the withdrawal's chain txid from the
 * withdrawal requests, an incremental sync, and refused keys, 429 and malformed answers.
 */
import {
  bitstampMovement as movement,
  bitstampTrade as trade,
  bitstampWithdrawalRequest as withdrawalRequest,
  FAKE_BITSTAMP_KEY,
  FAKE_BITSTAMP_SECRET,
  FakeBitstamp,
  type BitstampRow,
} from '../../../../test/fakes/bitstamp-fake-server.js';
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
  'ETH 2025-02-15': '2700',
  'BTC 2025-02-20': '96000',
};
const prices = tablePrices(PRICES, ['BTC', 'ETH']);

const OUT_HASH = 'ab'.repeat(32);
/**
 * The withdrawal is recent (Bitstamp lists withdrawal requests 50,000,000 s back, about 578 days):
 * ten days before the test runs, at noon. It needs no price (no fee).
 */
const WITHDRAWN = new Date(`${new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`);

/**
 * A sample account: 20,000 USD in, BTC and ETH bought, ETH staked (moved out and credited back as
 * staked: nothing), an ETH staking reward, 0.05 BTC deposited, 0.5 ETH sold for BTC, 0.02 BTC
 * withdrawn to the client's own wallet. Bitstamp's balances agree: USD 20,000 − 9,036 − 6,024 =
 * 4,940; BTC 0.1 + 0.05 + 0.015 − 0.00004 − 0.02 = 0.14496; ETH 2 + 0.01 − 0.5 = 1.51.
 */
function sampleRows(): BitstampRow[] {
  return [
    movement(1, 0, 'usd', '2025-01-02T09:00:00Z', '20000.00'),
    trade(2, 'btc_usd', '2025-01-05T10:00:00Z', '0.10000000', '-9000.00', '90000.00', '36.00'),
    trade(3, 'eth_usd', '2025-01-06T10:00:00Z', '2.00000000', '-6000.00', '3000.00', '24.00'),
    movement(4, 26, 'eth', '2025-02-01T00:00:00Z', '-1.00000000'),
    movement(5, 25, 'eth', '2025-02-01T00:00:00Z', '1.00000000'),
    movement(6, 27, 'eth', '2025-02-15T00:00:00Z', '0.01000000'),
    movement(7, 0, 'btc', '2025-02-16T09:00:00Z', '0.05000000'),
    trade(8, 'eth_btc', '2025-02-20T08:00:00Z', '-0.50000000', '0.01500000', '0.03000000', '0.00004000'),
    movement(9, 1, 'btc', WITHDRAWN.toISOString(), '-0.02000000'),
  ];
}

describe('ExchangeConnector (ccxt) against a fake Bitstamp (HTTPS, X-Auth v2)', () => {
  const bitstamp = new FakeBitstamp();
  let baseUrl: string;
  let ca: string;
  beforeAll(async () => {
    ({ baseUrl, ca } = await bitstamp.start());
  });
  afterAll(() => bitstamp.stop());
  beforeEach(() => {
    bitstamp.reset();
    bitstamp.rows = sampleRows();
    bitstamp.withdrawalRequests = [
      withdrawalRequest(
        71,
        'BTC',
        new Date(WITHDRAWN.getTime() - 10 * 60_000).toISOString(),
        '0.02000000',
        OUT_HASH,
      ),
      // Another currency's request, and one of another amount: neither is the row's.
      withdrawalRequest(
        72,
        'ETH',
        new Date(WITHDRAWN.getTime() - 60_000).toISOString(),
        '0.02000000',
        'cd'.repeat(32),
      ),
      withdrawalRequest(
        73,
        'BTC',
        new Date(WITHDRAWN.getTime() - 60_000).toISOString(),
        '0.03000000',
        'ef'.repeat(32),
      ),
    ];
    bitstamp.balances = new Map([
      ['usd', '4940.00'],
      ['btc', '0.14496000'],
      ['eth', '1.51000000'],
      ['eur', '0.00'],
    ]);
  });

  const connector = (requestTimeoutMs = 5_000) =>
    new ExchangeConnector(prices, {
      requestTimeoutMs,
      apiUrls: { bitstamp: baseUrl },
      rateLimitMs: 1,
      trustedCa: ca,
    });
  const request = (
    options: { lastSyncedAt?: Date | null; credentials?: Record<string, string> } = {},
  ): ConnectorRequest =>
    exchangeRequest({
      id: '00000000-0000-4000-8000-000000000031',
      platform: 'bitstamp',
      credentials: options.credentials ?? { apiKey: FAKE_BITSTAMP_KEY, secret: FAKE_BITSTAMP_SECRET },
      lastSyncedAt: options.lastSyncedAt,
      now: new Date(),
    });
  const rows = (legs: readonly SourceTransaction[]) =>
    legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd, t.feeUsd, t.transferId]);

  it('a full first sync over 1,000-row pages: trades, the staking reward, the small deposit and withdrawal (ccxt finds no currency below one unit), the withdrawal’s txid from its request', async () => {
    // 1,000 older sub-account transfers of USD (money: nothing for the ledger) push the history
    // over one page: user_transactions at offsets 0 and 1,000.
    const filler = Array.from({ length: 1000 }, (_, i) =>
      movement(10_000 + i, 14, 'usd', '2024-12-01T00:00:00Z', i % 2 === 0 ? '1.00' : '-1.00'),
    );
    bitstamp.rows.push(...filler);
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('full');
    expect(rows(await legsOf(result))).toEqual([
      ['trade:2:BTC', 'buy', 'BTC', '0.1', '90000', '36', null],
      ['trade:3:ETH', 'buy', 'ETH', '2', '3000', '24', null],
      // The staking move out (26) and back in as staked (25): the client's own wallets, nothing.
      ['ledger:6', 'income', 'ETH', '0.01', '2700', null, null],
      ['ledger:7', 'deposit', 'BTC', '0.05', null, null, null],
      // 0.5 ETH sold at 0.03 BTC (BTC 96,000 that day): ETH at 2,880; 0.015 BTC bought; the fee
      // in BTC (the quote) a fee.
      ['trade:8:BTC', 'buy', 'BTC', '0.015', '96000', null, null],
      ['trade:8:ETH', 'sell', 'ETH', '0.5', '2880', null, null],
      ['trade:8:fee', 'fee', 'BTC', '0.00004', '96000', null, null],
      // Matched to request 71 (BTC, 0.02, ten minutes before): its transaction_id.
      ['ledger:9', 'transfer_out', 'BTC', '0.02', null, null, `chain:${OUT_HASH}`],
    ]);
    expect(result.reportedBalances).toEqual(
      new Map([
        ['BTC', '0.14496'],
        ['ETH', '1.51'],
      ]),
    );
    const paged = bitstamp.requests
      .filter((r) => r.path !== '/api/v2/account_balances/')
      .map(
        (r) =>
          `${r.path.split('/')[3]} ${r.params['offset'] ?? '-'} ${r.params['limit'] ?? r.params['timedelta'] ?? '-'}`,
      );
    expect(paged).toEqual([
      // The ledger, then the withdrawal requests (timedelta in seconds, Bitstamp's most), then
      // the trades: the whole history each time (Bitstamp's since is not a server filter).
      'user_transactions 0 1000',
      'user_transactions 1000 1000',
      'withdrawal-requests - 50000000',
      'user_transactions 0 1000',
      'user_transactions 1000 1000',
    ]);
  });

  it('the withdrawal to the client’s own wallet carries its basis there', async () => {
    const legs = await legsOf(await connector().fetch(request()));
    const ledger: LedgerEntry[] = asLedger('bitstamp', legs);
    ledger.push({
      accountId: 'wallet',
      transactionId: `${OUT_HASH}:deposit`,
      symbol: 'BTC',
      direction: 'transfer_in',
      amount: '0.02',
      priceUsd: '0',
      timestamp: new Date(WITHDRAWN.getTime() + 30 * 60_000),
      transferId: `chain:${OUT_HASH}`,
    });
    const result = computeCostBasis(ledger, { method: 'fifo' });
    // FIFO: the first BTC lot (0.1, cost 9,036: 90,360 a BTC) pays the 0.00004 fee, then the 0.02
    // withdrawn: 0.02 × 90,360 = 1,807.2, acquired 2025-01-05, into the wallet.
    const lot = result.openLots.find((l) => l.accountId === 'wallet')!;
    expect([lot.quantity, lot.costBasisUsd, lot.basisKnown, lot.acquiredAt]).toEqual([
      '0.02',
      '1807.2',
      true,
      new Date('2025-01-05T10:00:00Z'),
    ]);
  });

  it('an incremental sync keeps what is newer than the last sync less a day, and asks withdrawal requests for that span only (in seconds)', async () => {
    const lastSyncedAt = new Date('2025-02-19T00:00:00Z');
    const result = await connector().fetch(request({ lastSyncedAt }));
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('incremental');
    expect(rows(await legsOf(result)).map((r) => r[0])).toEqual([
      'trade:8:BTC',
      'trade:8:ETH',
      'trade:8:fee',
      'ledger:9',
    ]);
    const timedelta = Number(
      bitstamp.requests.find((r) => r.path === '/api/v2/withdrawal-requests/')!.params['timedelta'],
    );
    // From 2025-02-18 to now, in seconds, within Bitstamp's 50,000,000.
    const expected = (Date.now() - Date.parse('2025-02-18T00:00:00Z')) / 1000;
    expect(Math.abs(timedelta - Math.min(expected, 50_000_000))).toBeLessThan(60);
  });

  it('a key without the permission to list withdrawal requests still syncs: the withdrawal stays a withdrawal', async () => {
    // Bitstamp's refusal for a key missing that permission, on the withdrawal requests only.
    bitstamp.fail({
      path: /withdrawal-requests/,
      status: 403,
      body: JSON.stringify({ status: 'error', reason: 'No permission found', code: 'API0002' }),
    });
    const legs = await legsOf(await connector().fetch(request()));
    expect(rows(legs).find((r) => r[0] === 'ledger:9')).toEqual([
      'ledger:9',
      'withdrawal',
      'BTC',
      '0.02',
      null,
      null,
      null,
    ]);
  });

  it('a revoked key (API key not found) and a wrong secret (Invalid signature) are refused: reconnect, the secret in no message', async () => {
    await expect(connector().verifyCredentials(request())).resolves.toBeUndefined();
    const wrong = 'not-the-secret-0000000000000000';
    const error = await connector()
      .fetch(request({ credentials: { apiKey: FAKE_BITSTAMP_KEY, secret: wrong } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceAuthorizationError);
    expect((error as Error).message).not.toContain(wrong);
    bitstamp.keys.delete(FAKE_BITSTAMP_KEY);
    await expect(connector().fetch(request())).rejects.toThrow(
      /bitstamp refused the API key \(AuthenticationError\)/,
    );
  });

  it('a key that may not read transactions (No permission found) is refused: reconnect', async () => {
    bitstamp.restricted.add(FAKE_BITSTAMP_KEY);
    await expect(connector().fetch(request())).rejects.toBeInstanceOf(SourceAuthorizationError);
  });

  it.each([
    [
      'HTTP 429 on user_transactions',
      { path: /user_transactions/, status: 429, body: 'Too Many Requests' },
      /rate limiting/,
    ],
    [
      'HTTP 503',
      { path: /user_transactions/, status: 503, body: 'Service Unavailable' },
      /unreachable or failing/,
    ],
    [
      'malformed JSON',
      { path: /user_transactions/, body: '[{"id": 1, "type": ' },
      /not JSON|could not be read/,
    ],
    [
      'an object where the list belongs',
      { path: /user_transactions/, body: '{"transactions": []}' },
      /not a list|could not be read/,
    ],
  ])('%s: SourceUnavailableError (retried later, nothing returned)', async (_case, fault, message) => {
    bitstamp.fail(fault);
    const error = await connector()
      .fetch(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(message);
  });
});
