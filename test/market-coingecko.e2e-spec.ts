import { ManualClock } from '../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../src/common/ports/market-prices.port.js';
import { deriveScores } from '../src/domain/market/derived-scores.js';
import { annualizedVolatility } from '../src/domain/market/volatility.js';
import { addDays, daysBetween, MarketRefreshService } from '../src/modules/market/index.js';
import {
  catalogAsset,
  MARKET_CATALOG,
  MARKET_REFRESH_JOB,
  MarketRepository,
  CoinGeckoMarketProvider,
  type MarketDataProvider,
} from '../src/modules/market/testing.js';
import {
  CoinGeckoFakeServer,
  FAKE_COINS,
  FAKE_LAST_UPDATED,
  fakeDailyPrice,
} from './fakes/coingecko-fake-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const DAY_MS = 86_400_000;
const utc = (date: Date) => date.toISOString().slice(0, 10);

describe('market data from CoinGecko (fake server, e2e)', () => {
  const fake = new CoinGeckoFakeServer();
  const clock = new ManualClock(new Date());
  let baseUrl: string;
  let t: TestApp;
  let auth: string;
  let refresh: MarketRefreshService;

  beforeAll(async () => {
    baseUrl = await fake.start();
    fake.now = clock.now();
    t = await startTestApp(
      { MARKET_PROVIDER: 'coingecko', COINGECKO_BASE_URL: baseUrl, COINGECKO_API_KEY: 'test-demo-key' },
      { clock },
    );
    auth = `Bearer ${await t.token()}`;
    refresh = t.app.get(MarketRefreshService);
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });
  afterEach(() => fake.clearFailures());

  it('answers 500 (problem+json) while nothing is stored yet, for market data and scores', async () => {
    const res = await t.http.get('/api/crypto-data/bitcoin').set('Authorization', auth).expect(500);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 500,
      detail: expect.stringMatching(/No market data is stored yet/),
    });
    await t.http.get('/api/scores').set('Authorization', auth).expect(500);
    expect(fake.requests).toHaveLength(0); // the request path never calls the provider
  });

  it('refreshes through the SDK: markets for all tracked ids, history since 2020 and raw score inputs', async () => {
    const outcome = await refresh.refreshNow();
    expect(outcome).toMatchObject({ status: 'refreshed', quotedAssets: 3, errors: [] });

    const [markets] = fake.requestsTo(/^\/coins\/markets$/);
    expect(markets.query).toMatchObject({ vs_currency: 'usd', precision: 'full' });
    expect(markets.query.ids.split(',').sort()).toEqual(MARKET_CATALOG.map((a) => a.coingeckoId).sort());
    expect(markets.headers['x-cg-demo-api-key']).toBe('test-demo-key');
    expect(markets.headers['x-cg-pro-api-key']).toBeUndefined();

    const charts = fake.requestsTo(/\/market_chart$/);
    expect(charts.map((r) => r.path).sort()).toEqual(
      ['bitcoin', 'ethereum', 'solana'].map((id) => `/coins/${id}/market_chart`),
    );
    const today = utc(clock.now());
    expect(charts[0].query).toMatchObject({
      vs_currency: 'usd',
      interval: 'daily',
      days: String(daysBetween('2020-01-01', today) + 1),
    });
    expect(fake.requestsTo(/^\/coins\/(?!markets$)[a-z-]+$/)).toHaveLength(3);

    const history = await t.app
      .get<MarketPricesPort>(MARKET_PRICES)
      .dailyHistory(['BTC'], '2019-01-01', today);
    const btc = history.get('BTC')!;
    expect(btc[0].date).toBe('2020-01-01');
    expect(btc).toHaveLength(daysBetween('2020-01-01', today) + 1);
    expect(btc.at(-1)).toEqual({ date: today, priceUsd: '84250.5' });
    expect(btc.at(-2)).toEqual({
      date: addDays(today, -1),
      priceUsd: String(fakeDailyPrice(FAKE_COINS[0], 2)),
    });
  });

  it('serves the stored CoinGecko numbers with provenance; ids it does not have are left out', async () => {
    const res = await t.http
      .get('/api/crypto-data/solana,bitcoin,dogecoin,ethereum')
      .set('Authorization', auth)
      .expect(200);
    expect(res.body.map((r: { symbol: string }) => r.symbol)).toEqual(['SOL', 'BTC', 'ETH']);
    const [sol, btc, eth] = res.body;
    expect(btc).toEqual({
      id: 1,
      symbol: 'BTC',
      name: 'Bitcoin',
      price: 84250.5,
      marketCap: 1_668_000_000_000,
      marketCapRank: 1,
      circulatingSupply: 19_850_000,
      totalSupply: 19_850_000,
      maxSupply: 21_000_000,
      volume24h: 31_000_000_000,
      volatility: expect.any(Number),
      ...deriveScores({
        developer: { githubStars: 79_000, githubForks: 36_500, commitCount4Weeks: 180, contributors: 900 },
        community: { twitterFollowers: 6_900_000, redditSubscribers: 7_600_000 },
        volume24hUsd: 31_000_000_000,
        marketCapUsd: 1_668_000_000_000,
        marketCapRank: 1,
      }),
      lastUpdated: FAKE_LAST_UPDATED,
      source: 'coingecko',
      asOf: clock.now().toISOString(),
      scoreInputsSource: 'coingecko',
    });
    // Volatility from stored history: the 30 days before today plus today's quote.
    const prices = [...Array.from({ length: 30 }, (_, i) => fakeDailyPrice(FAKE_COINS[0], 31 - i)), 84250.5];
    expect(btc.volatility).toBeCloseTo(annualizedVolatility(prices)!, 6);
    expect(eth.maxSupply).toBeNull();
    // CoinGecko no longer returns developer/community data for SOL here: catalog reference counts, labelled.
    expect(sol.scoreInputsSource).toBe('catalog');
    expect(sol.developerScore).toBeGreaterThan(0);
  });

  it('retries a 429 after its Retry-After and then succeeds', async () => {
    fake.fail(/^\/coins\/markets$/, 429, { headers: { 'retry-after': '1' } });
    const before = fake.requestsTo(/^\/coins\/markets$/).length;
    const started = Date.now();
    const outcome = await refresh.refreshNow();
    expect(outcome.status).toBe('refreshed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake.requestsTo(/^\/coins\/markets$/).length - before).toBe(2);
  });

  it('keeps serving the old stored data when CoinGecko answers 500', async () => {
    const before = await t.http.get('/api/crypto-data/bitcoin').set('Authorization', auth).expect(200);
    clock.advanceMs(60_000);
    // retry-after-ms keeps the SDK's retries of the 500 fast in the test.
    fake.fail(/^\/coins\/markets$/, 500, { times: 10, headers: { 'retry-after-ms': '10' } });
    const outcome = await refresh.refreshNow();
    expect(outcome.status).toBe('failed');
    expect(outcome.errors[0]).toMatch(/HTTP 500/);
    const after = await t.http.get('/api/crypto-data/bitcoin').set('Authorization', auth).expect(200);
    expect(after.body).toEqual(before.body);
    const job = await t.app.get(MarketRepository).jobState(MARKET_REFRESH_JOB);
    expect(job).toMatchObject({
      owner: null,
      leaseUntil: null,
      lastError: expect.stringMatching(/HTTP 500/),
    });
    expect(job!.lastFailedAt!.getTime()).toBeGreaterThan(job!.lastSucceededAt!.getTime());
  });

  it('does not sit out a Retry-After longer than 30 s: fails fast and leaves it to the next run', async () => {
    fake.fail(/^\/coins\/markets$/, 429, { times: 5, headers: { 'retry-after': '120' } });
    const before = fake.requestsTo(/^\/coins\/markets$/).length;
    const started = Date.now();
    const outcome = await refresh.refreshNow();
    expect(outcome.status).toBe('failed');
    expect(outcome.errors[0]).toMatch(/HTTP 429/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fake.requestsTo(/^\/coins\/markets$/).length - before).toBe(1);
  });

  it('fetches only the missing days on the next refresh', async () => {
    const firstDay = utc(clock.now());
    clock.advanceMs(2 * DAY_MS);
    fake.now = clock.now();
    const before = fake.requestsTo(/\/market_chart$/).length;
    const outcome = await refresh.refreshNow();
    expect(outcome.status).toBe('refreshed');
    const charts = fake.requestsTo(/\/market_chart$/).slice(before);
    expect(charts).toHaveLength(3);
    expect(charts.every((r) => r.query.days === '2')).toBe(true);
    const today = utc(clock.now());
    const history = await t.app.get<MarketPricesPort>(MARKET_PRICES).dailyHistory(['ETH'], firstDay, today);
    expect(history.get('ETH')!.map((row) => row.date)).toEqual([firstDay, addDays(firstDay, 1), today]);
  });

  it('never runs two refreshes at once: the second finds the lease taken', async () => {
    const outcomes = await Promise.all([refresh.refreshNow(), refresh.refreshNow()]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['refreshed', 'skipped']);
  });

  it('refreshIfDue skips while the last success is recent', async () => {
    expect((await refresh.refreshIfDue()).status).toBe('skipped');
  });

  it('spends at most the per-asset budget per run and resumes the backfill where it stopped', async () => {
    const ids = ['cardano', 'tron', 'stellar'];
    const calls: string[] = [];
    const provider: MarketDataProvider = {
      source: 'coingecko',
      perAssetCallBudget: 2,
      quotes: async (wanted, now) =>
        ids
          .filter((id) => wanted.includes(id))
          .map((id) => ({
            coingeckoId: id,
            symbol: catalogAsset(id)!.symbol,
            name: catalogAsset(id)!.name,
            priceUsd: '0.5',
            marketCapUsd: '1000000000',
            volume24hUsd: '50000000',
            marketCapRank: 10,
            circulatingSupply: '2000000000',
            totalSupply: null,
            maxSupply: null,
            updatedAt: now,
          })),
      dailyHistory: async (id, from, to) => {
        calls.push(`history ${id} from ${from}`);
        return [from, to].map((date) => ({ date, priceUsd: '0.4', marketCapUsd: null, volumeUsd: null }));
      },
      scoreInputs: async (id) => {
        calls.push(`inputs ${id}`);
        return null;
      },
    };
    const service = new MarketRefreshService(t.app.get(MarketRepository), provider, clock);
    const run = async () => {
      calls.length = 0;
      expect((await service.refreshNow()).status).toBe('refreshed');
      return [...calls];
    };
    expect(await run()).toEqual(['history cardano from 2020-01-01', 'history tron from 2020-01-01']);
    expect(await run()).toEqual(['history stellar from 2020-01-01', 'inputs cardano']);
    expect(await run()).toEqual(['inputs tron', 'inputs stellar']);
    expect(await run()).toEqual([]);
    const [ada] = (await t.http.get('/api/crypto-data/cardano').set('Authorization', auth).expect(200)).body;
    expect(ada).toMatchObject({ symbol: 'ADA', price: 0.5, scoreInputsSource: 'catalog', maxSupply: null });
  });

  describe('provider', () => {
    it('falls back to 365 days of history when the plan refuses more (401)', async () => {
      fake.maxHistoryDays = 365;
      try {
        const provider = new CoinGeckoMarketProvider({ baseUrl, apiKey: 'k', maxRetries: 0 });
        const to = addDays(utc(fake.now), -1);
        const before = fake.requestsTo(/\/market_chart$/).length;
        const rows = await provider.dailyHistory('bitcoin', '2020-01-01', to);
        const calls = fake.requestsTo(/\/market_chart$/).slice(before);
        expect(calls.map((c) => c.query.days)).toEqual([String(daysBetween('2020-01-01', to) + 2), '365']);
        expect(rows).toHaveLength(364);
        expect(rows.at(-1)!.date).toBe(to);
      } finally {
        fake.maxHistoryDays = Number.POSITIVE_INFINITY;
      }
    });

    it('sends no API key header without a key, and reports unknown coins as errors', async () => {
      const provider = new CoinGeckoMarketProvider({ baseUrl, maxRetries: 0 });
      const quotes = await provider.quotes(['bitcoin'], new Date());
      expect(quotes.map((q) => q.symbol)).toEqual(['BTC']);
      const last = fake.requests.at(-1)!;
      expect(last.headers['x-cg-demo-api-key']).toBeUndefined();
      expect(last.headers['x-cg-pro-api-key']).toBeUndefined();
      await expect(provider.scoreInputs('no-such-coin')).rejects.toThrow(/HTTP 404/);
    });
  });
});
