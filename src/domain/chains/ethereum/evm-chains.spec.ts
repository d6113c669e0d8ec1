/**
 * The chain table (issue 30 item 2): one row per EVM network, each complete and consistent, and
 * tokens identified by chain and contract: a listed token is its ticker on every chain, an
 * unlisted one is a different asset per chain.
 */
import { isAddress } from 'viem';
import {
  addressLegs,
  unknownTokenSymbol,
  type EtherscanNormalTx,
  type EtherscanTokenTx,
} from './etherscan-history.js';
import { ETHEREUM_MAINNET, evmChain, EVM_CHAINS, EVM_PLATFORMS, wrapPairOf } from './evm-chains.js';

const ME = '0x9858effd232b4033e47d90003d41ec34ecaeda94';
const OTHER = '0x1111111111111111111111111111111111111111';
const SPAM = '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
const T = 1_717_416_000; // 2024-06-03T12:00:00Z
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

const sent = (n: number, value: string): EtherscanNormalTx => ({
  hash: hash(n),
  blockNumber: String(100 + n),
  timeStamp: String(T),
  from: ME,
  to: OTHER,
  value,
  gasUsed: '21000',
  gasPrice: '30000000000',
  isError: '0',
});
const received = (n: number, contractAddress: string, value: string, decimals: string): EtherscanTokenTx => ({
  hash: hash(n),
  blockNumber: String(100 + n),
  timeStamp: String(T),
  from: OTHER,
  to: ME,
  value,
  contractAddress,
  tokenSymbol: 'USDC',
  tokenDecimal: decimals,
  logIndex: '1',
});

describe('EVM_CHAINS', () => {
  it('lists Ethereum, Base, Arbitrum One, OP Mainnet and Polygon PoS with their Etherscan v2 chain ids and gas assets', () => {
    expect(EVM_CHAINS.map((c) => [c.platform, c.chainId, c.gasAsset, c.l1DataFee])).toEqual([
      ['ethereum', 1, 'ETH', false],
      ['base', 8453, 'ETH', true],
      ['arbitrum', 42161, 'ETH', false],
      ['optimism', 10, 'ETH', true],
      ['polygon', 137, 'POL', false],
    ]);
    expect(EVM_PLATFORMS).toEqual(['ethereum', 'base', 'arbitrum', 'optimism', 'polygon']);
    expect(evmChain('base')?.chainId).toBe(8453);
    expect(evmChain('solana')).toBeUndefined();
  });

  it('keeps each row consistent: lower-case valid contracts, the wrapped gas asset listed, the RPC key named after the platform', () => {
    for (const chain of EVM_CHAINS) {
      expect(chain.rpcUrlKey).toBe(`${chain.platform.toUpperCase()}_RPC_URL`);
      expect(chain.defaultRpcUrl).toMatch(/^https:\/\//);
      for (const [contract, token] of chain.knownTokens) {
        expect(contract).toBe(contract.toLowerCase());
        expect(isAddress(contract)).toBe(true);
        expect(token.symbol).toMatch(/^[A-Z0-9]{1,20}$/);
      }
      expect(wrapPairOf(chain)).toEqual({
        native: chain.gasAsset,
        wrapped: chain.gasAsset === 'POL' ? 'WPOL' : 'WETH',
      });
    }
  });

  it('lists native USDC on each chain by the contract Circle publishes', () => {
    const usdc = (platform: string) =>
      [...evmChain(platform)!.knownTokens].find(([, token]) => token.symbol === 'USDC')?.[0];
    expect(usdc('base')).toBe('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
    expect(usdc('arbitrum')).toBe('0xaf88d065e77c8cc2239327c5edb3a432268e5831');
    expect(usdc('optimism')).toBe('0x0b2c639c533813f4aa9d7837caf62653d097ff85');
    expect(usdc('polygon')).toBe('0x3c499c542cef5e3811e1192ce70d8cc03d5c3359');
  });

  it('derives unknown-token symbols that never collide across chains (prefixes differ in their first letter)', () => {
    const firstLetters = EVM_CHAINS.map((c) => c.unknownPrefix[0]);
    expect(new Set(firstLetters).size).toBe(EVM_CHAINS.length);
    const symbols = EVM_CHAINS.map((chain) => unknownTokenSymbol(SPAM, chain));
    expect(symbols).toEqual([
      'ERCDEADBEEFDEADBEEFD', // mainnet: as before the table, so stored symbols stay the same
      'BASEDEADBEEFDEADBEEF',
      'ARBDEADBEEFDEADBEEFD',
      'OPDEADBEEFDEADBEEFDE',
      'POLYDEADBEEFDEADBEEF',
    ]);
    for (const symbol of symbols) expect(symbol).toMatch(/^[A-Z0-9]{20}$/);
    expect(unknownTokenSymbol(SPAM)).toBe(unknownTokenSymbol(SPAM, ETHEREUM_MAINNET));
  });
});

describe('addressLegs on another chain', () => {
  it('names the same unlisted contract differently per chain, and a listed one by its ticker on that chain only', () => {
    const baseUsdc = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
    const history = { normal: [], internal: [], tokens: [received(1, baseUsdc, '2500000', '6')] };
    expect(
      addressLegs(ME, history, evmChain('base')).map((l) => [l.symbol, l.amount, l.unknownToken]),
    ).toEqual([['USDC', '2.5', false]]);
    // Base's USDC contract means nothing on Arbitrum: an unknown token of that chain.
    expect(addressLegs(ME, history, evmChain('arbitrum')).map((l) => [l.symbol, l.unknownToken])).toEqual([
      ['ARB833589FCD6EDB6E08', true],
    ]);
  });

  it('pays Polygon’s gas in POL (21,000 × 30 gwei = 0.00063 POL)', () => {
    const legs = addressLegs(
      ME,
      { normal: [sent(2, '5000000000000000000')], internal: [], tokens: [] },
      evmChain('polygon'),
    );
    expect(legs.map((l) => [l.direction, l.symbol, l.amount, l.transferId])).toEqual([
      ['withdrawal', 'POL', '5', `chain:${hash(2).slice(2)}`],
      ['fee', 'POL', '0.00063', null],
    ]);
  });

  it('adds an OP-stack transaction’s L1 data fee to its gas: 21,000 × 30 gwei + 0.000001234 ETH = 0.000631234 ETH', () => {
    const l1Fees = new Map([[hash(3), 1_234_000_000_000n]]);
    const legs = addressLegs(
      ME,
      { normal: [sent(3, '0')], internal: [], tokens: [], l1Fees },
      evmChain('base'),
    );
    expect(legs.map((l) => [l.direction, l.symbol, l.amount])).toEqual([['fee', 'ETH', '0.000631234']]);
  });

  it('adds the wrapped side of a wrap and an unwrap the explorer did not list as token transfers, and never doubles a listed one', () => {
    const polygon = evmChain('polygon')!;
    const WPOL = polygon.wrappedGasAsset;
    // Wrap 50 POL (the contract's deposit()); later unwrap 20 (withdraw() pays the caller internally).
    const wrap = { ...sent(4, '50000000000000000000'), to: WPOL };
    const unwrapCall = { ...sent(5, '0'), to: WPOL };
    const unwrapPaid = {
      hash: hash(5),
      blockNumber: '105',
      timeStamp: String(T),
      from: WPOL,
      to: ME,
      value: '20000000000000000000',
      isError: '0',
      traceId: '0',
    };
    const legs = addressLegs(ME, { normal: [wrap, unwrapCall], internal: [unwrapPaid], tokens: [] }, polygon);
    expect(legs.map((l) => [l.transactionId.slice(64), l.direction, l.symbol, l.amount])).toEqual([
      ['04:eth-out', 'withdrawal', 'POL', '50'],
      ['04:fee', 'fee', 'POL', '0.00063'],
      ['04:wrap-in', 'deposit', 'WPOL', '50'],
      ['05:fee', 'fee', 'POL', '0.00063'],
      ['05:internal:0:deposit', 'deposit', 'POL', '20'],
      ['05:wrap-out', 'withdrawal', 'WPOL', '20'],
    ]);
    // Listed by the explorer (a Transfer from the contract): that row stands, nothing is added.
    const listed = addressLegs(
      ME,
      {
        normal: [wrap],
        internal: [],
        tokens: [{ ...received(4, WPOL, '50000000000000000000', '18'), from: WPOL }],
      },
      polygon,
    );
    expect(listed.filter((l) => l.symbol === 'WPOL').map((l) => l.transactionId.slice(64))).toEqual([
      '04:token:1',
    ]);
  });
});
