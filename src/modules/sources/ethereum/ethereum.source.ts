import { EVM_CHAINS, EVM_PLATFORMS } from '../../../domain/chains/ethereum/evm-chains.js';
import type { SourceDescription } from '../connectors/source-connector.js';

/**
 * The `ethereum` source: a watch-only address on one EVM chain of the table (`address` +
 * `chain`: ethereum, base, arbitrum, optimism or polygon; docs/sources.md "EVM networks"). The
 * id stays `ethereum` for every chain, so accounts linked before the other chains keep working:
 * one source, one connector, the chain is the account's. History from an Etherscan-compatible API
 * (v2 `chainid`), balances by JSON-RPC.
 */
export const ETHEREUM_SOURCE: SourceDescription = {
  summary: `\`ethereum\` (watch-only address on an EVM chain: ${EVM_CHAINS.map((c) => `${c.platform} (${c.gasAsset})`).join(', ')}; native asset and ERC-20, swaps and wraps, from an Etherscan-compatible API)`,
  synthetic: false,
  options: {},
  linking: { platforms: EVM_PLATFORMS, accepts: ['address'] },
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
    'ethereum-base': {
      summary: 'Base: a watch-only address (ETH and tokens on Base; the same source, chain base)',
      body: {
        platform: 'base',
        source: 'ethereum',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        chain: 'base',
      },
    },
  },
};
