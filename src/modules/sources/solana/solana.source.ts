import type { SourceDescription } from '../connectors/source-connector.js';

/**
 * The `solana` source: a watch-only address (`address` + `chain: solana`); SOL and SPL tokens
 * (both token programs), fees and staking rewards from Solana JSON-RPC (docs/sources.md, "Solana").
 */
export const SOLANA_SOURCE: SourceDescription = {
  summary: '`solana` (watch-only address: SOL, SPL tokens and staking rewards, from Solana JSON-RPC)',
  synthetic: false,
  options: {},
  linking: { platforms: ['solana'], accepts: ['address'] },
  examples: {
    solana: {
      summary: 'Solana: a watch-only address (SOL, SPL tokens, staking rewards)',
      body: {
        platform: 'solana',
        source: 'solana',
        address: '83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri',
        chain: 'solana',
      },
    },
  },
};
