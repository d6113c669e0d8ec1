/**
 * Figures built on the accounts' balance snapshots: the portfolio summary and the wallets. Owns
 * the sums and conversions; never reads accounts, snapshots or prices.
 */
export * from './portfolio-summary.js';
export * from './wallet-figures.js';
