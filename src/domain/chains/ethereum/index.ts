export * from './etherscan-history.js';
