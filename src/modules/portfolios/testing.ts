/** For tests only (the lint rule lets test/ import it, never src/): the sandbox portfolios' ids. */
export { sandboxPortfolioId } from './portfolios-sandbox.seed.js';
