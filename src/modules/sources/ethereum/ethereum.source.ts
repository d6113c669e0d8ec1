import type { SourceDescription } from '../connectors/source-connector.js';

/**
 * The `ethereum` source: a watch-only address (`address` + `chain: ethereum`); ETH and ERC-20
 * history from an Etherscan-compatible API, balances by JSON-RPC.
 */
export const ETHEREUM_SOURCE: SourceDescription = {
  summary: '`ethereum` (watch-only address: ETH and ERC-20, from an Etherscan-compatible API)',
  synthetic: false,
  options: {},
  linking: { platforms: ['ethereum'], accepts: ['address'] },
};
