import { deriveScores } from '../../../src/domain/market/derived-scores.js';
import { sandboxAssetByCoingeckoId } from '../../../src/domain/market/sandbox-assets.js';
import { generateDailyHistory } from '../../../src/domain/market/sandbox-market.js';
import { annualizedVolatility } from '../../../src/domain/market/volatility.js';
import { addDays } from '../../../src/modules/market/index.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const SPEC_FIELDS = [
  'id',
  'symbol',
  'name',
  'price',
  'marketCap',
  'marketCapRank',
  'circulatingSupply',
  'totalSupply',
  'maxSupply',
  'volume24h',
  'volatility',
  'communityScore',
  'developerScore',
  'liquidityScore',
  'publicInterestScore',
  'lastUpdated',
];
const PROVENANCE_FIELDS = ['source', 'asOf', 'scoreInputsSource'];

describe('GET /api/crypto-data/{symbols} (sandbox, e2e)', () => {
  let t: TestApp;
  let auth: string;
  beforeAll(async () => {
    t = await startSuite();
    auth = `Bearer ${await t.token()}`;
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http.get(path).set('Authorization', auth);

  it('returns exactly the 16 spec fields plus provenance, in request order, numbers as JSON numbers', async () => {
    const res = await get('/api/crypto-data/ethereum,bitcoin,solana').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.map((r: { symbol: string }) => r.symbol)).toEqual(['ETH', 'BTC', 'SOL']);
    for (const record of res.body) {
      expect(Object.keys(record).sort()).toEqual([...SPEC_FIELDS, ...PROVENANCE_FIELDS].sort());
      for (const field of [
        'id',
        'price',
        'marketCap',
        'marketCapRank',
        'circulatingSupply',
        'totalSupply',
        'volume24h',
        'volatility',
        'communityScore',
        'developerScore',
        'liquidityScore',
        'publicInterestScore',
      ]) {
        expect(typeof record[field]).toBe('number');
      }
      expect(record.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(record.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(record).toMatchObject({ source: 'sandbox', scoreInputsSource: 'sandbox' });
    }
    const [eth, btc] = res.body;
    expect(btc).toMatchObject({
      id: 1,
      symbol: 'BTC',
      name: 'Bitcoin',
      marketCapRank: 1,
      maxSupply: 21_000_000,
    });
    expect(eth).toMatchObject({ id: 2, symbol: 'ETH', name: 'Ethereum', maxSupply: null });
  });

  it('computes volatility from the stored 30-day history and the derived scores from raw inputs', async () => {
    const [btc] = (await get('/api/crypto-data/bitcoin').expect(200)).body;
    const today = btc.asOf.slice(0, 10);
    const asset = sandboxAssetByCoingeckoId('bitcoin')!;
    const rows = generateDailyHistory(asset, addDays(today, -30), today);
    expect(rows).toHaveLength(31);
    expect(btc.price).toBe(Number(rows.at(-1)!.priceUsd));
    expect(btc.volatility).toBeCloseTo(annualizedVolatility(rows.map((row) => Number(row.priceUsd)))!, 6);
    expect(btc).toMatchObject(
      deriveScores({
        developer: asset.developer,
        community: asset.community,
        volume24hUsd: btc.volume24h,
        marketCapUsd: btc.marketCap,
        marketCapRank: btc.marketCapRank,
      }),
    );
    for (const score of ['communityScore', 'developerScore', 'liquidityScore', 'publicInterestScore']) {
      expect(btc[score]).toBeGreaterThanOrEqual(0);
      expect(btc[score]).toBeLessThanOrEqual(100);
    }
  });

  it('leaves unknown ids out and collapses duplicates', async () => {
    const res = await get('/api/crypto-data/not-a-coin,bitcoin,bitcoin,zzz-9').expect(200);
    expect(res.body.map((r: { id: number }) => r.id)).toEqual([1]);
    expect((await get('/api/crypto-data/not-a-coin').expect(200)).body).toEqual([]);
  });

  it('serves all 30 tracked assets in one request', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    const res = await get(
      `/api/crypto-data/${['bitcoin', 'ethereum', 'tether', 'ripple', 'binancecoin', 'solana', 'dogecoin', 'usd-coin', 'cardano', 'tron', 'avalanche-2', 'chainlink', 'hedera-hashgraph', 'stellar', 'polkadot', 'bitcoin-cash', 'uniswap', 'litecoin', 'near', 'aptos', 'aave', 'internet-computer', 'ethereum-classic', 'monero', 'polygon-ecosystem-token', 'arbitrum', 'algorand', 'filecoin', 'cosmos', 'optimism'].join(',')}`,
    ).expect(200);
    expect(res.body.map((r: { id: number }) => r.id)).toEqual(ids);
    expect(res.body.every((r: { symbol: string }) => r.symbol === r.symbol.toUpperCase())).toBe(true);
  });

  it.each([
    ['upper-case id', 'Bitcoin'],
    ['symbol instead of id', 'BTC'],
    ['empty segment', 'bitcoin,,ethereum'],
    ['trailing comma', 'bitcoin,'],
    ['space', 'bitcoin,%20ethereum'],
    ['punctuation', 'bit_coin'],
    ['over 100 characters', 'a'.repeat(101)],
  ])('answers 400 naming `symbols` for a malformed list (%s)', async (_case, symbols) => {
    const res = await get(`/api/crypto-data/${symbols}`).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Object.keys(res.body.errors)).toEqual(['symbols']);
  });

  it('answers 400 for more than 50 ids and accepts exactly 50', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `coin-${i}`).join(',');
    const res = await get(`/api/crypto-data/${ids(51)}`).expect(400);
    expect(res.body.errors.symbols[0]).toMatch(/at most 50/);
    await get(`/api/crypto-data/${ids(50)}`).expect(200);
  });

  it('answers 401 without a bearer token', async () => {
    await t.http.get('/api/crypto-data/bitcoin').expect(401);
  });
});

describe('market-data rate limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A client of its own: the quota is per client, and the other suites' client keeps its own.
    t = await startSuite({}, { tenant: 'market-quota' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once the market-data quota is used; other routes keep working', async () => {
    const auth = `Bearer ${await t.token()}`;
    const quota = t.config.MARKET_RATE_LIMIT_PER_MINUTE; // 120: the shared app keeps the default
    for (let i = 0; i < quota; i++) {
      const ok = await t.http.get('/api/crypto-data/bitcoin').set('Authorization', auth).expect(200);
      expect(ok.headers['ratelimit-remaining-market']).toBe(String(quota - 1 - i));
    }
    const res = await t.http.get('/api/crypto-data/bitcoin').set('Authorization', auth).expect(429);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ status: 429 });
    // The market quota is per client: another client still gets data; scores are not in the market bucket.
    const other = `Bearer ${await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret)}`;
    await t.http.get('/api/crypto-data/bitcoin').set('Authorization', other).expect(200);
    await t.http.get('/api/scores').set('Authorization', auth).expect(200);
  });
});
