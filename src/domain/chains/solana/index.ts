export * from './solana-history.js';
