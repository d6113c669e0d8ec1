/**
 * The Ethereum connector against a local fake Etherscan-compatible API and JSON-RPC endpoint:
 * ETH, internal and ERC-20 history through paging past the 10,000-row window, gas as priced fees,
 * unknown tokens kept, balances from the chain, and the failures the refresh engine must see as
 * "source unavailable" (rate limit, a refused key, 5xx, malformed rows, a failing RPC).
 */
import { createServer, type AddressInfo } from 'node:net';
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
