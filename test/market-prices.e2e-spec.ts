/**
 * The sandbox seed runs on the injected clock: an app of its own, started at the clock's instant
 * (the shared apps of test/e2e/ seed once, at their file's start).
 */
import { ManualClock } from '../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../src/common/ports/market-prices.port.js';
import { generateDailyHistory } from '../src/domain/market/sandbox-market.js';
import { sandboxAssetBySymbol } from '../src/domain/market/sandbox-assets.js';
import { MarketRefreshService } from '../src/modules/market/index.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('sandbox market follows the injected clock', () => {
  const clock = new ManualClock(new Date('2025-06-01T15:00:00Z'));
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { clock });
  });
  afterAll(() => t.close());

  it('seeds history through Clock.now() and a later refresh appends only the missing days', async () => {
    const prices = t.app.get<MarketPricesPort>(MARKET_PRICES);
    const refresh = t.app.get(MarketRefreshService);
    const history = async () => (await prices.dailyHistory(['SOL'], '2020-01-01', '2030-01-01')).get('SOL')!;
    expect((await history()).at(-1)!.date).toBe('2025-06-01');
    expect(await refresh.isCurrent()).toBe(true);

    clock.advanceMs(3 * 86_400_000);
    expect(await refresh.isCurrent()).toBe(false);
    // (refreshIfDue would wait for the 5-minute interval, measured on the database clock.)
    const outcome = await refresh.refreshNow();
    expect(outcome).toMatchObject({ status: 'refreshed', historyRows: 30 * 3 });
    expect(await refresh.isCurrent()).toBe(true);
    const after = await history();
    expect(after.slice(-4).map((row) => row.date)).toEqual([
      '2025-06-01',
      '2025-06-02',
      '2025-06-03',
      '2025-06-04',
    ]);
    expect(after.slice(-3)).toEqual(
      generateDailyHistory(sandboxAssetBySymbol('SOL')!, '2025-06-02', '2025-06-04').map((row) => ({
        date: row.date,
        priceUsd: row.priceUsd,
      })),
    );
    expect((await prices.latestPricesUsd(['SOL'])).get('SOL')!.asOf).toEqual(clock.now());
  });
});
