#!/usr/bin/env node
/**
 * Before/after figures of issue 20 for the sandbox portfolios (docs/simulation.md "Before and
 * after"): 10 years, $10,000, seed 2026, on the embedded sandbox market.
 *
 * "before" is the simulator fed the raw historical mean as its drift, which is what
 * /qsim/simulate did until the return assumptions (the engine without `annualLogDrift` is
 * bit-identical to it); "after" is the default assumptions (shrunk history), parametric and
 * bootstrap. Also the ROI base case per asset: raw historical CAGR against the assumed return.
 *
 *   npm run build && node bench/sandbox-projections.mjs
 */
const { createApp } = await import('../dist/src/app.factory.js');
const { loadConfig } = await import('../dist/src/config/app-config.js');
const { MarketHistoryService } = await import('../dist/src/modules/simulation/market-history.service.js');
const { simulatePortfolio } = await import('../dist/src/domain/simulation/monte-carlo.js');
const { resolveAssumptions } = await import('../dist/src/domain/simulation/return-assumptions.js');

const PORTFOLIOS = [
  ['Core BTC/ETH', { BTC: 0.6, ETH: 0.4 }],
  ['Balanced large caps', { BTC: 0.5, ETH: 0.3, SOL: 0.2 }],
  ['Diversified alt basket', { BTC: 0.3, ETH: 0.2, SOL: 0.1, ADA: 0.1, LINK: 0.1, DOT: 0.1, AVAX: 0.1 }],
  ['Stable income sleeve', { USDC: 0.4, BTC: 0.4, ETH: 0.2 }],
  ['Bitcoin only', { BTC: 1 }],
  ['Growth tilt', { SOL: 0.4, ETH: 0.35, AVAX: 0.15, NEAR: 0.1 }],
];
const YEARS = 10;
const SEED = 2026;

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  SCHEDULER_ENABLED: 'false',
  DATA_DIR: 'memory',
});
const app = await createApp(config, { logs: false });
await app.init();
const history = app.get(MarketHistoryService);
const pct = (x) => `${(x * 100).toFixed(2)}%`;
const row = (result) =>
  result.scenarios
    .map((s) => `${s.name} $${Number(s.terminalUsd).toLocaleString('en-US')} (${pct(s.cagr)})`)
    .join(', ');
try {
  for (const [name, weights] of PORTFOLIOS) {
    const symbols = Object.keys(weights);
    const aligned = await history.alignedDailyLogReturns(symbols);
    const assets = symbols.map((symbol) => ({ symbol, weight: weights[symbol] }));
    const base = { assets, dailyLogReturns: aligned.dailyLogReturns, horizonYears: YEARS, seed: SEED };
    const assumptions = resolveAssumptions(symbols, aligned.dailyLogReturns);
    const drift = assumptions.map((a) => a.annualLogDrift);
    const before = simulatePortfolio(base);
    const parametric = simulatePortfolio({ ...base, annualLogDrift: drift });
    const bootstrap = simulatePortfolio({ ...base, annualLogDrift: drift, method: 'bootstrap' });
    console.log(
      `\n${name} (${symbols.map((s) => `${s} ${weights[s]}`).join(' / ')}), ${aligned.dailyLogReturns[0].length} days`,
    );
    console.log(`  before:     ${row(before)}`);
    console.log(`  parametric: ${row(parametric)}`);
    console.log(`  bootstrap:  ${row(bootstrap)}`);
    for (const [label, r] of [
      ['parametric', parametric],
      ['bootstrap', bootstrap],
    ]) {
      console.log(
        `  risk ${label}: P(below principal) ${pct(r.risk.probabilityBelowPrincipal)}, max drawdown median ${pct(r.risk.maxDrawdownMedian)} / p90 ${pct(r.risk.maxDrawdownP90)}, ES5 $${r.risk.expectedShortfall5Usd}`,
      );
    }
    console.log(
      `  assumptions: ${assumptions.map((a) => `${a.symbol} ${pct(a.expectedReturn)} (history ${pct(a.historicalExpectedReturn)}, σ ${pct(a.volatility)}, w ${pct(a.weightOnHistory)})`).join('; ')}`,
    );
  }
} finally {
  await app.close();
}
process.exit(0);
