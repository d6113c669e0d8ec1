import { loadConfig } from '../../config/app-config.js';
import { resolveAssumptions } from '../../domain/simulation/return-assumptions.js';
import type { MarketHistoryService } from './market-history.service.js';
import type { ReturnAssumptionsService } from './return-assumptions.service.js';
import { RoiService } from './roi.service.js';

/** A year of noisy daily returns; the tenant's assumption for BTC is 100 % a year. */
const history = {
  knownSymbols: async () => new Set(['BTC']),
  alignedDailyLogReturns: async () => ({
    dailyLogReturns: [Array.from({ length: 365 }, (_, day) => (day % 2 === 0 ? 0.03 : -0.02))],
    from: '2025-01-02',
    to: '2026-01-01',
  }),
} as unknown as MarketHistoryService;
const assumptions = {
  forProjection: async (_tenant: string, symbols: string[], returns: number[][]) =>
    resolveAssumptions(symbols, returns, new Map([['BTC', { expectedReturn: 1 }]])),
} as unknown as ReturnAssumptionsService;

describe('RoiService', () => {
  it.each([
    [{}, 0.1, 0.9],
    [{ ROI_BENCHMARK_CAGR: '0.05' }, 0.05, 0.95],
    [{ ROI_BENCHMARK_CAGR: '-0.02' }, -0.02, 1.02],
  ])('compares with the configured benchmark CAGR (%j)', async (env, benchmark, diff) => {
    const roi = new RoiService(history, loadConfig({ NODE_ENV: 'test', ...env }), assumptions);
    const projection = await roi.project({ tenantId: 't', principalUsd: '1000', horizonYears: 2 });
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
