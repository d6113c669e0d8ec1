/**
 * The exchange connector running ccxt's real Kraken class against a local fake Kraken that checks
 * the request signatures: a full first sync over several pages, an incremental sync, balances,
 * prices from the store, and every failure the refresh engine must tell apart (a refused key →
 * reconnect, rate limits, timeouts and malformed answers → unavailable, old data kept).
 */
import {
  FAKE_KRAKEN_KEY,
  FAKE_KRAKEN_SECRET,
  FakeKraken,
  KRAKEN_BALANCES,
  KRAKEN_LEDGER,
  KRAKEN_TRADES,
  krakenEntry as entry,
  krakenMovement,
  krakenTrade as trade,
} from '../../../../test/fakes/kraken-fake-server.js';
import { DomainError } from '../../../common/errors/domain-error.js';
import {
  computeBalanceSnapshots,
  reconcileBalances,
  reconciliationReviewReason,
} from '../../../domain/balances/index.js';
import {
  SourceAuthorizationError,
  SourceUnavailableError,
  type ConnectorRequest,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import { checkGenericIds, overrideApiUrls } from './ccxt-exchange.js';
import { ExchangeConnector, INCREMENTAL_OVERLAP_MS } from './exchange.connector.js';
import { NAMED_EXCHANGES } from './exchange.source.js';

const PRICES: Record<string, string> = {
  'BTC 2025-02-10': '95000',
  'DOT 2025-02-15': '5',
  'ETH 2025-03-02': '2100',
  'ETH 2025-03-05': '2200',
  'DOT 2025-03-06': '4.5',
  'ETH 2025-03-07': '2300',
  'BTC 2025-03-07': '88000',
  'USDC 2025-03-07': '1',
};
/** The assets the market store knows (it has no NEWCOIN at all). */
const KNOWN_SYMBOLS = ['BTC', 'DOT', 'ETH', 'USDC', 'USDT'];
const prices = {
  asked: [] as string[],
  knownSymbols: async () => [...KNOWN_SYMBOLS],
  pricesOnDate: async (symbols: readonly string[], date: string) => {
    prices.asked.push(`${symbols.join(',')} ${date}`);
    return new Map(
      symbols.flatMap((symbol) =>
        PRICES[`${symbol} ${date}`] ? [[symbol, PRICES[`${symbol} ${date}`]!] as const] : [],
      ),
    );
  },
};

describe('ExchangeConnector (ccxt) against a fake Kraken', () => {
  const kraken = new FakeKraken();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await kraken.start();
  });
  afterAll(() => kraken.stop());
  beforeEach(() => {
    kraken.trades = new Map(KRAKEN_TRADES);
    kraken.ledger = new Map(KRAKEN_LEDGER);
    kraken.balances = new Map(KRAKEN_BALANCES);
    kraken.withdrawals = [];
    kraken.deposits = [];
    kraken.keys.set(FAKE_KRAKEN_KEY, FAKE_KRAKEN_SECRET);
    kraken.pageSize = 2;
    kraken.requests.length = 0;
    kraken.faults.length = 0;
    prices.asked.length = 0;
  });

  const connector = (requestTimeoutMs = 5_000) =>
    new ExchangeConnector(prices, {
      requestTimeoutMs,
      apiUrls: { kraken: baseUrl },
      rateLimitMs: 1,
      genericIds: ['kucoin'],
    });
  const request = (
    options: { lastSyncedAt?: Date | null; credentials?: Record<string, string>; signal?: AbortSignal } = {},
  ): ConnectorRequest => ({
    account: {
      id: '00000000-0000-4000-8000-000000000001',
      tenantId: '00000000-0000-4000-8000-000000000002',
      platform: 'kraken',
      identity: 'hh/kraken',
      address: null,
      chain: null,
      createdOn: new Date('2025-01-01T00:00:00Z'),
      lastSyncedAt: options.lastSyncedAt ?? null,
      sourceOptions: { exchange: 'kraken' },
    },
    credentials: options.credentials ?? { apiKey: FAKE_KRAKEN_KEY, secret: FAKE_KRAKEN_SECRET },
    now: new Date('2025-03-01T00:00:00Z'),
    signal: options.signal ?? new AbortController().signal,
  });
  const collect = async (pages: AsyncIterable<readonly SourceTransaction[]>) => {
    const all: SourceTransaction[] = [];
    for await (const page of pages) all.push(...page);
    return all.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd, t.feeUsd]);
  };

  it('a full first sync: every page of trades and ledger, USD fees, crypto fees and rewards priced, balances reported', async () => {
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('full');
    expect(await collect(result.pages)).toEqual([
      // The USD deposit and the ledger's own trade rows are left out (the trades cover them).
      ['trade:TA1:BTC', 'buy', 'BTC', '0.1', '90000', '36'],
      ['trade:TA2:ETH', 'buy', 'ETH', '2', '3000', '24'],
      ['trade:TA3:BTC', 'sell', 'BTC', '0.04', '100000', '16'],
      ['ledger:LA6', 'withdrawal', 'BTC', '0.02', null, null],
      ['ledger:LA6:fee', 'fee', 'BTC', '0.0001', '95000', null],
      ['ledger:LA2', 'deposit', 'BTC', '0.05', null, null],
      ['ledger:LA7', 'income', 'DOT', '1.5', '5', null],
    ]);
    // 0.1 − 0.04 − 0.02 − 0.0001 + 0.05 = 0.0899 BTC: what Kraken reports; USD is not an asset.
    expect(result.reportedBalances).toEqual(
      new Map([
        ['BTC', '0.0899'],
        ['ETH', '2'],
        ['DOT', '1.5'],
      ]),
    );
    // Two rows a page: trades at offsets 0 and 2, the ledger's 7 rows at 0, 2, 4, 6.
    const paged = kraken.requests.filter((r) => r.path !== '/0/private/BalanceEx');
    expect(
      paged.map((r) => `${r.path.split('/').pop()} ofs=${r.params['ofs']} start=${r.params['start'] ?? '-'}`),
    ).toEqual([
      'Ledgers ofs=0 start=-',
      'Ledgers ofs=2 start=-',
      'Ledgers ofs=4 start=-',
      'Ledgers ofs=6 start=-',
      // Kraken's ledger has no chain txid: the funding lists give it (joined by refid).
      'WithdrawStatus ofs=undefined start=-',
      'DepositStatus ofs=undefined start=-',
      'TradesHistory ofs=0 start=-',
      'TradesHistory ofs=2 start=-',
    ]);
    expect(prices.asked.sort()).toEqual(['BTC 2025-02-10', 'DOT 2025-02-15']);
  });

  /** Whether the account would need review: the refresh's reconciliation of these legs and balances. */
  const reviewOf = (legs: readonly SourceTransaction[], reported: ReadonlyMap<string, string> | null) => {
    const [snapshot] = computeBalanceSnapshots({
      entries: legs.map((tx) => ({
        accountId: 'a',
        transactionId: tx.transactionId,
        symbol: tx.symbol,
        direction: tx.direction,
        amount: tx.amount,
        priceUsd: tx.priceUsd ?? '0',
        ...(tx.feeUsd === null ? {} : { feeUsd: tx.feeUsd }),
        timestamp: tx.occurredAt,
      })),
      accountIds: ['a'],
      pricesUsd: new Map(),
      reportedBalances: new Map([['a', reported ? Object.fromEntries(reported) : null]]),
      computedAt: new Date('2025-04-01T00:00:00Z'),
    });
    return reconciliationReviewReason(reconcileBalances(snapshot!.reportedBalances!, snapshot!.assets));
  };
  const legsOf = async (result: Awaited<ReturnType<ExchangeConnector['fetch']>>) => {
    if (result.status !== 'ready') throw new Error('expected ready');
    const all: SourceTransaction[] = [];
    for await (const page of result.pages) all.push(...page);
    return all;
  };

  it('Kraken Earn allocation moves (a −0.5/+0.5 earn allocation pair) are no income; only the earn reward is, and the balances agree with Kraken', async () => {
    kraken.trades = new Map([
      trade('TE1', 'XETHZUSD', 'buy', '2025-03-01T10:00:00Z', '1.0', '2000.00', '2000.00', '8.00'),
    ]);
    kraken.ledger = new Map([
      entry('LE1', 'deposit', 'ZUSD', '2025-02-28T09:00:00Z', '2008.0000'),
      entry('LE2', 'trade', 'ZUSD', '2025-03-01T10:00:00Z', '-2000.0000', '8.0000', { refid: 'TE1' }),
      entry('LE3', 'trade', 'XETH', '2025-03-01T10:00:00Z', '1.0000000000', undefined, { refid: 'TE1' }),
      // Half the ETH allocated to a bonded Earn strategy: out of spot, into earn. Both legs are
      // type earn, subtype allocation (Kraken's Ledgers shape), the same ETH, another wallet.
      entry('LE4', 'earn', 'XETH', '2025-03-02T10:00:00Z', '-0.5000000000', undefined, {
        subtype: 'allocation',
        refid: 'ALLOC1',
        wallet: 'spot / main',
      }),
      entry('LE5', 'earn', 'XETH', '2025-03-02T10:00:00Z', '0.5000000000', undefined, {
        subtype: 'allocation',
        refid: 'ALLOC1',
        wallet: 'earn / bonded',
      }),
      // The strategy's reward: the only income.
      entry('LE6', 'earn', 'XETH', '2025-03-05T00:00:00Z', '0.0010000000', undefined, {
        subtype: 'reward',
        wallet: 'earn / bonded',
      }),
    ]);
    kraken.balances = new Map([
      ['ZUSD', '0.0000'],
      ['XETH', '1.0010000000'],
    ]);
    const result = await connector().fetch(request());
    const legs = await legsOf(result);
    expect(legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd])).toEqual([
      ['trade:TE1:ETH', 'buy', 'ETH', '1', '2000'],
      ['ledger:LE6', 'income', 'ETH', '0.001', '2200'],
    ]);
    // 1 + 0.001 ETH: what Kraken reports, so no review (both legs as income made it 2.001).
    expect(result.status === 'ready' && result.reportedBalances).toEqual(new Map([['ETH', '1.001']]));
    expect(reviewOf(legs, result.status === 'ready' ? result.reportedBalances : null)).toBeNull();
  });

  it('staking and earn assets with suffixes (ETH2.S, DOT.S, XBT.M, USDC.F) are their base asset in Ledgers and BalanceEx; the wallets of one asset are summed against the history', async () => {
    kraken.trades = new Map([
      trade('TS1', 'DOTUSD', 'buy', '2025-03-01T10:00:00Z', '10.0', '5.0000', '50.0000', '0.2000'),
      trade('TS2', 'XETHZUSD', 'buy', '2025-03-01T11:00:00Z', '1.0', '2000.00', '2000.00', '8.00'),
    ]);
    kraken.ledger = new Map([
      // Legacy staking: DOT moved to its staking wallet (a transfer pair), rewarded there.
      entry('LS1', 'transfer', 'DOT', '2025-03-02T00:00:00Z', '-10.0000000000', undefined, {
        subtype: 'spottostaking',
      }),
      entry('LS2', 'transfer', 'DOT.S', '2025-03-02T00:00:00Z', '10.0000000000', undefined, {
        subtype: 'stakingfromspot',
      }),
      entry('LS3', 'staking', 'DOT.S', '2025-03-06T00:00:00Z', '0.1000000000'),
      // ETH staked (ETH2.S), migrated to Earn in Kraken's words, rewarded as ETH2.S.
      entry('LS4', 'earn', 'XETH', '2025-03-03T00:00:00Z', '-0.5000000000', undefined, {
        subtype: 'migration',
      }),
      entry('LS5', 'earn', 'ETH2.S', '2025-03-03T00:00:00Z', '0.5000000000', undefined, {
        subtype: 'migration',
      }),
      entry('LS6', 'staking', 'ETH2.S', '2025-03-07T00:00:00Z', '0.0020000000'),
      // Opt-in rewards on BTC, paid into XBT.M.
      entry('LS7', 'staking', 'XBT.M', '2025-03-07T00:00:00Z', '0.0001000000'),
      // USDC deposited, auto-allocated to Kraken Rewards (USDC.F), rewarded there; then 20 of it
      // allocated to a bonded strategy (USDC.B is not listed by Assets: still USDC).
      entry('LS8', 'deposit', 'USDC', '2025-03-04T00:00:00Z', '100.00000000'),
      entry('LS9', 'earn', 'USDC', '2025-03-04T01:00:00Z', '-100.00000000', undefined, {
        subtype: 'autoallocation',
      }),
      entry('LS10', 'earn', 'USDC.F', '2025-03-04T01:00:00Z', '100.00000000', undefined, {
        subtype: 'autoallocation',
      }),
      entry('LS11', 'earn', 'USDC.F', '2025-03-07T00:00:00Z', '0.50000000', undefined, {
        subtype: 'reward',
      }),
      entry('LS12', 'earn', 'USDC.F', '2025-03-08T00:00:00Z', '-20.00000000', undefined, {
        subtype: 'allocation',
      }),
      entry('LS13', 'earn', 'USDC.B', '2025-03-08T00:00:00Z', '20.00000000', undefined, {
        subtype: 'allocation',
      }),
    ]);
    kraken.balances = new Map([
      ['ZUSD', '0.0000'],
      ['DOT', '0.0000000000'],
      ['DOT.S', '10.1000000000'],
      ['XETH', '0.5000000000'],
      ['ETH2.S', '0.5020000000'],
      ['XBT.M', '0.0001000000'],
      ['USDC', '0.00000000'],
      ['USDC.F', '80.50000000'],
      ['USDC.B', '20.00000000'],
    ]);
    const result = await connector().fetch(request());
    const legs = await legsOf(result);
    expect(legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd])).toEqual([
      ['trade:TS1:DOT', 'buy', 'DOT', '10', '5'],
      ['trade:TS2:ETH', 'buy', 'ETH', '1', '2000'],
      ['ledger:LS8', 'deposit', 'USDC', '100', null],
      ['ledger:LS3', 'income', 'DOT', '0.1', '4.5'],
      ['ledger:LS11', 'income', 'USDC', '0.5', '1'],
      ['ledger:LS6', 'income', 'ETH', '0.002', '2300'],
      ['ledger:LS7', 'income', 'BTC', '0.0001', '88000'],
    ]);
    // Each asset's wallets summed: DOT.S; XETH + ETH2.S; XBT.M; USDC + USDC.F + USDC.B.
    expect(result.status === 'ready' && result.reportedBalances).toEqual(
      new Map([
        ['DOT', '10.1'],
        ['ETH', '1.002'],
        ['BTC', '0.0001'],
        ['USDC', '100.5'],
      ]),
    );
    expect(reviewOf(legs, result.status === 'ready' ? result.reportedBalances : null)).toBeNull();
  });

  it('an asset the market store does not know fails nothing: its reward is kept without a price (a deposit of unknown basis, flagged like an unknown token), the rest is priced', async () => {
    kraken.trades = new Map();
    kraken.ledger = new Map([
      entry('LN1', 'staking', 'NEWCOIN', '2025-03-06T00:00:00Z', '3.0000000000'),
      entry('LN2', 'staking', 'DOT.S', '2025-03-06T00:00:00Z', '0.1000000000'),
      // A withdrawal of it with a fee in it: the fee leaves unvalued, as the coins do.
      entry('LN3', 'withdrawal', 'NEWCOIN', '2025-03-07T00:00:00Z', '-1.0000000000', '0.0100000000'),
    ]);
    kraken.balances = new Map([
      ['NEWCOIN', '1.9900000000'],
      ['DOT.S', '0.1000000000'],
    ]);
    const result = await connector().fetch(request());
    const legs = await legsOf(result);
    expect(legs.map((t) => [t.transactionId, t.direction, t.symbol, t.amount, t.priceUsd])).toEqual([
      ['ledger:LN1', 'deposit', 'NEWCOIN', '3', null],
      ['ledger:LN2', 'income', 'DOT', '0.1', '4.5'],
      ['ledger:LN3', 'withdrawal', 'NEWCOIN', '1', null],
      ['ledger:LN3:fee', 'withdrawal', 'NEWCOIN', '0.01', null],
    ]);
    expect(reviewOf(legs, result.status === 'ready' ? result.reportedBalances : null)).toBeNull();
    // A known asset without a stored price that day still fails the sync (a gap in the market
    // history is not guessed over): DOT on 2025-03-08.
    kraken.ledger.set(...entry('LN4', 'staking', 'DOT.S', '2025-03-08T00:00:00Z', '0.1000000000'));
    await expect(connector().fetch(request())).rejects.toThrow(
      'No USD price for DOT on 2025-03-08 (item LN4); it is not guessed. The market history must cover it.',
    );
  });

  it('a withdrawal and a deposit with a chain txid (WithdrawStatus/DepositStatus, joined by refid) are transfer legs with the chain id; the fee stays a fee', async () => {
    const out = `0x${'AB'.repeat(32)}`; // an upper-case, 0x-prefixed hash is normalized
    const incoming = 'cd'.repeat(32);
    kraken.withdrawals = [
      krakenMovement('R-LA6', 'XXBT', '2025-02-10T12:00:00Z', '0.0200000000', '0.0001000000', out),
      // A movement the ledger does not list (another refid) changes nothing.
      krakenMovement('R-ELSEWHERE', 'XXBT', '2025-02-11T12:00:00Z', '1.0', '0.0001', 'ef'.repeat(32)),
    ];
    kraken.deposits = [
      krakenMovement('R-LA2', 'XXBT', '2025-02-12T09:00:00Z', '0.0500000000', '0', incoming),
    ];
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const all: SourceTransaction[] = [];
    for await (const page of result.pages) all.push(...page);
    const ledgerLegs = all
      .filter((t) => t.transactionId.startsWith('ledger:'))
      .map((t) => [t.transactionId, t.direction, t.amount, t.priceUsd, t.transferId]);
    expect(ledgerLegs).toEqual([
      // The transfer_out is what left for the chain; the fee is its own disposal, as before.
      ['ledger:LA6', 'transfer_out', '0.02', null, `chain:${'ab'.repeat(32)}`],
      ['ledger:LA6:fee', 'fee', '0.0001', '95000', null],
      ['ledger:LA2', 'transfer_in', '0.05', null, `chain:${incoming}`],
      ['ledger:LA7', 'income', '1.5', '5', null],
    ]);
    expect(
      all.filter((t) => !t.transactionId.startsWith('ledger:')).every((t) => t.transferId === null),
    ).toBe(true);
  });

  it('a key without the funding permission (DepositStatus refused): the sync goes on, that leg without a txid', async () => {
    kraken.withdrawals = [
      krakenMovement('R-LA6', 'XXBT', '2025-02-10T12:00:00Z', '0.02', '0.0001', 'ab'.repeat(32)),
    ];
    kraken.deposits = [krakenMovement('R-LA2', 'XXBT', '2025-02-12T09:00:00Z', '0.05', '0', 'cd'.repeat(32))];
    kraken.fail({ path: /DepositStatus/, errors: ['EGeneral:Permission denied'] });
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const all: SourceTransaction[] = [];
    for await (const page of result.pages) all.push(...page);
    expect(
      all
        .filter((t) => t.symbol === 'BTC' && t.transactionId.startsWith('ledger:'))
        .map((t) => [t.transactionId, t.direction, t.transferId]),
    ).toEqual([
      ['ledger:LA6', 'transfer_out', `chain:${'ab'.repeat(32)}`],
      ['ledger:LA6:fee', 'fee', null],
      ['ledger:LA2', 'deposit', null],
    ]);
  });

  it('an incremental sync asks only from the last sync less a day, and says it is incremental', async () => {
    const lastSyncedAt = new Date('2025-02-05T00:00:00Z');
    kraken.trades.set(
      ...trade('TA4', 'XETHXXBT', 'sell', '2025-02-20T08:00:00Z', '0.5', '0.03', '0.015', '0.00004'),
    );
    PRICES['BTC 2025-02-20'] = '96000';
    try {
      const result = await connector().fetch(request({ lastSyncedAt }));
      if (result.status !== 'ready') throw new Error('expected ready');
      expect(result.mode).toBe('incremental');
      const start = String((lastSyncedAt.getTime() - INCREMENTAL_OVERLAP_MS) / 1000);
      const paged = kraken.requests.filter((r) => r.path !== '/0/private/BalanceEx');
      expect(paged.length).toBeGreaterThan(0);
      expect(paged.every((r) => r.params['start'] === start)).toBe(true);
      expect(await collect(result.pages)).toEqual([
        ['ledger:LA6', 'withdrawal', 'BTC', '0.02', null, null],
        ['ledger:LA6:fee', 'fee', 'BTC', '0.0001', '95000', null],
        ['ledger:LA2', 'deposit', 'BTC', '0.05', null, null],
        ['ledger:LA7', 'income', 'DOT', '1.5', '5', null],
        // ETH sold for BTC: priced at the day's BTC price (0.03 × 96,000 = 2,880 a unit); the BTC
        // received is a buy at the same price; the fee (in BTC, the quote) disposes of BTC.
        ['trade:TA4:BTC', 'buy', 'BTC', '0.015', '96000', null],
        ['trade:TA4:ETH', 'sell', 'ETH', '0.5', '2880', null],
        ['trade:TA4:fee', 'fee', 'BTC', '0.00004', '96000', null],
      ]);
    } finally {
      delete PRICES['BTC 2025-02-20'];
    }
  });

  it('a crypto-for-crypto trade on a day without a stored price fails the sync, naming it', async () => {
    kraken.trades.set(
      ...trade('TA4', 'XETHXXBT', 'sell', '2025-02-20T08:00:00Z', '0.5', '0.03', '0.015', '0.00004'),
    );
    await expect(connector().fetch(request())).rejects.toThrow(
      new SourceUnavailableError(
        'No USD price for BTC on 2025-02-20 (item TA4); it is not guessed. The market history must cover it.',
      ),
    );
  });

  it('verifies credentials with a signed balance call; a revoked key is refused (reconnect)', async () => {
    await expect(connector().verifyCredentials(request())).resolves.toBeUndefined();
    expect(kraken.requests.map((r) => r.path)).toEqual(['/0/private/BalanceEx']);
    kraken.keys.delete(FAKE_KRAKEN_KEY);
    await expect(connector().verifyCredentials(request())).rejects.toBeInstanceOf(SourceAuthorizationError);
    await expect(connector().fetch(request())).rejects.toThrow(
      /kraken refused the API key \(AuthenticationError\)/,
    );
  });

  it('a wrong secret fails the fake’s signature check: refused, and the secret is in no message', async () => {
    const wrong = Buffer.alloc(64, 9).toString('base64');
    const error = await connector()
      .fetch(request({ credentials: { apiKey: FAKE_KRAKEN_KEY, apiSecret: wrong } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceAuthorizationError);
    expect(String((error as Error).message)).not.toContain(wrong);
  });

  it.each([
    ['HTTP 429', { status: 429 }, /rate limiting/],
    ['EAPI:Rate limit exceeded', { errors: ['EAPI:Rate limit exceeded'] }, /rate limiting/],
    ['HTTP 503', { status: 503, body: 'Service Unavailable' }, /unreachable or failing/],
    ['malformed JSON', { body: '{"error":[],"result":{"trades":' }, /not JSON|could not be read/],
  ])('%s mid-sync: SourceUnavailableError (retried later, old data kept)', async (_case, fault, message) => {
    kraken.fail({ path: /TradesHistory/, ...fault });
    const error = await connector()
      .fetch(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(message);
  });

  it('a request that hangs mid-sync times out: SourceUnavailableError', async () => {
    kraken.fail({ path: /Ledgers/, hang: true });
    const started = Date.now();
    const error = await connector(400)
      .fetch(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(/did not answer in time \(RequestTimeout\)/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops between requests once the engine gives up', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(connector().fetch(request({ signal: abort.signal }))).rejects.toThrow(/abandoned/);
  });

  it('describes the named platforms and the generic ones; maps platforms to ccxt ids; names a missing credential', () => {
    const exchange = connector();
    expect(exchange.describe().linking).toEqual({
      platforms: ['coinbase', 'kraken', 'gemini', 'binanceus', 'bitstamp', 'okx', 'kucoin'],
      accepts: ['credentials'],
    });
    expect(exchange.accountOptions({}, { accountId: 'a', platform: 'coinbase' })).toEqual({
      exchange: 'coinbase',
    });
    expect(exchange.accountOptions({}, { accountId: 'a', platform: 'kucoin' })).toEqual({
      exchange: 'kucoin',
    });
    const fields = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return [(error as DomainError).fieldErrors, (error as Error).message];
      }
      return null;
    };
    expect(
      JSON.stringify(fields(() => exchange.accountOptions({}, { accountId: 'a', platform: 'nasdaq' }))),
    ).toMatch(/platform/);
    expect(JSON.stringify(fields(() => exchange.checkCredentials({ apiKey: 'k' })))).toMatch(
      /credentials\.secret/,
    );
    expect(JSON.stringify(fields(() => exchange.checkCredentials({ secret: 's' })))).toMatch(
      /credentials\.apiKey/,
    );
    expect(
      JSON.stringify(fields(() => exchange.checkCredentials({ apiKey: 'k', secret: 's', pin: '1' }))),
    ).toMatch(/credentials\.pin/);
    expect(
      fields(() => exchange.checkCredentials({ apiKey: 'k', apiSecret: 's', passphrase: 'p' })),
    ).toBeNull();
  });

  it('an exchange that needs a passphrase (okx) without one is refused before any request', async () => {
    const req = request();
    const okx = { ...req, account: { ...req.account, platform: 'okx', sourceOptions: { exchange: 'okx' } } };
    await expect(connector().verifyCredentials(okx)).rejects.toThrow(/okx needs credentials\.password/);
  });

  it('moves every API URL of an exchange to the override host, keeping paths', () => {
    expect(
      overrideApiUrls(
        {
          public: 'https://api.kraken.com',
          sapi: 'https://api.binance.us/sapi/v1',
          rest: 'https://{hostname}',
          nested: { a: 'https://x.io/p' },
        },
        'http://127.0.0.1:9/',
      ),
    ).toEqual({
      public: 'http://127.0.0.1:9',
      sapi: 'http://127.0.0.1:9/sapi/v1',
      rest: 'http://127.0.0.1:9',
      nested: { a: 'http://127.0.0.1:9/p' },
    });
  });
  describe('exchanges paged by time, and those that need a symbol (a stub exchange object)', () => {
    /** A stand-in for a ccxt exchange: five trades, two a page from `since` on, a JSON answer each. */
    const stub = (needsSymbol: boolean) => {
      const times = [1, 2, 3, 4, 5].map((d) => Date.parse(`2025-01-0${d}T00:00:00Z`));
      const exchange = {
        id: 'gemini',
        has: { fetchMyTrades: true },
        last_json_response: undefined as unknown,
        markets: {
          'BTC/USD': { spot: true, base: 'BTC', quote: 'USD', symbol: 'BTC/USD' },
          'DOGE/USD': { spot: true, base: 'DOGE', quote: 'USD', symbol: 'DOGE/USD' },
        },
        asked: [] as string[],
        fetchMyTrades: async (symbol: string | undefined, since: number | undefined) => {
          const { ArgumentsRequired } = await import('ccxt');
          exchange.asked.push(
            `${symbol ?? '*'} ${since === undefined ? '-' : new Date(since).toISOString()}`,
          );
          if (needsSymbol && symbol === undefined)
            throw new ArgumentsRequired('gemini fetchMyTrades() requires a symbol');
          exchange.last_json_response = [];
          if (symbol === 'DOGE/USD') return [];
          return times
            .filter((t) => since === undefined || t >= since)
            .slice(0, 2)
            .map((t, i) => ({
              id: `T${t}`,
              timestamp: t,
              symbol: 'BTC/USD',
              side: 'buy',
              amount: 0.1 + i,
              price: 100,
            }));
        },
      };
      return exchange;
    };
    const trades = (exchange: ReturnType<typeof stub>, held: string[]) =>
      (
        connector() as unknown as {
          trades(
            e: unknown,
            since: number | undefined,
            s: AbortSignal,
            held: Set<string>,
          ): Promise<{ id: string }[]>;
        }
      ).trades(exchange, undefined, new AbortController().signal, new Set(held));

    it('Bitstamp (ccxt drops `since` there) is paged by offset, 1,000 rows a page, until a short page', async () => {
      const asked: string[] = [];
      const exchange = {
        id: 'bitstamp',
        has: { fetchMyTrades: true },
        last_json_response: undefined as unknown,
        markets: {},
        fetchMyTrades: async (
          _symbol: unknown,
          _since: unknown,
          _limit: unknown,
          params: Record<string, number>,
        ) => {
          asked.push(`offset=${params['offset']} limit=${params['limit']}`);
          const rows = params['offset']! < 2000 ? 1000 : 3;
          exchange.last_json_response = Array.from({ length: rows }, () => ({}));
          return Array.from({ length: rows }, (_, i) => ({
            id: `B${params['offset']! + i}`,
            timestamp: Date.parse('2025-01-01T00:00:00Z') + params['offset']! + i,
            symbol: 'BTC/USD',
            side: 'buy',
            amount: 1,
            price: 1,
          }));
        },
      };
      const found = await trades(exchange as unknown as ReturnType<typeof stub>, []);
      expect(found).toHaveLength(2003);
      expect(asked).toEqual(['offset=0 limit=1000', 'offset=1000 limit=1000', 'offset=2000 limit=1000']);
    });

    it('a first sync starts at 2009-01-03 and moves `since` past each page until nothing newer comes', async () => {
      const exchange = stub(false);
      const found = await trades(exchange, []);
      expect(found.map((t) => t.id)).toHaveLength(5);
      expect(exchange.asked).toEqual([
        '* 2009-01-03T00:00:00.000Z',
        '* 2025-01-02T00:00:00.001Z',
        '* 2025-01-04T00:00:00.001Z',
        '* 2025-01-05T00:00:00.001Z',
      ]);
    });

    it('an exchange that needs a symbol is asked per market touching a currency held or moved, then per market touching one its trades brought', async () => {
      const exchange = stub(true);
      const found = await trades(exchange, ['BTC']);
      expect(found).toHaveLength(5);
      expect(exchange.asked[0]).toBe('* 2009-01-03T00:00:00.000Z');
      const markets = exchange.asked.slice(1).map((a) => a.split(' ')[0]);
      // BTC/USD (BTC held) over its pages; then DOGE/USD: USD came in with the BTC/USD trades.
      expect(markets).toEqual(['BTC/USD', 'BTC/USD', 'BTC/USD', 'BTC/USD', 'DOGE/USD']);
    });
  });
  it('the named exchanges are ccxt classes needing exactly the credentials the table says', async () => {
    const ccxt = (await import('ccxt')) as unknown as Record<
      string,
      new () => { requiredCredentials: Record<string, boolean> }
    >;
    for (const [platform, { ccxtId, credentials }] of Object.entries(NAMED_EXCHANGES)) {
      const required = Object.entries(new ccxt[ccxtId]!().requiredCredentials)
        .filter(([, needed]) => needed)
        .map(([field]) => field);
      expect([platform, required.sort()]).toEqual([platform, [...credentials].sort()]);
    }
  });
  it('EXCHANGE_GENERIC_IDS must name ccxt exchanges (checked at start-up)', async () => {
    await expect(checkGenericIds([])).resolves.toBeUndefined();
    await expect(checkGenericIds(['kucoin', 'bitfinex'])).resolves.toBeUndefined();
    await expect(checkGenericIds(['kucoin', 'nasdaq'])).rejects.toThrow(
      'EXCHANGE_GENERIC_IDS: nasdaq is not a ccxt exchange id.',
    );
  });
});
