/**
 * The EVM networks the `ethereum` source reads (issue 30 item 2): one connector, this table, no
 * copy per chain. Each chain has its partner-facing platform id (also the account's `chain`), its
 * Etherscan v2 `chainid`, a default public JSON-RPC endpoint (overridden per chain by
 * `<PLATFORM>_RPC_URL`, src/config/app-config.ts), the gas asset's ledger symbol, the prefix of
 * the symbols derived for its unknown tokens, its wrapped gas asset, and the tokens known by
 * ticker (contract → ticker, decimals).
 *
 * A listed token is the asset of its ticker whatever the chain (native USDC on Base is USDC, like
 * mainnet USDC); an unlisted one is its own asset per chain and contract: the prefixes differ in
 * their first letter, so no derived symbol of one chain can equal one of another (evm-chains.spec).
 * Pure data; contracts in lower case.
 */
export interface EvmToken {
  readonly symbol: string;
  readonly decimals: number;
}

export interface EvmChain {
  /** Platform id partners link (`platform`), stored as the account's `chain`. */
  readonly platform: string;
  readonly name: string;
  /** Etherscan v2 `chainid`. */
  readonly chainId: number;
  /** CoinGecko's asset platform id, for token prices by contract (MarketPricesPort.ensureTokenPrices). */
  readonly coingeckoPlatform: string;
  /** Ledger symbol of the native (gas) asset: ETH, or POL on Polygon PoS. */
  readonly gasAsset: string;
  readonly defaultRpcUrl: string;
  /** The configuration key overriding defaultRpcUrl. */
  readonly rpcUrlKey: string;
  /** Prefix of unknownTokenSymbol on this chain (first letter unique in the table). */
  readonly unknownPrefix: string;
  /**
   * An OP-stack rollup (Base, OP Mainnet): each transaction also pays an L1 data fee, which the
   * explorer's lists leave out and the receipt gives as `l1Fee` (read by JSON-RPC).
   */
  readonly l1DataFee: boolean;
  /** The wrapped gas asset's contract (WETH9-style: deposit/withdraw 1:1). */
  readonly wrappedGasAsset: string;
  readonly knownTokens: ReadonlyMap<string, EvmToken>;
}

const tokens = (rows: readonly [string, string, number][]): ReadonlyMap<string, EvmToken> =>
  new Map(rows.map(([contract, symbol, decimals]) => [contract.toLowerCase(), { symbol, decimals }]));

export const ETHEREUM_MAINNET: EvmChain = {
  platform: 'ethereum',
  l1DataFee: false,
  name: 'Ethereum',
  chainId: 1,
  coingeckoPlatform: 'ethereum',
  gasAsset: 'ETH',
  defaultRpcUrl: 'https://ethereum-rpc.publicnode.com',
  rpcUrlKey: 'ETHEREUM_RPC_URL',
  // "ERC" as before the table: symbols already stored for mainnet tokens stay the same.
  unknownPrefix: 'ERC',
  wrappedGasAsset: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  knownTokens: tokens([
    ['0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'USDC', 6],
    ['0xdac17f958d2ee523a2206206994597c13d831ec7', 'USDT', 6],
    ['0x6b175474e89094c44da98b954eedeac495271d0f', 'DAI', 18],
    ['0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', 'WETH', 18],
    ['0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', 'WBTC', 8],
    ['0x514910771af9ca656af840dff83e8264ecf986ca', 'LINK', 18],
    ['0x1f9840a85d5af5bf1d1762f925bdaddc4201f984', 'UNI', 18],
  ]),
};

export const EVM_CHAINS: readonly EvmChain[] = [
  ETHEREUM_MAINNET,
  {
    platform: 'base',
    l1DataFee: true,
    name: 'Base',
    chainId: 8453,
    coingeckoPlatform: 'base',
    gasAsset: 'ETH',
    defaultRpcUrl: 'https://mainnet.base.org',
    rpcUrlKey: 'BASE_RPC_URL',
    unknownPrefix: 'BASE',
    wrappedGasAsset: '0x4200000000000000000000000000000000000006',
    knownTokens: tokens([
      ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC', 6],
      ['0x4200000000000000000000000000000000000006', 'WETH', 18],
      ['0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb', 'DAI', 18],
    ]),
  },
  {
    platform: 'arbitrum',
    l1DataFee: false,
    name: 'Arbitrum One',
    chainId: 42161,
    coingeckoPlatform: 'arbitrum-one',
    gasAsset: 'ETH',
    defaultRpcUrl: 'https://arb1.arbitrum.io/rpc',
    rpcUrlKey: 'ARBITRUM_RPC_URL',
    unknownPrefix: 'ARB',
    wrappedGasAsset: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
    knownTokens: tokens([
      ['0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 'USDC', 6],
      ['0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', 'WETH', 18],
      ['0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', 'USDT', 6],
      ['0x912CE59144191C1204E64559FE8253a0e49E6548', 'ARB', 18],
      ['0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1', 'DAI', 18],
      ['0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f', 'WBTC', 8],
    ]),
  },
  {
    platform: 'optimism',
    l1DataFee: true,
    name: 'OP Mainnet',
    chainId: 10,
    coingeckoPlatform: 'optimistic-ethereum',
    gasAsset: 'ETH',
    defaultRpcUrl: 'https://mainnet.optimism.io',
    rpcUrlKey: 'OPTIMISM_RPC_URL',
    unknownPrefix: 'OP',
    wrappedGasAsset: '0x4200000000000000000000000000000000000006',
    knownTokens: tokens([
      ['0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 'USDC', 6],
      ['0x4200000000000000000000000000000000000006', 'WETH', 18],
      ['0x4200000000000000000000000000000000000042', 'OP', 18],
      ['0x94b008aA00579c1307B0EF2c499aD98a8ce58e58', 'USDT', 6],
      ['0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1', 'DAI', 18],
    ]),
  },
  {
    platform: 'polygon',
    l1DataFee: false,
    name: 'Polygon PoS',
    chainId: 137,
    coingeckoPlatform: 'polygon-pos',
    gasAsset: 'POL',
    defaultRpcUrl: 'https://polygon-rpc.com',
    rpcUrlKey: 'POLYGON_RPC_URL',
    unknownPrefix: 'POLY',
    wrappedGasAsset: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
    knownTokens: tokens([
      ['0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 'USDC', 6],
      ['0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270', 'WPOL', 18],
      ['0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619', 'WETH', 18],
      ['0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 'USDT', 6],
      ['0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063', 'DAI', 18],
      ['0x1BFD67037B42Cf73acF2047067bd4F2C47D9BfD6', 'WBTC', 8],
    ]),
  },
];

/** Platform ids of the table, in table order. */
export const EVM_PLATFORMS: readonly string[] = EVM_CHAINS.map((chain) => chain.platform);

/** The chain of a platform id (the account's `chain`), or undefined. */
export function evmChain(platform: string | null | undefined): EvmChain | undefined {
  return EVM_CHAINS.find((chain) => chain.platform === platform);
}

/**
 * The wrapped gas asset of a chain as a wrap pair for the swap rules (src/domain/chains/swaps.ts):
 * ETH ↔ WETH, POL ↔ WPOL.
 */
export function wrapPairOf(chain: EvmChain): { native: string; wrapped: string } {
  const wrapped = chain.knownTokens.get(chain.wrappedGasAsset);
  if (!wrapped) throw new Error(`${chain.platform}: the wrapped gas asset is not a known token`);
  return { native: chain.gasAsset, wrapped: wrapped.symbol };
}
