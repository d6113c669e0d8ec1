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
  examples: {
    ethereum: {
      summary: 'Ethereum: a watch-only address (ETH and ERC-20)',
      body: {
        platform: 'ethereum',
        source: 'ethereum',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        chain: 'ethereum',
      },
    },
  },
};
