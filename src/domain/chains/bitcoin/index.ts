export * from './extended-key.js';
export * from './gap-limit.js';
export * from './esplora-history.js';
