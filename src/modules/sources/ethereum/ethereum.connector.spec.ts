/**
 * The Ethereum connector against a local fake Etherscan-compatible API and JSON-RPC endpoint:
 * ETH, internal and ERC-20 history through paging past the 10,000-row window, gas as priced fees,
 * unknown tokens kept, balances from the chain, and the failures the refresh engine must see as
 * "source unavailable" (rate limit, a refused key, 5xx, malformed rows, a failing RPC).
 */
import { createServer, type AddressInfo } from 'node:net';
import type { ChainTokenRef } from '../../../common/ports/market-prices.port.js';
import type { EtherscanNormalTx, EtherscanTokenTx } from '../../../domain/chains/ethereum/index.js';
import { FAKE_ETHERSCAN_KEY, FakeEthereum } from '../../../../test/fakes/ethereum-fake-server.js';
import {
  SourceUnavailableError,
  type ConnectorRequest,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import { EthereumConnector } from './ethereum.connector.js';
import { EtherscanClient } from './etherscan.client.js';

const ME = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const me = ME.toLowerCase();
const OTHER = '0x1111111111111111111111111111111111111111';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const SPAM = '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
const T = 1_704_067_200; // 2024-01-01T00:00:00Z
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

const normal = (
  n: number,
  from: string,
  to: string,
  value: bigint,
  block = 19_000_000 + n,
): EtherscanNormalTx => ({
  hash: hash(n),
  blockNumber: String(block),
  timeStamp: String(T + n * 60),
  from,
  to,
  value: String(value),
  gasUsed: '21000',
  gasPrice: '20000000000',
  isError: '0',
});
const token = (
  n: number,
  from: string,
  to: string,
  value: bigint,
  contractAddress: string,
): EtherscanTokenTx => ({
  hash: hash(n),
  blockNumber: String(19_000_000 + n),
  timeStamp: String(T + n * 60),
  from,
  to,
  value: String(value),
  contractAddress,
  tokenSymbol: 'USDC',
  tokenDecimal: contractAddress === USDC ? '6' : '18',
  logIndex: '3',
});

const prices = {
  pricesOnDate: async (symbols: readonly string[], date: string) =>
    new Map(date >= '2024-01-01' ? [[symbols[0]!, '2300.5']] : []),
};

/** A port nothing listens on: one the system just handed out and took back. */
const closedPort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });

describe('EthereumConnector against a fake Etherscan and JSON-RPC', () => {
  const chain = new FakeEthereum();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await chain.start();
  });
  afterAll(() => chain.stop());
  beforeEach(() => {
    chain.normal = [normal(1, OTHER, me, 2n * 10n ** 18n), normal(2, me, OTHER, 5n * 10n ** 17n)];
    chain.internal = [
      {
        hash: hash(3),
        blockNumber: '19000003',
        timeStamp: String(T + 180),
        from: USDC,
        to: me,
        value: '10000000000000000',
        isError: '0',
        traceId: '0',
      },
    ];
    chain.tokens = [token(4, OTHER, me, 2_500_000n, USDC), token(5, OTHER, me, 10n ** 21n, SPAM)];
    chain.ethBalances.set(me, 1_509_580_000_000_000_000n);
    chain.tokenBalances.set(`${USDC}:${me}`, 2_500_000n);
    chain.tokenBalances.set(`${SPAM}:${me}`, 10n ** 21n);
    chain.requests.length = 0;
    chain.faults.length = 0;
  });

  const connector = (options: { pageSize?: number; apiKey?: string; rpcPath?: string } = {}) =>
    new EthereumConnector(
      new EtherscanClient({
        baseUrl: `${baseUrl}/api`,
        apiKey: options.apiKey ?? FAKE_ETHERSCAN_KEY,
        chainId: 1,
        pageSize: options.pageSize,
        requestTimeoutMs: 2_000,
      }),
      prices,
      { rpcUrls: { ethereum: `${baseUrl}${options.rpcPath ?? '/rpc'}` }, rpcTimeoutMs: 2_000 },
    );
  const request = (address: string | null = ME): ConnectorRequest => ({
    account: {
      id: '00000000-0000-4000-8000-000000000001',
      tenantId: '00000000-0000-4000-8000-000000000002',
      platform: 'ethereum',
      identity: 'eth-wallet',
      address,
      chain: 'ethereum',
      createdOn: new Date('2024-01-01T00:00:00Z'),
      lastSyncedAt: null,
      sourceOptions: null,
    },
    credentials: null,
    now: new Date('2024-07-01T00:00:00Z'),
    signal: new AbortController().signal,
  });
  const collect = async (pages: AsyncIterable<readonly SourceTransaction[]>) => {
    const all: SourceTransaction[] = [];
    for await (const page of pages) all.push(...page);
    return all;
  };

  it('maps ETH, internal and token history, prices the gas, keeps an unknown token, and reads balances from the chain', async () => {
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const legs = await collect(result.pages);
    // Native ETH moves are transfer legs named by their transaction hash (an exchange leg of the
    // same hash pairs with them; unpaired they mean a deposit/withdrawal); tokens are not.
    expect(legs.map((t) => [t.direction, t.symbol, t.amount, t.priceUsd])).toEqual([
      ['transfer_in', 'ETH', '2', null],
      ['transfer_out', 'ETH', '0.5', null],
      ['fee', 'ETH', '0.00042', '2300.5'],
      ['transfer_in', 'ETH', '0.01', null],
      ['deposit', 'USDC', '2.5', null],
      ['deposit', 'ERCDEADBEEFDEADBEEFD', '1000', null],
    ]);
    for (const leg of legs) {
      const hash = leg.transactionId.split(':')[0]!.toLowerCase().replace(/^0x/, '');
      expect(leg.transferId).toBe(leg.direction.startsWith('transfer_') ? `chain:${hash}` : null);
    }
    // 2 − 0.5 − 0.00042 + 0.01 = 1.50958 ETH: the chain agrees with the history.
    expect(result.reportedBalances).toEqual(
      new Map([
        ['ETH', '1.50958'],
        ['USDC', '2.5'],
        ['ERCDEADBEEFDEADBEEFD', '1000'],
      ]),
    );
  });

  it('pages past Etherscan’s 10,000-row window by moving the start block, without duplicates', async () => {
    // 10,050 receipts of 1 wei in 2,010 blocks (5 per block): beyond one window of 10 pages × 1,000.
    chain.normal = Array.from({ length: 10_050 }, (_, i) =>
      normal(100 + i, OTHER, me, 1n, 20_000_000 + Math.floor(i / 5)),
    );
    chain.internal = [];
    chain.tokens = [];
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const legs = await collect(result.pages);
    expect(legs).toHaveLength(10_050);
    expect(new Set(legs.map((l) => l.transactionId)).size).toBe(10_050);
    const txlist = chain.requests.filter((r) => r.action === 'txlist');
    expect(txlist.map((r) => `${r.startblock}/${r.page}`)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `0/${i + 1}`),
      '20001999/1',
    ]);
  });

  it('reads token rows without a logIndex (as Etherscan documents them): distinct transfers of one transaction stay distinct, with the same ids on every refresh', async () => {
    const withoutLogIndex = (row: EtherscanTokenTx): EtherscanTokenTx => {
      const { logIndex: _logIndex, ...rest } = row;
      return rest;
    };
    // One transaction paying the address 2.5 USDC twice (two identical Transfer logs) and 1 USDC.
    chain.tokens = [
      token(4, OTHER, me, 2_500_000n, USDC),
      token(4, OTHER, me, 2_500_000n, USDC),
      token(4, OTHER, me, 1_000_000n, USDC),
    ].map(withoutLogIndex);
    chain.tokenBalances.set(`${USDC}:${me}`, 6_000_000n);
    chain.tokenBalances.delete(`${SPAM}:${me}`);
    const ids = async () => {
      const result = await connector().fetch(request());
      if (result.status !== 'ready') throw new Error('expected ready');
      const legs = (await collect(result.pages)).filter((l) => l.symbol === 'USDC');
      expect(legs.map((l) => [l.direction, l.amount]).sort()).toEqual([
        ['deposit', '1'],
        ['deposit', '2.5'],
        ['deposit', '2.5'],
      ]);
      expect(result.reportedBalances?.get('USDC')).toBe('6');
      return legs.map((l) => l.transactionId);
    };
    const first = await ids();
    expect(new Set(first).size).toBe(3);
    chain.tokens.reverse();
    expect((await ids()).sort()).toEqual([...first].sort());
  });

  it('pages token rows without a logIndex past the 10,000-row window without losing or doubling any', async () => {
    // 10,050 receipts of 1 unit in 2,010 blocks, 5 identical ones per transaction.
    chain.normal = [];
    chain.internal = [];
    chain.tokens = Array.from({ length: 10_050 }, (_, i) => {
      const { logIndex: _logIndex, ...row } = token(100 + Math.floor(i / 5), OTHER, me, 1n, USDC);
      return row;
    });
    chain.tokenBalances.set(`${USDC}:${me}`, 10_050n);
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const legs = await collect(result.pages);
    expect(legs).toHaveLength(10_050);
    expect(new Set(legs.map((l) => l.transactionId)).size).toBe(10_050);
  });

  it.each([
    [
      'the rate limit',
      { action: 'txlist', body: { status: '0', message: 'NOTOK', result: 'Max rate limit reached' } },
      /Max rate limit reached/,
    ],
    ['a 502', { action: 'tokentx', status: 502 }, /502/],
    [
      'a malformed row',
      { action: 'txlistinternal', body: { status: '1', message: 'OK', result: [{ nohash: true }] } },
      /malformed txlistinternal row/,
    ],
  ])('answers %s as source unavailable', async (_label, fault, message) => {
    chain.faults.push({ remaining: 1, ...fault });
    await expect(connector().fetch(request())).rejects.toThrow(
      expect.objectContaining({ name: SourceUnavailableError.name, message: expect.stringMatching(message) }),
    );
  });

  it('says the operator’s API key was refused, without showing it', async () => {
    const failure = connector({ apiKey: 'wrong-key-123' }).fetch(request());
    await expect(failure).rejects.toThrow('Etherscan refused the configured API key (ETHERSCAN_API_KEY).');
    await expect(failure).rejects.not.toThrow(/wrong-key-123/);
  });

  it('says why Etherscan could not be reached (the error code), without its address or the key', async () => {
    const unreachable = new EthereumConnector(
      new EtherscanClient({
        baseUrl: `http://127.0.0.1:${await closedPort()}/api`, // nothing listens there
        apiKey: 'secret-key-456',
        chainId: 1,
        requestTimeoutMs: 2_000,
      }),
      prices,
      { rpcUrls: { ethereum: `${baseUrl}/rpc` }, rpcTimeoutMs: 2_000 },
    );
    const failure = unreachable.fetch(request());
    await expect(failure).rejects.toThrow('Etherscan could not be reached (ECONNREFUSED).');
    await expect(failure).rejects.not.toThrow(/secret-key-456|127\.0\.0\.1/);
  });

  it('answers a failing JSON-RPC endpoint as source unavailable', async () => {
    await expect(connector({ rpcPath: '/nowhere' }).fetch(request())).rejects.toThrow(
      /JSON-RPC endpoint failed/,
    );
  });

  it('refuses an account without a valid address', async () => {
    await expect(connector().fetch(request('0x123'))).rejects.toThrow(
      'The account has no valid Ethereum address.',
    );
  });
});

/**
 * The same connector on Base, Arbitrum One and Polygon PoS (issue 30 items 2 and 3): the chain is the
 * account's, Etherscan is asked with that chain's `chainid`, balances come from that chain's
 * JSON-RPC endpoint, and swaps and wraps come out as the ledger records them (docs/cost-basis.md,
 * "Swaps and wraps on chain"). Prices stored: ETH 3,000.00, USDC 1.00, POL 0.50 from 2024-06-01;
 * no WETH.
 */
describe('EthereumConnector on Base and Arbitrum One', () => {
  const fake = new FakeEthereum();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await fake.start();
  });
  afterAll(() => fake.stop());

  const ROUTER = '0x2626664c2603336e57b271c5c0b26f421741e481';
  const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
  const ARB_USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
  const ARB_WETH = '0x82af49447d8a07e3bd95bd0d56f35241523fbab1';
  const JUNE_3 = 1_717_416_000; // 2024-06-03T12:00:00Z
  const wei = (eth: string) => {
    const [whole, fraction = ''] = eth.split('.');
    return BigInt(whole! + fraction.padEnd(18, '0'));
  };
  const sent = (
    n: number,
    to: string,
    value: bigint,
    gasUsed: string,
    gasPrice: string,
  ): EtherscanNormalTx => ({
    hash: hash(n),
    blockNumber: String(1_000 + n),
    timeStamp: String(JUNE_3 + n),
    from: me,
    to,
    value: String(value),
    gasUsed,
    gasPrice,
    isError: '0',
  });
  const moved = (
    n: number,
    from: string,
    to: string,
    value: bigint,
    contractAddress: string,
    decimals: string,
    logIndex: string,
  ): EtherscanTokenTx => ({
    hash: hash(n),
    blockNumber: String(1_000 + n),
    timeStamp: String(JUNE_3 + n),
    from,
    to,
    value: String(value),
    contractAddress,
    tokenSymbol: 'TKN',
    tokenDecimal: decimals,
    logIndex,
  });
  const asked: string[] = [];
  const ensured: { tokens: unknown[]; from: string; to: string }[] = [];
  const storedPrices = {
    ensureTokenPrices: async (tokens: readonly ChainTokenRef[], from: string, to: string) => {
      ensured.push({ tokens: [...tokens], from, to });
      asked.push('ensure');
      return new Map(tokens.map((t) => [t.symbol, 'catalog' as const]));
    },
    pricesOnDate: async (symbols: readonly string[], date: string) => {
      asked.push(`${date}:${[...symbols].sort().join(',')}`);
      const table: Record<string, string> =
        date >= '2024-06-01' ? { ETH: '3000.00', USDC: '1.00', POL: '0.50' } : {};
      return new Map(symbols.flatMap((s) => (table[s] ? [[s, table[s]] as [string, string]] : [])));
    },
  };
  const connector = () =>
    new EthereumConnector(
      new EtherscanClient({
        baseUrl: `${baseUrl}/api`,
        apiKey: FAKE_ETHERSCAN_KEY,
        chainId: 1,
        requestTimeoutMs: 2_000,
      }),
      storedPrices,
      {
        rpcUrls: {
          base: `${baseUrl}/rpc/8453`,
          arbitrum: `${baseUrl}/rpc/42161`,
          polygon: `${baseUrl}/rpc/137`,
        },
        rpcTimeoutMs: 2_000,
      },
    );
  const request = (chain: string): ConnectorRequest => ({
    account: {
      id: '00000000-0000-4000-8000-000000000011',
      tenantId: '00000000-0000-4000-8000-000000000002',
      platform: chain,
      identity: `${chain}-wallet`,
      address: ME,
      chain,
      createdOn: new Date('2024-06-01T00:00:00Z'),
      lastSyncedAt: null,
      sourceOptions: null,
    },
    credentials: null,
    now: new Date('2024-07-01T00:00:00Z'),
    signal: new AbortController().signal,
  });
  const legsOf = async (chain: string) => {
    const result = await connector().fetch(request(chain));
    if (result.status !== 'ready') throw new Error('expected ready');
    const legs: SourceTransaction[] = [];
    for await (const page of result.pages) legs.push(...page);
    return { legs, balances: result.reportedBalances };
  };
  beforeEach(() => {
    fake.resetChains();
    fake.normal = [];
    fake.internal = [];
    fake.tokens = [];
    fake.requests.length = 0;
    asked.length = 0;
    ensured.length = 0;
  });

  it('Base: a swap of 1.5 ETH for 4,500 USDC is a sell at 3,000.00 and a buy at 1, gas 0.002 ETH with its L1 data fee', async () => {
    const base = fake.chain(8453);
    base.normal = [
      { ...sent(1, me, wei('2'), '21000', '1000000000'), from: OTHER, to: me },
      // The swap: 99,950 gas × 20 gwei = 0.001999 ETH on L2, plus 0.000001 ETH of L1 data fee.
      sent(2, ROUTER, wei('1.5'), '99950', '20000000000'),
    ];
    base.l1Fees.set(hash(2), wei('0.000001'));
    base.tokens = [moved(2, ROUTER, me, 4_500_000_000n, BASE_USDC, '6', '41')];
    // 2 − 1.5 − 0.002 = 0.498 ETH; 4,500 USDC.
    base.ethBalances.set(me, wei('0.498'));
    base.tokenBalances.set(`${BASE_USDC}:${me}`, 4_500_000_000n);

    const { legs, balances } = await legsOf('base');
    expect(
      legs.map((t) => [t.transactionId.slice(64), t.direction, t.symbol, t.amount, t.priceUsd, t.transferId]),
    ).toEqual([
      ['01:eth-in', 'transfer_in', 'ETH', '2', null, `chain:${hash(1).slice(2)}`],
      // V = 1.5 × 3,000.00 = 4,500.00 (ETH, the side that left, is priced); USDC 4,500.00 / 4,500 = 1.
      ['02:eth-out', 'sell', 'ETH', '1.5', '3000', null],
      ['02:fee', 'fee', 'ETH', '0.002', '3000.00', null],
      ['02:token:41', 'buy', 'USDC', '4500', '1', null],
    ]);
    expect(balances).toEqual(
      new Map([
        ['ETH', '0.498'],
        ['USDC', '4500'],
      ]),
    );
    // Etherscan asked with Base's chain id; the receipt (L1 fee) and balances read on Base's endpoint.
    expect(new Set(fake.requests.filter((r) => r.action).map((r) => r.chainid))).toEqual(new Set(['8453']));
    expect(fake.requests.filter((r) => r.rpc).map((r) => `${r.rpcChain}:${r.rpc}`)).toEqual([
      '8453:eth_getTransactionReceipt',
      '8453:eth_getBalance',
      '8453:eth_call',
    ]);
  });

  it('Arbitrum: a wrap is a conversion pair, and WETH for USDC is valued from USDC when WETH has no stored price', async () => {
    const arbitrum = fake.chain(42161);
    arbitrum.normal = [
      { ...sent(1, me, wei('1'), '21000', '10000000'), from: OTHER, to: me },
      // Wrap 0.4 ETH: 50,000 gas × 0.01 gwei = 0.0000005 ETH.
      sent(2, ARB_WETH, wei('0.4'), '50000', '10000000'),
      // Swap 0.4 WETH for 1,200 USDC through a router: value 0, gas 0.0000005 ETH.
      sent(3, ROUTER, 0n, '50000', '10000000'),
    ];
    arbitrum.tokens = [
      moved(2, ARB_WETH, me, wei('0.4'), ARB_WETH, '18', '5'),
      moved(3, me, ROUTER, wei('0.4'), ARB_WETH, '18', '8'),
      moved(3, ROUTER, me, 1_200_000_000n, ARB_USDC, '6', '9'),
    ];
    // 1 − 0.4 − 0.0000005 × 2 = 0.599999 ETH; no WETH; 1,200 USDC.
    arbitrum.ethBalances.set(me, wei('0.599999'));
    arbitrum.tokenBalances.set(`${ARB_USDC}:${me}`, 1_200_000_000n);

    const { legs, balances } = await legsOf('arbitrum');
    const wrap = `wrap:${hash(2)}`;
    expect(
      legs.map((t) => [t.transactionId.slice(64), t.direction, t.symbol, t.amount, t.priceUsd, t.transferId]),
    ).toEqual([
      ['01:eth-in', 'transfer_in', 'ETH', '1', null, `chain:${hash(1).slice(2)}`],
      ['02:eth-out', 'transfer_out', 'ETH', '0.4', null, wrap],
      ['02:fee', 'fee', 'ETH', '0.0000005', '3000.00', null],
      ['02:token:5', 'transfer_in', 'WETH', '0.4', null, wrap],
      ['03:fee', 'fee', 'ETH', '0.0000005', '3000.00', null],
      // V = 1,200 × 1.00 = 1,200.00 (WETH has no stored price); WETH 1,200.00 / 0.4 = 3,000.
      ['03:token:8', 'sell', 'WETH', '0.4', '3000', null],
      ['03:token:9', 'buy', 'USDC', '1200', '1', null],
    ]);
    expect(balances).toEqual(
      new Map([
        ['ETH', '0.599999'],
        ['WETH', '0'],
        ['USDC', '1200'],
      ]),
    );
    expect(new Set(fake.requests.filter((r) => r.action).map((r) => r.chainid))).toEqual(new Set(['42161']));
    // The tokens moved were handed to the market store (CoinGecko's platform id, the contract)
    // for the history's days up to the refresh, before any price was read.
    expect(ensured).toEqual([
      {
        tokens: [
          { symbol: 'WETH', platform: 'arbitrum-one', contract: ARB_WETH },
          { symbol: 'USDC', platform: 'arbitrum-one', contract: ARB_USDC },
        ],
        from: '2024-06-03',
        to: '2024-07-01',
      },
    ]);
    expect(asked[0]).toBe('ensure');
    // Arbitrum is not an OP-stack chain: no receipt is read.
    expect(fake.requests.some((r) => r.rpc === 'eth_getTransactionReceipt')).toBe(false);
    expect(fake.requests.filter((r) => r.rpc).every((r) => r.rpcChain === 42161)).toBe(true);
  });

  it('Base: reads each receipt once; a later refresh takes the L1 fees it already knows', async () => {
    const base = fake.chain(8453);
    base.normal = [
      sent(1, OTHER, wei('0.1'), '21000', '1000000000'),
      sent(2, OTHER, wei('0.1'), '21000', '1000000000'),
    ];
    base.l1Fees.set(hash(1), 5n);
    base.l1Fees.set(hash(2), 7n);
    const one = connector();
    const receipts = () => fake.requests.filter((r) => r.rpc === 'eth_getTransactionReceipt').length;
    const fees = async () => {
      const result = await one.fetch(request('base'));
      if (result.status !== 'ready') throw new Error('expected ready');
      const legs: SourceTransaction[] = [];
      for await (const page of result.pages) legs.push(...page);
      return legs.filter((l) => l.direction === 'fee').map((l) => l.amount);
    };
    // 21,000 × 1 gwei = 0.000021 ETH, plus 5 and 7 wei of L1 fee.
    expect(await fees()).toEqual(['0.000021000000000005', '0.000021000000000007']);
    expect(receipts()).toBe(2);
    expect(await fees()).toEqual(['0.000021000000000005', '0.000021000000000007']);
    expect(receipts()).toBe(2);
  });

  it('Polygon: gas in POL at POL’s stored price; a wrap the explorer did not list as a token transfer is still a conversion', async () => {
    const WPOL = '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270';
    const polygon = fake.chain(137);
    // 100 POL in; 40 POL wrapped (deposit() on WPOL: no Transfer log listed), gas 21,000 × 30 gwei = 0.00063 POL.
    polygon.normal = [
      { ...sent(1, me, wei('100'), '21000', '30000000000'), from: OTHER, to: me },
      sent(2, WPOL, wei('40'), '21000', '30000000000'),
    ];
    polygon.ethBalances.set(me, wei('59.99937'));
    polygon.tokenBalances.set(`${WPOL}:${me}`, wei('40'));
    const { legs, balances } = await legsOf('polygon');
    const wrap = `wrap:${hash(2)}`;
    expect(
      legs.map((t) => [t.transactionId.slice(64), t.direction, t.symbol, t.amount, t.priceUsd, t.transferId]),
    ).toEqual([
      ['01:eth-in', 'transfer_in', 'POL', '100', null, `chain:${hash(1).slice(2)}`],
      ['02:eth-out', 'transfer_out', 'POL', '40', null, wrap],
      ['02:fee', 'fee', 'POL', '0.00063', '0.50', null],
      ['02:wrap-in', 'transfer_in', 'WPOL', '40', null, wrap],
    ]);
    // 100 − 40 − 0.00063 = 59.99937 POL; 40 WPOL: the chain agrees.
    expect(balances).toEqual(
      new Map([
        ['POL', '59.99937'],
        ['WPOL', '40'],
      ]),
    );
    expect(new Set(fake.requests.filter((r) => r.action).map((r) => r.chainid))).toEqual(new Set(['137']));
  });

  it('refuses a chain outside the table, naming the ones it reads', async () => {
    await expect(connector().fetch(request('fantom'))).rejects.toThrow(
      "The account's chain fantom is not one this source reads (ethereum, base, arbitrum, optimism, polygon).",
    );
  });

  it('answers a failing L1-fee receipt read as source unavailable', async () => {
    fake.chain(8453).normal = [sent(2, ROUTER, wei('1'), '21000', '1000000000')];
    const broken = new EthereumConnector(
      new EtherscanClient({ baseUrl: `${baseUrl}/api`, apiKey: FAKE_ETHERSCAN_KEY, requestTimeoutMs: 2_000 }),
      storedPrices,
      { rpcUrls: { base: `${baseUrl}/nowhere` }, rpcTimeoutMs: 2_000 },
    );
    await expect(broken.fetch(request('base'))).rejects.toThrow(/The Base JSON-RPC endpoint failed/);
  });
});
