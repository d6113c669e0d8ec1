import { formatSignedPercent, formatUsd } from '../money/format.js';
import { DEFAULT_BENCHMARK, projectRoi } from './roi.js';
import { SimulationErrorCode } from './simulation-error.js';

describe('projectRoi', () => {
  it.each([
    // 10,000 × 1.1^10 = 25,937.424601
    {
      principalUsd: 10_000,
      horizonYears: 10,
      baseCagr: 0.1,
      benchmarkCagr: 0.1,
      terminal: '25937.42',
      diff: 0,
    },
    // 1,000 × 1.05³ = 1,157.625 → half-up 1,157.63
    {
      principalUsd: '1000',
      horizonYears: 3,
      baseCagr: 0.05,
      benchmarkCagr: 0.1,
      terminal: '1157.63',
      diff: -0.05,
    },
    // 10,000 × 0.8² = 6,400
    {
      principalUsd: 10_000,
      horizonYears: 2,
      baseCagr: -0.2,
      benchmarkCagr: 0.1,
      terminal: '6400.00',
      diff: -0.3,
    },
    // 10,000 × 1.121 = 11,210
    {
      principalUsd: 10_000,
      horizonYears: 1,
      baseCagr: 0.121,
      benchmarkCagr: 0.1,
      terminal: '11210.00',
      diff: 0.021,
    },
    // 0.01 × 1.5⁴ = 0.050625 → 0.05
    { principalUsd: '0.01', horizonYears: 4, baseCagr: 0.5, benchmarkCagr: 0.5, terminal: '0.05', diff: 0 },
  ])(
    '$principalUsd at $baseCagr for $horizonYears y → $terminal, diff $diff',
    ({ principalUsd, horizonYears, baseCagr, benchmarkCagr, terminal, diff }) => {
      const result = projectRoi({ principalUsd, horizonYears, baseCagr, benchmarkCagr });
      expect(result.terminalUsd).toBe(terminal);
      expect(result.benchmarkDiff).toBe(diff);
      expect(result).toMatchObject({
        horizonYears,
        cagr: baseCagr,
        benchmarkCagr,
        principalUsd: String(principalUsd),
      });
    },
  );

  it('gives the texts of the API with the shared formatter', () => {
    const result = projectRoi({ principalUsd: 10_000, horizonYears: 1, baseCagr: 0.121, benchmarkCagr: 0.1 });
    expect(formatUsd(result.terminalUsd)).toBe('$11,210.00');
    expect(formatSignedPercent(result.benchmarkDiff)).toBe('+2.10%');
  });

  it('documents US large-cap equities at 10 % nominal as the default benchmark', () => {
    expect(DEFAULT_BENCHMARK.cagr).toBe(0.1);
  });

  it.each([
    { principalUsd: 0, horizonYears: 1, baseCagr: 0.1 },
    { principalUsd: -5, horizonYears: 1, baseCagr: 0.1 },
    { principalUsd: 100, horizonYears: 0, baseCagr: 0.1 },
    { principalUsd: 100, horizonYears: 1.5, baseCagr: 0.1 },
    { principalUsd: 100, horizonYears: 1, baseCagr: -1 },
    { principalUsd: 100, horizonYears: 1, baseCagr: NaN },
    { principalUsd: Infinity, horizonYears: 1, baseCagr: 0.1 },
  ])('rejects $principalUsd / $horizonYears / $baseCagr', (params) => {
    expect(() => projectRoi({ ...params, benchmarkCagr: 0.1 })).toThrow(
      expect.objectContaining({ code: SimulationErrorCode.InvalidInput }),
    );
  });
});
