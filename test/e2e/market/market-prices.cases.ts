import { Clock } from '../../../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../src/common/ports/market-prices.port.js';
import { generateDailyHistory } from '../../../src/domain/market/sandbox-market.js';
import { sandboxAssetBySymbol } from '../../../src/domain/market/sandbox-assets.js';
import { daysBetween, MarketRefreshService } from '../../../src/modules/market/index.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

describe('MARKET_PRICES port (sandbox store)', () => {
  let t: TestApp;
  /** The app's today: the sandbox market is seeded up to it. */
  const today = () => t.app.get(Clock).now().toISOString().slice(0, 10);
  let prices: MarketPricesPort;
  beforeAll(async () => {
    t = await startSuite();
    prices = t.app.get<MarketPricesPort>(MARKET_PRICES);
  });
  afterAll(() => t.close());

  it('knows the 30 sandbox symbols, upper-case', async () => {
    const symbols = await prices.knownSymbols();
    expect(symbols).toHaveLength(30);
    expect(symbols).toEqual(expect.arrayContaining(['BTC', 'ETH', 'SOL', 'USDC']));
    expect(symbols.every((symbol) => symbol === symbol.toUpperCase())).toBe(true);
  });

  it('serves the latest stored price as decimal text with its as-of time; unknown symbols are absent', async () => {
    const latest = await prices.latestPricesUsd(['btc', 'ETH', 'NOPE']);
    expect([...latest.keys()].sort()).toEqual(['BTC', 'ETH']);
    const btc = latest.get('BTC')!;
    expect(btc.priceUsd).toMatch(/^\d+(\.\d+)?$/);
    expect(btc.asOf).toBeInstanceOf(Date);
    const [todayRow] = generateDailyHistory(sandboxAssetBySymbol('BTC')!, today(), today());
    expect(btc.priceUsd).toBe(todayRow.priceUsd);
  });

  it('answers prices on a date with the last stored price on or before it', async () => {
    const onDate = await prices.pricesOnDate(['BTC', 'SOL'], '2024-03-01');
    const [btc] = generateDailyHistory(sandboxAssetBySymbol('BTC')!, '2024-03-01', '2024-03-01');
    expect(onDate.get('BTC')).toBe(btc.priceUsd);
    expect(onDate.has('SOL')).toBe(true);
    expect((await prices.pricesOnDate(['BTC'], '2019-06-01')).size).toBe(0);
    const future = await prices.pricesOnDate(['BTC'], '2999-01-01');
    expect(future.get('BTC')).toBe((await prices.latestPricesUsd(['BTC'])).get('BTC')!.priceUsd);
  });

  it('serves daily history ascending, inclusive of both dates, since 2020-01-01', async () => {
    const history = await prices.dailyHistory(['ETH', 'XXX'], '2019-12-30', '2020-01-05');
    expect([...history.keys()]).toEqual(['ETH']);
    const eth = history.get('ETH')!;
    expect(eth.map((row) => row.date)).toEqual([
      '2020-01-01',
      '2020-01-02',
      '2020-01-03',
      '2020-01-04',
      '2020-01-05',
    ]);
    expect(eth).toEqual(
      generateDailyHistory(sandboxAssetBySymbol('ETH')!, '2020-01-01', '2020-01-05').map((row) => ({
        date: row.date,
        priceUsd: row.priceUsd,
      })),
    );
    const full = await prices.dailyHistory(['BTC'], '2020-01-01', today());
    expect(full.get('BTC')!.at(-1)!.date).toBe(today());
  });

  it('serves one symbol’s daily history as a series of day offsets and prices, the same days and texts', async () => {
    const history = (await prices.dailyHistory(['ETH'], '2019-12-30', '2020-01-05')).get('ETH')!;
    expect(await prices.dailyPriceSeries('eth', '2019-12-30', '2020-01-05')).toEqual({
      // 2020-01-01 is two days after 2019-12-30.
      dayOffsets: [2, 3, 4, 5, 6],
      pricesUsd: history.map((row) => row.priceUsd),
    });
    const full = (await prices.dailyHistory(['BTC'], '2020-01-01', today())).get('BTC')!;
    const series = await prices.dailyPriceSeries('BTC', '2020-01-01', today());
    expect(series.pricesUsd).toEqual(full.map((row) => row.priceUsd));
    expect(series.dayOffsets).toEqual(full.map((row) => daysBetween('2020-01-01', row.date)));
    expect(await prices.dailyPriceSeries('XXX', '2020-01-01', today())).toEqual({
      dayOffsets: [],
      pricesUsd: [],
    });
    expect(await prices.dailyPriceSeries('BTC', '2019-01-01', '2019-12-31')).toEqual({
      dayOffsets: [],
      pricesUsd: [],
    });
  });

  it('a second refresh is skipped while the store is current and changes nothing when forced', async () => {
    const refresh = t.app.get(MarketRefreshService);
    expect(await refresh.isCurrent()).toBe(true);
    const before = await prices.dailyHistory(['BTC'], '2020-01-01', today());
    const outcome = await refresh.refreshNow();
    expect(outcome.status).toBe('refreshed');
    expect(outcome.historyRows).toBe(30); // only today's row per asset
    expect(await prices.dailyHistory(['BTC'], '2020-01-01', today())).toEqual(before);
  });
});
