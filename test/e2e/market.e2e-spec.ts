/**
 * Market data, scores, simulations, ROI, assumptions, evaluation, summaries and portfolios over
 * HTTP, one application for all of these suites (test/e2e/README.md). They read the sandbox
 * fixtures and market data; the suites that write into tenant `sandbox` (assumptions, ROI's
 * assumption, evaluate's accounts, portfolios) come after the ones that only read it.
 */
import { useE2eWorld } from '../support/e2e-world.js';
import './market/market-prices.cases.js';
import './market/market.cases.js';
import './market/scores.cases.js';
import './market/simulate.cases.js';
import './market/summary.cases.js';
import './market/roi.cases.js';
import './market/assumptions.cases.js';
import './market/evaluate.cases.js';
import './market/portfolios.cases.js';

useE2eWorld({ sandbox: true, startAt: new Date('2026-03-15T12:00:00.000Z') });
