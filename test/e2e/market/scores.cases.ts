import { sandboxAssetBySymbol } from '../../../src/domain/market/sandbox-assets.js';
import { generateDailyHistory } from '../../../src/domain/market/sandbox-market.js';
import { annualizedVolatility, maxDrawdown } from '../../../src/domain/market/volatility.js';
import { scoreAsset } from '../../../src/domain/scoring/asset-score.js';
import { addDays } from '../../../src/modules/market/index.js';
import { AssetScoringService } from '../../../src/modules/scoring/index.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

interface ScoreRecord {
  symbol: string;
  qScore: number;
  fScore: number;
  rScore: number;
}

const twoDecimals = (value: number) => Math.round(value * 100) / 100 === value;

describe('scores (e2e)', () => {
  let t: TestApp;
  let auth: string;
  let scores: ScoreRecord[];
  beforeAll(async () => {
    t = await startSuite();
    auth = `Bearer ${await t.token()}`;
    scores = (await t.http.get('/api/scores').set('Authorization', auth).expect(200)).body;
  });
  afterAll(() => t.close());

  const score = (body: unknown) =>
    t.http
      .post('/api/calculate-portfolio-score')
      .set('Authorization', auth)
      .send(body as object);
  const scoreOf = (symbol: string) => scores.find((s) => s.symbol === symbol)!;

  describe('GET /api/scores', () => {
    it('lists every tracked asset with exactly symbol, qScore, fScore and rScore, largest first', () => {
      expect(scores).toHaveLength(30);
      expect(scores[0].symbol).toBe('BTC');
      for (const record of scores) {
        expect(Object.keys(record).sort()).toEqual(['fScore', 'qScore', 'rScore', 'symbol']);
        for (const value of [record.qScore, record.fScore, record.rScore]) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(100);
          expect(twoDecimals(value)).toBe(true);
        }
      }
    });

    it('scores an asset from its stored snapshot and history with the documented formulas', async () => {
      const [btc] = (await t.http.get('/api/crypto-data/bitcoin').set('Authorization', auth).expect(200))
        .body;
      const today = btc.asOf.slice(0, 10);
      const prices = generateDailyHistory(sandboxAssetBySymbol('BTC')!, addDays(today, -365), today).map(
        (row) => Number(row.priceUsd),
      );
      const expected = scoreAsset({
        marketCapUsd: btc.marketCap,
        circulatingSupply: btc.circulatingSupply,
        totalSupply: btc.totalSupply,
        maxSupply: btc.maxSupply,
        liquidityScore: btc.liquidityScore,
        developerScore: btc.developerScore,
        communityScore: btc.communityScore,
        annualizedVolatility: annualizedVolatility(prices)!,
        maxDrawdown: maxDrawdown(prices),
      });
      expect(scoreOf('BTC')).toEqual({
        symbol: 'BTC',
        qScore: expected.qScore,
        fScore: expected.fScore,
        rScore: expected.rScore,
      });
    });

    it('answers 401 without a token', async () => {
      await t.http.get('/api/scores').expect(401);
    });
  });

  describe('POST /api/calculate-portfolio-score', () => {
    it('scores 50/30/20 BTC/ETH/SOL with 200, the allocation echo and the per-asset breakdown', async () => {
      const res = await score({ btcAllocation: 50, ethAllocation: 30, solAllocation: 20 }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['allocation', 'breakdown', 'fScore', 'qScore', 'rScore']);
      expect(res.body.allocation).toEqual({ BTC: 50, ETH: 30, SOL: 20 });
      for (const symbol of ['BTC', 'ETH', 'SOL']) {
        const { qScore, fScore, rScore } = scoreOf(symbol);
        expect(res.body.breakdown[symbol]).toEqual({ qScore, fScore, rScore });
      }
      // Fundamentals average; risk uses the covariance, so imperfect correlation lowers it below the average.
      const weighted = (key: 'fScore' | 'rScore') =>
        0.5 * scoreOf('BTC')[key] + 0.3 * scoreOf('ETH')[key] + 0.2 * scoreOf('SOL')[key];
      expect(Math.abs(res.body.fScore - weighted('fScore'))).toBeLessThanOrEqual(0.01);
      expect(res.body.rScore).toBeLessThan(weighted('rScore'));
      expect(res.body.qScore).toBeCloseTo(0.6 * res.body.fScore + 0.4 * (100 - res.body.rScore), 1);
    });

    it('scores a one-asset portfolio exactly as the asset; omitted allocation fields mean none of that asset', async () => {
      const res = await score({ btcAllocation: 100 }).expect(200);
      const { qScore, fScore, rScore } = scoreOf('BTC');
      expect(res.body).toMatchObject({ qScore, fScore, rScore, allocation: { BTC: 100 } });
    });

    it('takes any other <symbol>Allocation field and tolerates a sum within 100 ± 0.01', async () => {
      const res = await score({
        btcAllocation: 33.33,
        ethAllocation: 33.33,
        solAllocation: 13.33,
        adaAllocation: 10,
        LINKAllocation: 10,
      }).expect(200);
      expect(Object.keys(res.body.allocation).sort()).toEqual(['ADA', 'BTC', 'ETH', 'LINK', 'SOL']);
      expect(Object.keys(res.body.breakdown).sort()).toEqual(['ADA', 'BTC', 'ETH', 'LINK', 'SOL']);
    });

    it('scores holdings as of a past date through the service (for /qscore/evaluate)', async () => {
      const scoring = t.app.get(AssetScoringService);
      const latest = await scoring.scoreHoldings({ BTC: '5000.00', ETH: 3000, SOL: 2000 });
      const viaApi = (await score({ btcAllocation: 50, ethAllocation: 30, solAllocation: 20 }).expect(200))
        .body;
      expect(latest).toMatchObject({ qScore: viaApi.qScore, fScore: viaApi.fScore, rScore: viaApi.rScore });
      expect(latest.grade).toMatch(/^[ABCDF]$/);
      expect(['low', 'moderate', 'high', 'very_high']).toContain(latest.riskLevel);
      const past = await scoring.scoreHoldings({ BTC: 1, ETH: 1 }, '2023-06-30');
      expect(past.allocation).toEqual({ BTC: 50, ETH: 50 });
      // The past date's one-year window gives its own volatility and sub-scores. (Not the qScore
      // alone: on 2026-11-25 the latest qScore happened to round to 2023-06-30's, 78.22.)
      const current = await scoring.scoreHoldings({ BTC: 1, ETH: 1 });
      expect(past.annualizedVolatility).not.toBe(current.annualizedVolatility);
      expect([past.fScore, past.rScore]).not.toEqual([current.fScore, current.rScore]);
      await expect(scoring.scoreHoldings({ BTC: 1 }, '2019-06-30')).rejects.toMatchObject({
        fieldErrors: { BTC: [expect.stringMatching(/No score data for BTC as of 2019-06-30/)] },
      });
      await expect(scoring.scoreHoldings({ BTC: 0 })).rejects.toMatchObject({
        fieldErrors: { holdings: [expect.any(String)] },
      });
    });

    it.each<[string, unknown, string, RegExp]>([
      [
        'a sum under 100',
        { btcAllocation: 50, ethAllocation: 30, solAllocation: 10 },
        'allocations',
        /sum to 100.*90/,
      ],
      [
        'a sum just outside the tolerance',
        { btcAllocation: 33.33, ethAllocation: 33.33, solAllocation: 33.32 },
        'allocations',
        /sum to 100/,
      ],
      [
        'a sum over 100',
        { btcAllocation: 60, ethAllocation: 30, solAllocation: 20 },
        'allocations',
        /sum to 100/,
      ],
      [
        'a negative allocation',
        { btcAllocation: 80, ethAllocation: 30, solAllocation: -10 },
        'solAllocation',
        /negative/,
      ],
      [
        'a non-numeric allocation',
        { btcAllocation: 50, ethAllocation: 30, solAllocation: '20' },
        'solAllocation',
        /number/,
      ],
      [
        'a null allocation',
        { btcAllocation: 50, ethAllocation: 50, solAllocation: null },
        'solAllocation',
        /number/,
      ],
      [
        'an asset without score data',
        { btcAllocation: 50, ethAllocation: 30, xyzAllocation: 20 },
        'xyzAllocation',
        /No score data for XYZ/,
      ],
      [
        'a field that is not an allocation',
        { btcAllocation: 100, riskProfile: 'high' },
        'riskProfile',
        /not an allocation field/,
      ],
      ['no allocation at all', {}, 'allocations', /At least one/],
      ['the same asset twice', { btcAllocation: 50, BTCAllocation: 50 }, 'BTCAllocation', /repeats/],
    ])('answers 400 naming the field for %s', async (_case, body, field, message) => {
      const res = await score(body).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.errors[field][0]).toMatch(message);
    });

    it('answers 400 for a body that is not an object, and for malformed JSON', async () => {
      const array = await score([50, 30, 20]).expect(400);
      expect(Object.keys(array.body.errors)).toEqual(['body']);
      await t.http
        .post('/api/calculate-portfolio-score')
        .set('Authorization', auth)
        .set('content-type', 'application/json')
        .send('{"btcAllocation": 50,')
        .expect(400);
    });

    it('answers 401 without a token', async () => {
      await t.http.post('/api/calculate-portfolio-score').send({ btcAllocation: 100 }).expect(401);
    });
  });
});
