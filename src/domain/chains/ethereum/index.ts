export * from './etherscan-history.js';
export * from './evm-chains.js';
