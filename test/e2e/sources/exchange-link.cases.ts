/**
 * A partner links a Kraken account over REST (issue 15 item 1): the `exchange` source runs ccxt's
 * real Kraken class against a local fake Kraken (EXCHANGE_API_URLS) that checks every request's
 * signature. The account syncs; balances, transactions, the 2025 gains and the checksum are read
 * with figures worked by hand from the fake's data (test/fakes/kraken-fake-server.ts); a refused
 * key answers 422; a revoked key puts the account in reconnect_required and a rate-limited
 * exchange in error, the old data kept both times; the next sync is incremental.
 *
 * Worked figures (FIFO, the default method):
 * - TA1 buy 0.1 BTC at 90,000 + 36 fee → lot A: 0.1 BTC, basis 9,036.
 * - TA2 buy 2 ETH at 3,000 + 24 fee → lot B: 2 ETH, basis 6,024.
 * - TA3 sell 0.04 BTC at 100,000 − 16 fee: proceeds 3,984, basis 0.4 × 9,036 = 3,614.4, gain 369.6.
 * - LA6 withdrawal 0.02 BTC: a removal (basis 1,807.2 leaves), not a disposal; its 0.0001 BTC
 *   fee is a disposal at the day's stored BTC price p: proceeds 0.0001p, basis 9.036.
 * - LA2 deposit 0.05 BTC (unknown basis); LA7 1.5 DOT staking: income at the day's DOT price.
 * BTC left: 0.1 − 0.04 − 0.02 − 0.0001 + 0.05 = 0.0899, as Kraken reports it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../src/common/ports/market-prices.port.js';
import { bearer } from '../../factories/accounts.factory.js';
import {
  FAKE_KRAKEN_KEY,
  FAKE_KRAKEN_SECRET,
  FakeKraken,
  KRAKEN_BALANCES,
  KRAKEN_LEDGER,
  KRAKEN_TRADES,
  krakenEntry,
  krakenTrade,
} from '../../fakes/kraken-fake-server.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';
import { relays } from './fake-relay.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/verify-checksum.mjs', import.meta.url));
const IDENTITY = 'hh-7/kraken';

describe('linking a Kraken account through ccxt (e2e, fake Kraken)', () => {
  const kraken = new FakeKraken();
  let t: SuiteApp;
  let partner: string;
  let admin: string;
  let accountId: string;

  beforeAll(async () => {
    const url = await kraken.start();
    kraken.trades = new Map(KRAKEN_TRADES);
    kraken.ledger = new Map(KRAKEN_LEDGER);
    kraken.balances = new Map(KRAKEN_BALANCES);
    kraken.pageSize = 3;
    relays.kraken.to(url);
    // The partner is the suite's own tenant's.
    t = await startSuite(
      { EXCHANGE_API_URLS: JSON.stringify({ kraken: relays.kraken.url }), EXCHANGE_RATE_LIMIT_MS: '1' },
      { clock: new ManualClock(new Date('2026-03-15T12:00:00.000Z')), tenant: true },
    );
    [partner, admin] = await Promise.all([t.token(), t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret)]);
  });
  afterAll(async () => {
    await t?.close();
    await kraken.stop();
  });

  const get = (path: string) => t.http.get(path).set(bearer(partner));
  const link = (body: object) => t.http.post('/v1/api/accounts').set(bearer(partner)).send(body);
  const problem = (res: {
    body: { responseException: { exceptionMessage: { reason?: string; errors: Record<string, string[]> } } };
  }) => res.body.responseException.exceptionMessage;
  const adminRefresh = async () =>
    (
      await t.http
        .post(`/admin/accounts/${accountId}/refresh?tenant=${t.tenant!.slug}`)
        .set(bearer(admin))
        .expect(200)
    ).body;
  const priceOn = async (symbol: string, date: string) =>
    new Decimal((await t.app.get<MarketPricesPort>(MARKET_PRICES).pricesOnDate([symbol], date)).get(symbol)!);
  const rows = async () =>
    (
      (await get(`/v1/api/account/${accountId}/transactions`).expect(200)).body.result.transactions as Record<
        string,
        string | null
      >[]
    ).map((tx) => ({
      id: tx.transactionId,
      direction: tx.direction,
      symbol: tx.symbol,
      amount: tx.amount,
      price: tx.price === null ? null : new Decimal(tx.price!).toString(),
      timestamp: tx.timestamp,
    }));

  async function untilSettled(id: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const res = await get('/v1/api/accounts?limit=200').expect(200);
      const account = (res.body.result.accounts as Record<string, unknown>[]).find((a) => a.accountId === id);
      if (!account) throw new Error(`account ${id} is not listed`);
      if (account.syncStatus !== 'syncing') return account;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`account ${id} is still syncing`);
  }

  it('links with the read-only key: 202 syncing, the key checked with Kraken (signed), then synced with Kraken’s balances', async () => {
    const res = await link({
      platform: 'kraken',
      identity: IDENTITY,
      credentials: { apiKey: FAKE_KRAKEN_KEY, secret: FAKE_KRAKEN_SECRET },
    }).expect(202);
    expect(res.body.result).toMatchObject({
      platform: 'kraken',
      syncStatus: 'syncing',
      connectionStatus: 'connected',
    });
    expect(JSON.stringify(res.body)).not.toContain(FAKE_KRAKEN_SECRET);
    accountId = res.body.result.accountId;
    expect(await untilSettled(accountId)).toMatchObject({
      syncStatus: 'synced',
      balanceSource: 'source_reported',
    });
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT source, source_options, credentials_encrypted FROM account WHERE id = $1', [accountId]);
    expect(row.source).toBe('exchange');
    expect(row.source_options).toEqual({ exchange: 'kraken' });
    expect(row.credentials_encrypted).not.toContain(FAKE_KRAKEN_SECRET);
    // Three rows a page: the 7 ledger rows took 3 pages, the 3 trades 1.
    expect(
      kraken.requests.filter((r) => r.path === '/0/private/Ledgers').map((r) => r.params['ofs']),
    ).toEqual(['0', '3', '6']);
  });

  it('reads the transactions: buys and the sale with USD fees, the withdrawal and its BTC fee, the deposit, the staking income', async () => {
    const p = await priceOn('BTC', '2025-02-10');
    const dot = await priceOn('DOT', '2025-02-15');
    const list = await rows();
    expect(list).toEqual(
      expect.arrayContaining([
        {
          id: 'trade:TA1:BTC',
          direction: 'buy',
          symbol: 'BTC',
          amount: '0.1',
          price: '90000',
          timestamp: '2025-01-05T10:00:00.000Z',
        },
        {
          id: 'trade:TA2:ETH',
          direction: 'buy',
          symbol: 'ETH',
          amount: '2',
          price: '3000',
          timestamp: '2025-01-06T10:00:00.000Z',
        },
        {
          id: 'trade:TA3:BTC',
          direction: 'sell',
          symbol: 'BTC',
          amount: '0.04',
          price: '100000',
          timestamp: '2025-02-01T10:00:00.000Z',
        },
        {
          id: 'ledger:LA6',
          direction: 'withdrawal',
          symbol: 'BTC',
          amount: '0.02',
          price: null,
          timestamp: '2025-02-10T12:00:00.000Z',
        },
        {
          id: 'ledger:LA6:fee',
          direction: 'fee',
          symbol: 'BTC',
          amount: '0.0001',
          price: p.toString(),
          timestamp: '2025-02-10T12:00:00.000Z',
        },
        {
          id: 'ledger:LA2',
          direction: 'deposit',
          symbol: 'BTC',
          amount: '0.05',
          price: null,
          timestamp: '2025-02-12T09:00:00.000Z',
        },
        {
          id: 'ledger:LA7',
          direction: 'income',
          symbol: 'DOT',
          amount: '1.5',
          price: dot.toString(),
          timestamp: '2025-02-15T00:00:00.000Z',
        },
      ]),
    );
    expect(list).toHaveLength(7);
  });

  it('reads the balances: quantities as Kraken reports them, basis and realized gains worked by hand', async () => {
    const p = await priceOn('BTC', '2025-02-10');
    const balances = (await get(`/v1/api/account/${accountId}/balances`).expect(200)).body.result
      .balances as Record<string, string>[];
    const of = (symbol: string) => balances.find((b) => b.symbol === symbol)!;
    expect(new Decimal(of('BTC').balance).toString()).toBe('0.0899');
    expect(new Decimal(of('ETH').balance).toString()).toBe('2');
    expect(new Decimal(of('DOT').balance).toString()).toBe('1.5');
    expect(new Decimal(of('ETH').costBasis).toString()).toBe('6024');
    // 369.6 on the sale, 0.0001p − 9.036 on the withdrawal fee; the withdrawal itself realizes
    // nothing. Balances carry cents (the gains report below has the exact figures).
    expect(new Decimal(of('BTC').realizedGainLoss).toFixed(2)).toBe(
      new Decimal('369.6').plus(p.times('0.0001')).minus('9.036').toFixed(2),
    );
  });

  it('reads the 2025 gains: the sale and the withdrawal fee are the disposals; the staking reward is income', async () => {
    const p = await priceOn('BTC', '2025-02-10');
    const dot = await priceOn('DOT', '2025-02-15');
    const res = await get(`/taip/gains-report?tax_year=2025&account_id=${accountId}`).expect(200);
    const report = res.body.result ?? res.body;
    expect(new Decimal(report.exact.proceeds_usd).toString()).toBe(
      new Decimal(3984).plus(p.times('0.0001')).toString(),
    );
    expect(new Decimal(report.exact.cost_basis_usd).toString()).toBe('3623.436');
    expect(new Decimal(report.exact.net_gains_usd).toString()).toBe(
      new Decimal('360.564').plus(p.times('0.0001')).toString(),
    );
    expect(new Decimal(report.ordinary_income.replace(/[$,]/g, '')).toFixed(2)).toBe(
      dot.times('1.5').toFixed(2),
    );
  });

  it('reads a checksum equal to the reference script over the exported rows', async () => {
    const transactions = (await get(`/v1/api/account/${accountId}/transactions`).expect(200)).body.result
      .transactions;
    const res = await get(`/v1/api/checksum?identity=${encodeURIComponent(IDENTITY)}`).expect(200);
    expect(res.body.result.rowCount).toBe(7);
    const reference = JSON.parse(
      execFileSync(process.execPath, [SCRIPT, '-'], {
        input: JSON.stringify([{ accountId, transactions }]),
        encoding: 'utf8',
      }),
    );
    expect(reference).toEqual({ checksum: res.body.result.checksum, rowCount: 7 });
  });

  it('the next sync is incremental: it asks from the last sync less a day and adds only the new trade', async () => {
    kraken.requests.length = 0;
    kraken.trades.set(
      ...krakenTrade('TA9', 'XXBTZUSD', 'buy', '2026-03-15T06:00:00Z', '0.01', '80000.0', '800.0', '3.2'),
    );
    kraken.balances.set('XXBT', '0.0999000000');
    const body = await adminRefresh();
    expect(body).toMatchObject({ status: 'refreshed', inserted: 1, deleted: 0 });
    const since = String(Date.parse('2026-03-14T12:00:00Z') / 1000);
    const paged = kraken.requests.filter((r) => r.path !== '/0/private/BalanceEx');
    expect(paged.map((r) => r.params['start'])).toEqual(paged.map(() => since));
    expect(await rows()).toHaveLength(8);
  });

  it('a rate-limited Kraken: the refresh fails as error (retried with backoff), the data stays', async () => {
    kraken.fail({ path: /TradesHistory/, status: 429 });
    const body = await adminRefresh();
    expect(body).toMatchObject({ status: 'failed', account: { syncStatus: 'error' } });
    expect(body.message).toMatch(/rate limiting/);
    expect(await rows()).toHaveLength(8);
  });

  it('a revoked key: reconnect_required, the data stays; a new key reconnects', async () => {
    kraken.keys.delete(FAKE_KRAKEN_KEY);
    const body = await adminRefresh();
    expect(body).toMatchObject({ status: 'failed', account: { syncStatus: 'reconnect_required' } });
    expect(await rows()).toHaveLength(8);
    kraken.keys.set('rotated-key', FAKE_KRAKEN_SECRET);
    await t.http
      .put(`/v1/api/accounts/${accountId}/credentials`)
      .set(bearer(partner))
      .send({ credentials: { apiKey: 'rotated-key', apiSecret: FAKE_KRAKEN_SECRET } })
      .expect(202);
    expect(await untilSettled(accountId)).toMatchObject({
      syncStatus: 'synced',
      connectionStatus: 'connected',
    });
  });

  it('Kraken Earn and staking wallets (issue 27): an earn allocation pair is no income, ETH2.S and DOT.S are ETH and DOT, and the balances agree with Kraken (no needs_review)', async () => {
    kraken.keys.set(FAKE_KRAKEN_KEY, FAKE_KRAKEN_SECRET); // revoked by the case above
    kraken.trades = new Map([
      krakenTrade('TK1', 'XETHZUSD', 'buy', '2025-03-01T10:00:00Z', '1.0', '2000.00', '2000.00', '8.00'),
      krakenTrade('TK2', 'DOTUSD', 'buy', '2025-03-01T11:00:00Z', '10.0', '5.0000', '50.0000', '0.2000'),
    ]);
    kraken.ledger = new Map([
      krakenEntry('LK1', 'earn', 'XETH', '2025-03-02T10:00:00Z', '-0.5000000000', undefined, {
        subtype: 'allocation',
      }),
      krakenEntry('LK2', 'earn', 'XETH', '2025-03-02T10:00:00Z', '0.5000000000', undefined, {
        subtype: 'allocation',
        wallet: 'earn / bonded',
      }),
      krakenEntry('LK3', 'earn', 'XETH', '2025-03-05T00:00:00Z', '0.0010000000', undefined, {
        subtype: 'reward',
      }),
      krakenEntry('LK4', 'earn', 'XETH', '2025-03-06T00:00:00Z', '-0.2000000000', undefined, {
        subtype: 'migration',
      }),
      krakenEntry('LK5', 'earn', 'ETH2.S', '2025-03-06T00:00:00Z', '0.2000000000', undefined, {
        subtype: 'migration',
      }),
      krakenEntry('LK6', 'staking', 'ETH2.S', '2025-03-07T00:00:00Z', '0.0020000000'),
      krakenEntry('LK7', 'transfer', 'DOT', '2025-03-02T00:00:00Z', '-10.0000000000', undefined, {
        subtype: 'spottostaking',
      }),
      krakenEntry('LK8', 'transfer', 'DOT.S', '2025-03-02T00:00:00Z', '10.0000000000', undefined, {
        subtype: 'stakingfromspot',
      }),
      krakenEntry('LK9', 'staking', 'DOT.S', '2025-03-06T00:00:00Z', '0.1000000000'),
    ]);
    kraken.balances = new Map([
      ['XETH', '0.8010000000'],
      ['ETH2.S', '0.2020000000'],
      ['DOT.S', '10.1000000000'],
    ]);
    const res = await link({
      platform: 'kraken',
      identity: 'hh-7/kraken-earn',
      credentials: { apiKey: FAKE_KRAKEN_KEY, secret: FAKE_KRAKEN_SECRET },
    }).expect(202);
    const id = res.body.result.accountId as string;
    expect(await untilSettled(id)).toMatchObject({ syncStatus: 'synced', balanceSource: 'source_reported' });
    const txs = (await get(`/v1/api/account/${id}/transactions`).expect(200)).body.result
      .transactions as Record<string, string>[];
    expect(txs.map((tx) => [tx.transactionId, tx.direction, tx.symbol, tx.amount])).toEqual([
      ['trade:TK1:ETH', 'buy', 'ETH', '1'],
      ['trade:TK2:DOT', 'buy', 'DOT', '10'],
      ['ledger:LK3', 'income', 'ETH', '0.001'],
      ['ledger:LK9', 'income', 'DOT', '0.1'],
      ['ledger:LK6', 'income', 'ETH', '0.002'],
    ]);
    const balances = (await get(`/v1/api/account/${id}/balances`).expect(200)).body.result;
    expect(
      (balances.balances as Record<string, string>[]).map((b) => [
        b.symbol,
        new Decimal(b.balance).toString(),
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['ETH', '1.003'],
        ['DOT', '10.1'],
      ]),
    );
    expect(balances.review).toBeNull();
  });

  it('a key Kraken refuses: 422 credentials_refused, nothing stored', async () => {
    const res = await link({
      platform: 'kraken',
      identity: 'hh-7/refused',
      credentials: { apiKey: 'not-a-kraken-key', secret: FAKE_KRAKEN_SECRET },
    }).expect(422);
    expect(problem(res).reason).toBe('credentials_refused');
    expect(Object.keys(problem(res).errors)).toEqual(['credentials']);
    await get('/v1/api/account/identity/hh-7%2Frefused').expect(404);
  });

  it('a missing secret or an unknown credential field: 400 naming credentials', async () => {
    for (const credentials of [
      { apiKey: FAKE_KRAKEN_KEY },
      { apiKey: FAKE_KRAKEN_KEY, secret: 's', pin: '1' },
    ]) {
      const res = await link({ platform: 'kraken', identity: 'hh-7/bad', credentials }).expect(400);
      expect(Object.keys(problem(res).errors)).toEqual(['credentials']);
    }
  });
});
