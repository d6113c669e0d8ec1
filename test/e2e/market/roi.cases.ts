/**
 * GET /roi/projection (e2e): base-case CAGR from the asset's return assumption (BTC by default):
 * the stored history's mean shrunk toward the risk-free prior, or the tenant's capital-market
 * assumption; terminal value, benchmark_diff against the configured benchmark (default 10 %),
 * the assumption and a disclosure in the answer, principal echoed as a number, validation naming
 * the field.
 */
import { ManualClock } from '../../../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../src/common/ports/market-prices.port.js';
import { formatPercent, formatSignedPercent, formatUsd } from '../../../src/domain/money/format.js';
import {
  PROJECTION_DISCLOSURE,
  shrinkTowardPrior,
} from '../../../src/domain/simulation/return-assumptions.js';
import { projectRoi } from '../../../src/domain/simulation/roi.js';
import { addDays } from '../../../src/modules/market/index.js';
import { HISTORY_LOOKBACK_YEARS } from '../../../src/modules/simulation/testing.js';
import { bearer } from '../../factories/accounts.factory.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');

describe('GET /roi/projection (e2e)', () => {
  let t: TestApp;
  let partner: string;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
    partner = await t.token();
  });
  afterAll(() => t.close());

  const roi = (query: string) => t.http.get(`/roi/projection?${query}`).set(bearer(partner));

  /** The CAGR of the stored daily closes over the window, computed here independently. */
  async function storedCagr(symbol: string): Promise<number> {
    const history = await t.app
      .get<MarketPricesPort>(MARKET_PRICES)
      .dailyHistory(
        [symbol],
        addDays('2026-03-15', -Math.round(HISTORY_LOOKBACK_YEARS * 365.25)),
        '2026-03-15',
      );
    const rows = history.get(symbol)!;
    const prices: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      // One price per calendar day (the sandbox history has no gaps; the service fills any with the last price).
      if (i > 0) expect(rows[i].date).toBe(addDays(rows[i - 1].date, 1));
      prices.push(Number(rows[i].priceUsd));
    }
    // (last / first)^(1 / years) − 1 with years = (days − 1) / 365.
    return Math.pow(prices[prices.length - 1] / prices[0], 365 / (prices.length - 1)) - 1;
  }

  /**
   * The default assumption, computed here from the stored closes: daily log returns, their mean
   * and sample volatility annualised by 365, shrunk by SE = σ/√years toward the prior.
   */
  async function storedAssumption(symbol: string): Promise<{ expectedReturn: number; volatility: number }> {
    const history = await t.app
      .get<MarketPricesPort>(MARKET_PRICES)
      .dailyHistory(
        [symbol],
        addDays('2026-03-15', -Math.round(HISTORY_LOOKBACK_YEARS * 365.25)),
        '2026-03-15',
      );
    const rows = history.get(symbol)!;
    const returns = rows.slice(1).map((row, i) => Math.log(Number(row.priceUsd) / Number(rows[i].priceUsd)));
    const mean = returns.reduce((sum, r) => sum + r, 0) / returns.length;
    const variance = returns.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (returns.length - 1);
    const volatility = Math.sqrt(variance * 365);
    const { logDrift } = shrinkTowardPrior({
      historicalLogMean: mean * 365,
      annualVolatility: volatility,
      years: returns.length / 365,
    });
    return { expectedReturn: Math.expm1(logDrift), volatility };
  }

  it('projects BTC by default at its shrunk expected return (not the raw CAGR) against the 10 % benchmark', async () => {
    const res = await roi('principal_usd=10000&horizon_years=10').expect(200);
    const { expectedReturn, volatility } = await storedAssumption('BTC');
    const projection = projectRoi({
      principalUsd: '10000',
      horizonYears: 10,
      baseCagr: expectedReturn,
      benchmarkCagr: 0.1,
    });
    expect(res.body).toEqual({
      principal_usd: 10000,
      horizon_years: 10,
      terminal_usd: formatUsd(projection.terminalUsd),
      cagr: formatPercent(expectedReturn),
      benchmark_diff: formatSignedPercent(projection.benchmarkDiff),
      benchmark_cagr: '10.00%',
      symbol: 'BTC',
      history_from: '2020-01-02',
      history_to: '2026-03-15',
      assumptions: [
        {
          symbol: 'BTC',
          expected_return: formatPercent(expectedReturn),
          volatility: formatPercent(volatility),
          source: 'history_shrunk',
          historical_return: formatPercent(await storedCagr('BTC')),
          standard_error: expect.stringMatching(/^\d+\.\d{2}%$/),
          weight_on_history: expect.stringMatching(/^\d+\.\d{2}%$/),
        },
      ],
      disclosure: PROJECTION_DISCLOSURE,
    });
    // Pinned (recomputed for issue 20): before, BTC compounded at its raw CAGR over this window,
    // 60.36 % a year; now the shrunk default.
    expect(res.body.cagr).toBe('6.28%');
    expect(res.body.assumptions[0].historical_return).toBe('60.36%');
    expect(res.body.benchmark_diff).toMatch(/^[+-]?\d+\.\d{2}%$/);
  });

  it('takes another symbol, and echoes a fractional principal as a number', async () => {
    const res = await roi('principal_usd=1234.56&horizon_years=3&symbol=eth').expect(200);
    const { expectedReturn } = await storedAssumption('ETH');
    expect(res.body).toMatchObject({
      principal_usd: 1234.56,
      horizon_years: 3,
      symbol: 'ETH',
      cagr: formatPercent(expectedReturn),
      terminal_usd: formatUsd(
        projectRoi({ principalUsd: '1234.56', horizonYears: 3, baseCagr: expectedReturn, benchmarkCagr: 0.1 })
          .terminalUsd,
      ),
    });
  });

  it("uses the tenant's capital-market assumption, and only for that tenant", async () => {
    await t.http
      .put('/qsim/assumptions/btc')
      .set(bearer(partner))
      .send({ expected_return: 0.07, note: 'CIO 2026' })
      .expect(200);
    try {
      const mine = await roi('principal_usd=10000&horizon_years=10').expect(200);
      // 10,000 × 1.07¹⁰ = 19,671.5135729…
      expect(mine.body).toMatchObject({
        cagr: '7.00%',
        terminal_usd: '$19,671.51',
        benchmark_diff: '-3.00%',
      });
      expect(mine.body.assumptions[0]).toMatchObject({ source: 'tenant', expected_return: '7.00%' });
      const other = await t.http
        .get('/roi/projection?principal_usd=10000&horizon_years=10')
        .set(bearer(await t.token('sandbox-b-client', 'sandbox-b-secret')))
        .expect(200);
      expect(other.body.assumptions[0].source).toBe('history_shrunk');
    } finally {
      await t.http.delete('/qsim/assumptions/BTC').set(bearer(partner)).expect(204);
    }
  });

  it.each([
    ['horizon_years=10', 'principal_usd'],
    ['principal_usd=0&horizon_years=10', 'principal_usd'],
    ['principal_usd=-5&horizon_years=10', 'principal_usd'],
    ['principal_usd=abc&horizon_years=10', 'principal_usd'],
    ['principal_usd=1e3&horizon_years=10', 'principal_usd'],
    ['principal_usd=2000000000000&horizon_years=10', 'principal_usd'],
    ['principal_usd=100', 'horizon_years'],
    ['principal_usd=100&horizon_years=0', 'horizon_years'],
    ['principal_usd=100&horizon_years=51', 'horizon_years'],
    ['principal_usd=100&horizon_years=2.5', 'horizon_years'],
    ['principal_usd=100&horizon_years=10&symbol=B-T', 'symbol'],
    ['principal_usd=100&horizon_years=10&symbol=NOPE', 'symbol'],
    ['principal_usd=100&horizon_years=10&benchmark=0.2', 'benchmark'],
  ])('?%s → 400 naming %s', async (query, field) => {
    const res = await roi(query).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it('401 without a bearer token', async () => {
    await t.http.get('/roi/projection?principal_usd=100&horizon_years=1').expect(401);
  });
});
