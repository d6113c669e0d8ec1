import { loadConfig } from '../../config/app-config.js';
import type { MarketHistoryService } from './market-history.service.js';
import { RoiService } from './roi.service.js';

/** A year of prices doubling: CAGR exactly 100 %. */
const history = {
  knownSymbols: async () => new Set(['BTC']),
  dailyCloses: async () => ({
    pricesUsd: Array.from({ length: 366 }, (_, day) => 100 * Math.pow(2, day / 365)),
    from: '2025-01-01',
    to: '2026-01-01',
  }),
} as unknown as MarketHistoryService;

describe('RoiService', () => {
  it.each([
    [{}, 0.1, 0.9],
    [{ ROI_BENCHMARK_CAGR: '0.05' }, 0.05, 0.95],
    [{ ROI_BENCHMARK_CAGR: '-0.02' }, -0.02, 1.02],
  ])('compares with the configured benchmark CAGR (%j)', async (env, benchmark, diff) => {
    const roi = new RoiService(history, loadConfig({ NODE_ENV: 'test', ...env }));
    const projection = await roi.project({ principalUsd: '1000', horizonYears: 2 });
    expect(projection.benchmarkCagr).toBe(benchmark);
    expect(projection.cagr).toBeCloseTo(1, 12);
    expect(projection.benchmarkDiff).toBeCloseTo(diff, 12);
    expect(projection.terminalUsd).toBe('4000.00');
  });

  it('rejects a benchmark that is not a number at start-up', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', ROI_BENCHMARK_CAGR: 'ten percent' })).toThrow(
      /ROI_BENCHMARK_CAGR/,
    );
  });
});
