/**
 * The exchange connector running ccxt's real `gemini` class against a local fake Gemini
 * (test/fakes/gemini-fake-server.ts) that checks each private request's HMAC-SHA384 signature and
 * nonce as Gemini does: a first sync over pages (transfers by time, trades per market by time), an
 * incremental sync, a crypto-for-crypto trade, a withdrawal to the client's own wallet (its basis
 * carried there), the per-market trade rule that cannot miss a fully sold currency, and the
 * failures the refresh engine must tell apart (refused or revoked key → reconnect; 429 and
 * malformed answers → unavailable, nothing returned).
 */
import {
  FAKE_GEMINI_KEY,
  FAKE_GEMINI_SECRET,
  FakeGemini,
  geminiTrade as trade,
  geminiTransfer as transfer,
} from '../../../../test/fakes/gemini-fake-server.js';
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
import { ExchangeConnector, INCREMENTAL_OVERLAP_MS, MAX_SYMBOLS } from './exchange.connector.js';

const PRICES: Record<string, string> = {
  'BTC 2025-02-20': '96000',
  'BTC 2025-03-05': '85000',
};
const prices = tablePrices(PRICES, ['BTC', 'ETH', 'SOL', 'DOGE']);

const OUT_HASH = 'ab'.repeat(32);
const IN_HASH = 'cd'.repeat(32);

/**
 * A sample account: USD in by ACH, BTC and ETH bought, BTC partly sold, BTC withdrawn to the
 * client's own wallet (its chain hash in txHash), BTC deposited from outside, ETH sold for BTC.
 * Gemini's balances agree: USD 20,000 − (9,000 + 36) − (6,000 + 24) + (4,000 − 16) = 8,924;
 * BTC 0.1 − 0.04 − 0.02 + 0.05 + 0.015 − 0.00004 = 0.10496; ETH 2 − 0.5 = 1.5.
 */
function sampleAccount(gemini: FakeGemini): void {
  gemini.transfers = [
    transfer(101, 'Deposit', 'USD', '2025-01-02T09:00:00Z', '20000.00'),
    transfer(102, 'Withdrawal', 'BTC', '2025-02-10T12:00:00Z', '0.02', {
      txHash: OUT_HASH,
      destination: 'bc1qclientownwallet000000000000000000000000',
      withdrawalId: '02176a83-a6b1-4202-9b85-1c1c92dd25c4',
    }),
    transfer(103, 'Deposit', 'BTC', '2025-02-12T09:00:00Z', '0.05', { txHash: IN_HASH, outputIdx: 0 }),
  ];
  gemini.trades = [
    trade(1, 'BTCUSD', 'Buy', '2025-01-05T10:00:00Z', '0.1', '90000.00', '36.00', 'USD'),
    trade(2, 'ETHUSD', 'Buy', '2025-01-06T10:00:00Z', '2', '3000.00', '24.00', 'USD'),
    trade(3, 'BTCUSD', 'Sell', '2025-02-01T10:00:00Z', '0.04', '100000.00', '16.00', 'USD'),
    trade(4, 'ETHBTC', 'Sell', '2025-02-20T08:00:00Z', '0.5', '0.03', '0.00004', 'BTC'),
  ];
  gemini.balances = new Map([
    ['USD', '8924.00'],
    ['BTC', '0.10496'],
    ['ETH', '1.5'],
  ]);
}

describe('ExchangeConnector (ccxt) against a fake Gemini', () => {
  const gemini = new FakeGemini();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await gemini.start();
  });
  afterAll(() => gemini.stop());
  beforeEach(async () => {
    gemini.reset();
    sampleAccount(gemini);
    // Gemini refuses a nonce not above the key's last (InvalidNonce); ccxt's nonce is the clock's
    // millisecond, so one test's first request waits out the millisecond of the one before.
    await new Promise((resolve) => setTimeout(resolve, 3));
  });

  // ccxt's Gemini nonce is the clock's millisecond: 5 ms between requests keeps each one new.
  const connector = (requestTimeoutMs = 5_000) =>
    new ExchangeConnector(prices, { requestTimeoutMs, apiUrls: { gemini: baseUrl }, rateLimitMs: 5 });
  const request = (
    options: { lastSyncedAt?: Date | null; credentials?: Record<string, string> } = {},
  ): ConnectorRequest =>
    exchangeRequest({
      id: '00000000-0000-4000-8000-000000000011',
      platform: 'gemini',
      credentials: options.credentials ?? { apiKey: FAKE_GEMINI_KEY, secret: FAKE_GEMINI_SECRET },
      lastSyncedAt: options.lastSyncedAt,
    });
  const rows = (legs: readonly SourceTransaction[]) =>
    legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd, t.feeUsd]);

  it('a full first sync over pages: transfers by time, trades per market by time, the ETH/BTC trade in two legs, the withdrawal a transfer leg with its chain hash', async () => {
    gemini.tradePageSize = 1;
    gemini.transferPageSize = 2;
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('full');
    const legs = await legsOf(result);
    expect(rows(legs)).toEqual([
      // The USD deposit is money, not an asset: left out.
      ['trade:1:BTC', 'buy', 'BTC', '0.1', '90000', '36'],
      ['trade:2:ETH', 'buy', 'ETH', '2', '3000', '24'],
      ['trade:3:BTC', 'sell', 'BTC', '0.04', '100000', '16'],
      ['ledger:withdrawal:102', 'transfer_out', 'BTC', '0.02', null, null],
      ['ledger:deposit:103', 'transfer_in', 'BTC', '0.05', null, null],
      // 0.5 ETH sold for 0.03 BTC each, BTC at 96,000 that day: ETH at 0.03 × 96,000 = 2,880;
      // 0.5 × 0.03 = 0.015 BTC bought at 96,000; the fee (0.00004 BTC) disposes of BTC.
      ['trade:4:BTC', 'buy', 'BTC', '0.015', '96000', null],
      ['trade:4:ETH', 'sell', 'ETH', '0.5', '2880', null],
      ['trade:4:fee', 'fee', 'BTC', '0.00004', '96000', null],
    ]);
    expect(legs.filter((t) => t.transferId !== null).map((t) => [t.transactionId, t.transferId])).toEqual([
      ['ledger:withdrawal:102', `chain:${OUT_HASH}`],
      ['ledger:deposit:103', `chain:${IN_HASH}`],
    ]);
    expect(result.reportedBalances).toEqual(
      new Map([
        ['BTC', '0.10496'],
        ['ETH', '1.5'],
      ]),
    );
    // Transfers: two a page from 2009-01-03, then after the newest of each page. Trades: one a
    // page, every spot market touching a currency the account lists (USD, BTC, ETH), in
    // milliseconds (Gemini's "Timestamps"; ccxt's whole seconds would bring the last trade back
    // and end the paging); the perpetual is never asked.
    const start = Date.parse('2009-01-03T00:00:00Z');
    const t = (iso: string) => Date.parse(iso) + 1;
    expect(
      gemini.requests.map(
        (r) => `${r.path} ${String(r.params['symbol'] ?? '')} ${String(r.params['timestamp'])}`,
      ),
    ).toEqual([
      '/v1/balances  undefined',
      '/v1/balances/staking  undefined',
      `/v1/transfers  ${start}`,
      `/v1/transfers  ${t('2025-02-10T12:00:00Z')}`,
      `/v1/transfers  ${t('2025-02-12T09:00:00Z')}`,
      '/v1/staking/history  undefined',
      `/v1/mytrades btcusd ${start}`,
      `/v1/mytrades btcusd ${t('2025-01-05T10:00:00Z')}`,
      `/v1/mytrades btcusd ${t('2025-02-01T10:00:00Z')}`,
      `/v1/mytrades dogeusd ${start}`,
      `/v1/mytrades ethbtc ${start}`,
      `/v1/mytrades ethbtc ${t('2025-02-20T08:00:00Z')}`,
      `/v1/mytrades ethusd ${start}`,
      `/v1/mytrades ethusd ${t('2025-01-06T10:00:00Z')}`,
      `/v1/mytrades solusd ${start}`,
    ]);
    // The largest pages Gemini serves are asked for.
    expect(gemini.requests.find((r) => r.path === '/v1/mytrades')!.params['limit_trades']).toBe(500);
    expect(gemini.requests.find((r) => r.path === '/v1/transfers')!.params['limit_transfers']).toBe(50);
  });

  it('the withdrawal to the client’s own wallet carries its basis there: the wallet’s transfer_in of the same hash opens a lot at the exchange’s cost', async () => {
    const legs = await legsOf(await connector().fetch(request()));
    // The watched wallet's receipt of the same chain transaction (the bitcoin source's leg).
    const wallet: LedgerEntry = {
      accountId: 'wallet',
      transactionId: `chain:${OUT_HASH}:in`,
      symbol: 'BTC',
      direction: 'transfer_in',
      amount: '0.02',
      priceUsd: '0',
      timestamp: new Date('2025-02-10T12:30:00Z'),
      transferId: `chain:${OUT_HASH}`,
    };
    const result = computeCostBasis([...asLedger('gemini', legs), wallet], { method: 'fifo' });
    // FIFO: the 0.1 BTC lot cost 9,000 + 36 = 9,036 (90,360 a BTC). The sale of 0.04 takes
    // 0.04 × 90,360 = 3,614.4 of it: proceeds 4,000 − 16 = 3,984, gain 369.6. The 0.02 withdrawn
    // moves with 0.02 × 90,360 = 1,807.2 and its 2025-01-05 date into the wallet.
    const sale = result.disposals.find((d) => d.transactionId === 'trade:3:BTC')!;
    expect([sale.proceedsUsd, sale.costBasisUsd, sale.gainUsd]).toEqual(['3984', '3614.4', '369.6']);
    const walletLot = result.openLots.find((l) => l.accountId === 'wallet')!;
    expect([walletLot.quantity, walletLot.costBasisUsd, walletLot.basisKnown, walletLot.acquiredAt]).toEqual([
      '0.02',
      '1807.2',
      true,
      new Date('2025-01-05T10:00:00Z'),
    ]);
  });

  it('a currency bought with deposited USD and fully sold is never missed: its market is asked because its quote (USD) is listed, and the gains are exact', async () => {
    gemini.transfers = [transfer(201, 'Deposit', 'USD', '2025-03-01T09:00:00Z', '10000.00')];
    gemini.trades = [
      trade(21, 'ETHUSD', 'Buy', '2025-03-02T10:00:00Z', '2', '3000.00', '7.50', 'USD'),
      trade(22, 'ETHUSD', 'Sell', '2025-03-10T10:00:00Z', '2', '3500.00', '8.75', 'USD'),
    ];
    // Nothing but USD is left: 10,000 − (6,000 + 7.5) + (7,000 − 8.75) = 10,983.75. The rule
    // before (markets whose BASE the account holds or moved) asked nothing: ETH is in neither.
    gemini.balances = new Map([['USD', '10983.75']]);
    const legs = await legsOf(await connector().fetch(request()));
    expect(rows(legs)).toEqual([
      ['trade:21:ETH', 'buy', 'ETH', '2', '3000', '7.5'],
      ['trade:22:ETH', 'sell', 'ETH', '2', '3500', '8.75'],
    ]);
    const result = computeCostBasis(asLedger('gemini', legs), { method: 'fifo' });
    // Proceeds 2 × 3,500 − 8.75 = 6,991.25; basis 2 × 3,000 + 7.5 = 6,007.5; gain 983.75, short term.
    expect(
      result.disposals.map((d) => [d.symbol, d.quantity, d.proceedsUsd, d.costBasisUsd, d.gainUsd, d.term]),
    ).toEqual([['ETH', '2', '6991.25', '6007.5', '983.75', 'short']]);
    expect(result.openLots).toEqual([]);
  });

  it('a chain of trades none of whose currencies is held any more is followed market by market (USD → BTC → ETH → USD): the ETH/BTC market is asked once BTC and ETH trades were found', async () => {
    gemini.transfers = [transfer(301, 'Deposit', 'USD', '2025-03-01T09:00:00Z', '10000.00')];
    gemini.trades = [
      trade(31, 'BTCUSD', 'Buy', '2025-03-02T10:00:00Z', '0.1', '84000.00', '21.00', 'USD'),
      // 0.1 BTC spent on ETH at 0.025 BTC an ETH: 0.1 / 0.025 = 4 ETH; the fee in BTC is 0.
      trade(32, 'ETHBTC', 'Buy', '2025-03-05T10:00:00Z', '4', '0.025', '0', 'BTC'),
      trade(33, 'ETHUSD', 'Sell', '2025-03-10T10:00:00Z', '4', '2200.00', '22.00', 'USD'),
    ];
    // USD 10,000 − 8,421 + 8,778 = 10,357: the only balance.
    gemini.balances = new Map([['USD', '10357.00']]);
    const legs = await legsOf(await connector().fetch(request()));
    expect(rows(legs)).toEqual([
      ['trade:31:BTC', 'buy', 'BTC', '0.1', '84000', '21'],
      // ETH at 0.025 × 85,000 (BTC that day) = 2,125; the 0.1 BTC leaves at 85,000.
      ['trade:32:BTC', 'sell', 'BTC', '0.1', '85000', null],
      ['trade:32:ETH', 'buy', 'ETH', '4', '2125', null],
      ['trade:33:ETH', 'sell', 'ETH', '4', '2200', '22'],
    ]);
    const markets = gemini.requests.filter((r) => r.path === '/v1/mytrades').map((r) => r.params['symbol']);
    // Round one: the markets touching USD (each with trades asked again after its page); round
    // two: ETH/BTC, once trades brought BTC and ETH in.
    expect(markets).toEqual([
      'btcusd',
      'btcusd',
      'dogeusd',
      'ethusd',
      'ethusd',
      'solusd',
      'ethbtc',
      'ethbtc',
    ]);
    const result = computeCostBasis(asLedger('gemini', legs), { method: 'fifo' });
    // BTC: basis 8,400 + 21 = 8,421, proceeds 0.1 × 85,000 = 8,500: gain 79. ETH: basis
    // 4 × 2,125 = 8,500, proceeds 8,800 − 22 = 8,778: gain 278.
    expect(result.disposals.map((d) => [d.symbol, d.proceedsUsd, d.costBasisUsd, d.gainUsd])).toEqual([
      ['BTC', '8500', '8421', '79'],
      ['ETH', '8778', '8500', '278'],
    ]);
  });

  it('Gemini Staking: rewards (Interest) are income over `until` pages, stakes and redemptions nothing; the staked balance is summed with the exchange balance', async () => {
    PRICES['ETH 2025-02-25'] = '2500';
    PRICES['ETH 2025-03-01'] = '2400';
    const provider = '62b21e17-2534-4b9f-afcf-b7edb609dd8d';
    const event = (id: string, type: 'Deposit' | 'Redeem' | 'Interest', time: string, amount: number) => ({
      providerId: provider,
      transactionId: id,
      transactionType: type,
      amountCurrency: 'ETH',
      amount,
      ...(type === 'Interest' ? { priceCurrency: 'USD', priceAmount: 2500 } : {}),
      dateTime: Date.parse(time),
    });
    gemini.staking = [
      event('STK1', 'Deposit', '2025-02-21T00:00:00Z', 1),
      event('INT1', 'Interest', '2025-02-25T20:00:00Z', 0.004),
      event('INT2', 'Interest', '2025-03-01T20:00:00Z', 0.001),
      event('RED1', 'Redeem', '2025-03-02T00:00:00Z', 0.5),
    ];
    gemini.stakingPageSize = 2;
    // 1 ETH staked, 0.5 redeemed: 1.5 − 1 + 0.5 = 1 on the exchange, 0.5 + 0.005 staked.
    gemini.balances.set('ETH', '1');
    gemini.stakingBalances = new Map([['ETH', '0.505']]);
    try {
      const result = await connector().fetch(request());
      const legs = await legsOf(result);
      expect(rows(legs.filter((t) => t.transactionId.startsWith('ledger:staking:')))).toEqual([
        ['ledger:staking:INT1', 'income', 'ETH', '0.004', '2500', null],
        ['ledger:staking:INT2', 'income', 'ETH', '0.001', '2400', null],
      ]);
      // 1.5 ETH held by the history + 0.005 of rewards = 1 + 0.505, what Gemini reports.
      expect(result.status === 'ready' && result.reportedBalances?.get('ETH')).toBe('1.505');
      // Newest first, two a page, each next page until the oldest of the last − 1 ms.
      expect(
        gemini.requests.filter((r) => r.path === '/v1/staking/history').map((r) => r.params['until'] ?? '-'),
      ).toEqual(['-', '2025-03-01T19:59:59.999Z', '2025-02-20T23:59:59.999Z']);
    } finally {
      delete PRICES['ETH 2025-02-25'];
      delete PRICES['ETH 2025-03-01'];
    }
  });

  it('an incremental sync asks from the last sync less a day, and says it is incremental', async () => {
    const lastSyncedAt = new Date('2025-02-15T00:00:00Z');
    const since = lastSyncedAt.getTime() - INCREMENTAL_OVERLAP_MS;
    const result = await connector().fetch(request({ lastSyncedAt }));
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('incremental');
    expect(rows(await legsOf(result))).toEqual([
      ['trade:4:BTC', 'buy', 'BTC', '0.015', '96000', null],
      ['trade:4:ETH', 'sell', 'ETH', '0.5', '2880', null],
      ['trade:4:fee', 'fee', 'BTC', '0.00004', '96000', null],
    ]);
    const first = (path: string) => gemini.requests.find((r) => r.path === path)!.params['timestamp'];
    expect(first('/v1/transfers')).toBe(since);
    expect(first('/v1/mytrades')).toBe(since);
  });

  it('more markets to ask than MAX_SYMBOLS fails the sync naming the count, rather than skip any', async () => {
    const markets = Object.fromEntries(
      Array.from({ length: MAX_SYMBOLS + 1 }, (_, i) => [
        `C${i}/USD`,
        { spot: true, base: `C${i}`, quote: 'USD', symbol: `C${i}/USD` },
      ]),
    );
    const { ArgumentsRequired } = await import('ccxt');
    const exchange = {
      id: 'gemini',
      has: { fetchMyTrades: true },
      markets,
      last_json_response: [] as unknown,
      fetchMyTrades: async (symbol?: string) => {
        if (symbol === undefined) throw new ArgumentsRequired('gemini fetchMyTrades() requires a symbol');
        return [];
      },
    };
    const trades = (
      connector() as unknown as {
        trades(e: unknown, since: undefined, s: AbortSignal, held: Set<string>): Promise<unknown[]>;
      }
    ).trades(exchange, undefined, new AbortController().signal, new Set(['USD']));
    await expect(trades).rejects.toThrow(
      new SourceUnavailableError(
        `gemini lists trades per market only, and this account would need more than ${MAX_SYMBOLS} markets asked one by one (${MAX_SYMBOLS + 1}); the sync stops rather than skip any. Raise MAX_SYMBOLS or import the exchange's export file.`,
      ),
    );
  });

  it('verifies credentials with a signed balance call; a revoked key (InvalidApiKey) is refused: reconnect', async () => {
    await expect(connector().verifyCredentials(request())).resolves.toBeUndefined();
    expect(gemini.requests.map((r) => r.path)).toEqual(['/v1/balances', '/v1/balances/staking']);
    gemini.keys.delete(FAKE_GEMINI_KEY);
    await expect(connector().verifyCredentials(request())).rejects.toBeInstanceOf(SourceAuthorizationError);
    await expect(connector().fetch(request())).rejects.toThrow(
      /gemini refused the API key \(AuthenticationError\)/,
    );
  });

  it('a wrong secret fails the signature check (InvalidSignature) and a key without the Auditor role (MissingRole, 403) is refused: the secret is in no message', async () => {
    const wrong = 'notTheSecret000000000000000';
    const error = await connector()
      .fetch(request({ credentials: { apiKey: FAKE_GEMINI_KEY, secret: wrong } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceAuthorizationError);
    expect((error as Error).message).not.toContain(wrong);
    gemini.roleless.add(FAKE_GEMINI_KEY);
    await expect(connector().verifyCredentials(request())).rejects.toBeInstanceOf(SourceAuthorizationError);
  });

  it('a master key (not account-scoped) is refused before any request', async () => {
    await expect(
      connector().verifyCredentials(request({ credentials: { apiKey: 'master-abc', secret: 's' } })),
    ).rejects.toBeInstanceOf(SourceAuthorizationError);
    expect(gemini.requests).toEqual([]);
  });

  it.each([
    [
      'HTTP 429 RateLimit on mytrades',
      { path: /mytrades/, status: 429, reason: 'RateLimit' },
      /rate limiting/,
    ],
    [
      'HTTP 503 on transfers',
      { path: /transfers/, status: 503, body: 'Service Unavailable' },
      /unreachable or failing/,
    ],
    [
      'malformed JSON on transfers',
      { path: /transfers/, body: '[{"type":"Deposit",' },
      /not JSON|could not be read/,
    ],
    ['malformed JSON on mytrades', { path: /mytrades/, body: '[{"tid":' }, /not JSON|could not be read/],
    [
      'an object where the trade list belongs',
      { path: /mytrades/, body: '{"trades":[]}' },
      /not a list|could not be read/,
    ],
    [
      'an object where the transfer list belongs',
      { path: /transfers/, body: '{"transfers":[]}' },
      /not a list|could not be read/,
    ],
  ])('%s: SourceUnavailableError (retried later, nothing returned)', async (_case, fault, message) => {
    gemini.fail(fault);
    const error = await connector()
      .fetch(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(message);
  });
});
