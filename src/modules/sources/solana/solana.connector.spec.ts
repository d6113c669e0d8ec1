/**
 * The Solana connector against a local fake Solana JSON-RPC endpoint (test/fakes): a hand-built
 * history (SOL in, SOL out with its fee, a failed transaction, an own USDC account opened then
 * credited by a transaction that names only that account, an unknown Token-2022 mint received,
 * SOL staked and two inflation rewards), signatures over several pages, balances of the whole
 * wallet, and the failures the refresh engine must see as "source unavailable".
 */
import { base58 } from '@scure/base';
import { Decimal } from 'decimal.js';
import { createServer, type AddressInfo } from 'node:net';
import { unknownMintSymbol } from '../../../domain/chains/solana/index.js';
import {
  buildTransaction,
  FakeSolanaRpc,
  tokenBalance,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from '../../../../test/fakes/solana-fake-server.js';
import {
  SourceUnavailableError,
  type ConnectorRequest,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import { SolanaConnector } from './solana.connector.js';
import { SolanaRpcClient } from './solana-rpc.client.js';

const key = (n: number) => base58.encode(new Uint8Array(32).fill(n));
const sig = (n: number) => base58.encode(new Uint8Array(64).fill(n));
const ME = key(11);
const OTHER = key(12);
const MY_USDC = key(13);
const OTHER_USDC = key(14);
const MY_ODD = key(15);
const OTHER_ODD = key(16);
const STAKE = key(17);
const ODD_MINT = key(18);
const SYSTEM = '11111111111111111111111111111111';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const T = 1_717_200_000; // 2024-06-01T00:00:00Z
const SLOT = 268_000_000; // epoch 620 (432,000 slots an epoch)
const DAY = 86_400;

/** Distinct signatures (64 bytes: two counting the transaction, the rest 1s). */
const manySig = (i: number) => {
  const bytes = new Uint8Array(64).fill(1);
  bytes[0] = 1 + (i >> 8);
  bytes[1] = i & 255;
  return base58.encode(bytes);
};
const at = (n: number) => ({ signature: sig(n), slot: SLOT + n * 1_000, blockTime: T + n * 3_600 });

/**
 * The wallet's history, lamports worked by hand (fee 5,000 each):
 *  1 OTHER pays ME 2 SOL:                      ME 0 → 2,000,000,000
 *  2 ME pays OTHER 0.5 SOL:                    ME → 1,499,995,000 (−500,000,000 − 5,000)
 *  3 ME's transaction fails:                   ME → 1,499,990,000 (fee only)
 *  4 ME opens its USDC account (rent 2,039,280) ME → 1,497,945,720; MY_USDC 0 → 2,039,280
 *  5 OTHER pays MY_USDC 25.5 USDC (ME not named)
 *  6 OTHER opens MY_ODD (paying its rent 2,039,280) and sends 1,000 of a Token-2022 mint
 *  7 ME stakes 1 SOL into STAKE:               ME → 497,940,720; STAKE 0 → 1,000,000,000
 * Rewards: epoch 621 1,234,567 lamports, epoch 622 1,240,000 (STAKE → 1,002,474,567).
 */
function history() {
  return [
    buildTransaction({
      ...at(1),
      keys: [
        { pubkey: OTHER, pre: 9_000_000_000, post: 6_999_995_000 },
        { pubkey: ME, pre: 0, post: 2_000_000_000 },
        { pubkey: SYSTEM, pre: 1, post: 1 },
      ],
    }),
    buildTransaction({
      ...at(2),
      keys: [
        { pubkey: ME, pre: 2_000_000_000, post: 1_499_995_000 },
        { pubkey: OTHER, pre: 6_999_995_000, post: 7_499_995_000 },
        { pubkey: SYSTEM, pre: 1, post: 1 },
      ],
    }),
    buildTransaction({
      ...at(3),
      err: { InstructionError: [0, { Custom: 1 }] },
      keys: [
        { pubkey: ME, pre: 1_499_995_000, post: 1_499_990_000 },
        { pubkey: OTHER, pre: 7_499_995_000, post: 7_499_995_000 },
      ],
    }),
    buildTransaction({
      ...at(4),
      keys: [
        { pubkey: ME, pre: 1_499_990_000, post: 1_497_945_720 },
        { pubkey: MY_USDC, pre: 0, post: 2_039_280 },
        { pubkey: SYSTEM, pre: 1, post: 1 },
      ],
      postTokens: [tokenBalance(1, USDC, ME, 0n, 6)],
    }),
    buildTransaction({
      ...at(5),
      keys: [
        { pubkey: OTHER, pre: 7_499_995_000, post: 7_499_990_000 },
        { pubkey: OTHER_USDC, pre: 2_039_280, post: 2_039_280 },
        { pubkey: MY_USDC, pre: 2_039_280, post: 2_039_280 },
      ],
      preTokens: [tokenBalance(1, USDC, OTHER, 100_000_000n, 6), tokenBalance(2, USDC, ME, 0n, 6)],
      postTokens: [tokenBalance(1, USDC, OTHER, 74_500_000n, 6), tokenBalance(2, USDC, ME, 25_500_000n, 6)],
    }),
    buildTransaction({
      ...at(6),
      keys: [
        { pubkey: OTHER, pre: 7_499_990_000, post: 7_497_945_720 },
        { pubkey: OTHER_ODD, pre: 2_039_280, post: 2_039_280 },
        { pubkey: MY_ODD, pre: 0, post: 2_039_280 },
      ],
      preTokens: [tokenBalance(1, ODD_MINT, OTHER, 5_000_000_000_000n, 9, TOKEN_2022_PROGRAM)],
      postTokens: [
        tokenBalance(1, ODD_MINT, OTHER, 4_000_000_000_000n, 9, TOKEN_2022_PROGRAM),
        tokenBalance(2, ODD_MINT, ME, 1_000_000_000_000n, 9, TOKEN_2022_PROGRAM),
      ],
    }),
    buildTransaction({
      ...at(7),
      keys: [
        { pubkey: ME, pre: 1_497_945_720, post: 497_940_720 },
        { pubkey: STAKE, pre: 0, post: 1_000_000_000, signer: true },
        { pubkey: SYSTEM, pre: 1, post: 1 },
      ],
      instructions: [
        {
          program: 'stake',
          programId: 'Stake11111111111111111111111111111111111111',
          parsed: {
            type: 'initialize',
            info: { stakeAccount: STAKE, authorized: { staker: ME, withdrawer: ME }, lockup: {} },
          },
        },
      ],
    }),
  ];
}

const prices = {
  pricesOnDate: async (symbols: readonly string[], date: string) =>
    new Map(date >= '2024-06-01' ? [[symbols[0]!, '165.25']] : []),
};

const closedPort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });

describe('SolanaConnector against a fake Solana JSON-RPC endpoint', () => {
  const chain = new FakeSolanaRpc();
  let url: string;
  beforeAll(async () => {
    url = await chain.start();
  });
  afterAll(() => chain.stop());
  beforeEach(() => {
    chain.transactions = history();
    chain.balances.clear();
    chain.balances.set(ME, 497_940_720n);
    chain.balances.set(STAKE, 1_002_474_567n);
    chain.tokenAccounts = [
      {
        pubkey: MY_USDC,
        owner: ME,
        mint: USDC,
        programId: TOKEN_PROGRAM,
        amount: 25_500_000n,
        decimals: 6,
        lamports: 2_039_280n,
      },
      {
        pubkey: MY_ODD,
        owner: ME,
        mint: ODD_MINT,
        programId: TOKEN_2022_PROGRAM,
        amount: 1_000_000_000_000n,
        decimals: 9,
        lamports: 2_039_280n,
      },
    ];
    chain.epoch = 623;
    chain.rewards.clear();
    chain.rewards.set(
      621,
      new Map([
        [
          STAKE,
          {
            epoch: 621,
            effectiveSlot: 622 * 432_000,
            amount: 1_234_567n,
            postBalance: 1_001_234_567n,
            commission: 7,
          },
        ],
      ]),
    );
    chain.rewards.set(
      622,
      new Map([
        [
          STAKE,
          {
            epoch: 622,
            effectiveSlot: 623 * 432_000,
            amount: 1_240_000n,
            postBalance: 1_002_474_567n,
            commission: 7,
          },
        ],
      ]),
    );
    chain.blockTimes.clear();
    chain.blockTimes.set(622 * 432_000, T + 3 * DAY);
    chain.blockTimes.set(623 * 432_000, T + 5 * DAY);
    chain.requests.length = 0;
    chain.faults.length = 0;
  });

  const connector = (options: { pageSize?: number; baseUrl?: string } = {}) =>
    new SolanaConnector(
      new SolanaRpcClient({
        baseUrl: options.baseUrl ?? url,
        pageSize: options.pageSize,
        requestTimeoutMs: 2_000,
      }),
      prices,
    );
  const request = (address: string | null = ME): ConnectorRequest => ({
    account: {
      id: '00000000-0000-4000-8000-000000000001',
      tenantId: '00000000-0000-4000-8000-000000000002',
      platform: 'solana',
      identity: 'sol-wallet',
      address,
      chain: 'solana',
      createdOn: new Date('2024-06-01T00:00:00Z'),
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

  it('imports SOL, fees, a failed transaction’s fee, tokens by mint, staking rewards, and the whole wallet’s balances', async () => {
    const result = await connector({ pageSize: 2 }).fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('full');
    const legs = await collect(result.pages);
    const ODD = unknownMintSymbol(ODD_MINT);
    expect(
      legs.map((t) => [
        t.transactionId.replace(/^[^:]+:/, `${sigNumber(t.transactionId)}:`),
        t.direction,
        t.symbol,
        t.amount,
        t.priceUsd,
      ]),
    ).toEqual([
      ['1:sol-in', 'transfer_in', 'SOL', '2', null],
      ['2:fee', 'fee', 'SOL', '0.000005', '165.25'],
      ['2:sol-out', 'transfer_out', 'SOL', '0.5', null],
      ['3:fee', 'fee', 'SOL', '0.000005', '165.25'],
      ['4:fee', 'fee', 'SOL', '0.000005', '165.25'],
      [`5:spl:${USDC}:in`, 'transfer_in', 'USDC', '25.5', null],
      // The sender paid the rent of the account it opened for ME: 0.00203928 SOL is ME's now.
      ['6:sol-in', 'transfer_in', 'SOL', '0.00203928', null],
      [`6:spl:${ODD_MINT}:in`, 'transfer_in', ODD, '1000', null],
      ['7:fee', 'fee', 'SOL', '0.000005', '165.25'],
      [`reward:621:${STAKE}`, 'income', 'SOL', '0.001234567', '165.25'],
      [`reward:622:${STAKE}`, 'income', 'SOL', '0.00124', '165.25'],
    ]);
    for (const leg of legs)
      expect(leg.transferId).toBe(
        leg.direction.startsWith('transfer_') ? `chain:${leg.transactionId.split(':')[0]}` : null,
      );
    expect(legs.find((l) => l.direction === 'income')!.occurredAt.toISOString()).toBe(
      '2024-06-04T00:00:00.000Z',
    );
    // The ledger's quantities, leg by leg, equal what the chain reports (reconciliation agrees).
    const ledger = new Map<string, Decimal>();
    for (const leg of legs) {
      const sign = ['transfer_in', 'deposit', 'income'].includes(leg.direction) ? 1 : -1;
      ledger.set(
        leg.symbol,
        (ledger.get(leg.symbol) ?? new Decimal(0)).plus(new Decimal(leg.amount).times(sign)),
      );
    }
    expect(new Map([...ledger].map(([symbol, quantity]) => [symbol, quantity.toFixed()]))).toEqual(
      result.reportedBalances,
    );
    // Ledger: 2 − 0.5 − 4 × 0.000005 + 0.00203928 + 0.001234567 + 0.00124 = 1.504493847 SOL.
    // Chain: ME 497,940,720 + STAKE 1,002,474,567 + two token accounts' rent 2 × 2,039,280 lamports.
    expect(result.reportedBalances).toEqual(
      new Map([
        ['SOL', '1.504493847'],
        ['USDC', '25.5'],
        [ODD, '1000'],
      ]),
    );
  });

  it('pages signatures back with `before`, reads each transaction once (jsonParsed, version 0), both token programs and every epoch since the stake appeared', async () => {
    const result = await connector({ pageSize: 2 }).fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    await collect(result.pages);
    const pages = chain.requests.filter((r) => r.method === 'getSignaturesForAddress');
    expect(pages.map((r) => [r.params[0], (r.params[1] as { before?: string }).before ?? null])).toEqual([
      // ME's 5 signatures (7, 4, 3, 2, 1), newest first, 2 a page.
      [ME, null],
      [ME, sig(4)],
      [ME, sig(2)],
      // Its token accounts, in address order: MY_USDC (4, 5) fills a page; MY_ODD (6).
      ...[
        [MY_USDC, null],
        [MY_USDC, sig(4)],
        [MY_ODD, null],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0)),
    ]);
    const gets = chain.requests.filter((r) => r.method === 'getTransaction');
    expect(gets.map((r) => r.params[0]).sort()).toEqual([1, 2, 3, 4, 5, 6, 7].map(sig).sort());
    expect(gets[0]!.params[1]).toEqual({
      encoding: 'jsonParsed',
      maxSupportedTransactionVersion: 0,
      commitment: 'finalized',
    });
    expect(
      chain.requests
        .filter((r) => r.method === 'getTokenAccountsByOwner')
        .map((r) => (r.params[1] as { programId: string }).programId),
    ).toEqual([TOKEN_PROGRAM, TOKEN_2022_PROGRAM]);
    // The stake appeared in slot 268,007,000 (epoch 620); the current epoch is 623.
    expect(
      chain.requests
        .filter((r) => r.method === 'getInflationReward')
        .map((r) => [r.params[0], (r.params[1] as { epoch: number }).epoch]),
    ).toEqual([
      [[STAKE], 620],
      [[STAKE], 621],
      [[STAKE], 622],
    ]);
  });

  it('pages a full page of 1,000 signatures and the rest (limit 1000, then before)', async () => {
    chain.transactions = Array.from({ length: 1_001 }, (_, i) =>
      buildTransaction({
        signature: manySig(i),
        slot: SLOT + i,
        blockTime: T + i,
        keys: [
          { pubkey: OTHER, pre: 10_000_000, post: 9_994_999 },
          { pubkey: ME, pre: i, post: i + 1 },
        ],
      }),
    );
    chain.tokenAccounts = [];
    chain.balances.set(ME, 1_001n);
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const legs = await collect(result.pages);
    expect(legs).toHaveLength(1_001);
    expect(new Set(legs.map((l) => l.transactionId)).size).toBe(1_001);
    expect(legs.every((l) => l.direction === 'transfer_in' && l.amount === '0.000000001')).toBe(true);
    const pages = chain.requests.filter((r) => r.method === 'getSignaturesForAddress');
    expect(pages.map((r) => (r.params[1] as { limit: number }).limit)).toEqual([1_000, 1_000]);
    expect((pages[1]!.params[1] as { before: string }).before).toBe(
      chain.transactions[1]!.transaction.signatures[0],
    );
    expect(result.reportedBalances).toEqual(new Map([['SOL', '0.000001001']]));
  });

  it.each([
    [
      'a 429',
      { method: 'getTransaction', first: sig(7), status: 429 },
      /answered 429 \(rate limited\) to getTransaction/,
    ],
    [
      'a JSON-RPC error',
      { method: 'getSignaturesForAddress', error: { code: -32005, message: 'Node is behind by 42 slots' } },
      /refused getSignaturesForAddress: Node is behind by 42 slots/,
    ],
    [
      'a transaction the node no longer has',
      { method: 'getTransaction', first: sig(7), result: null },
      /does not have transaction .* \(not an archive node/,
    ],
    [
      'a malformed transaction',
      {
        method: 'getTransaction',
        first: sig(7),
        result: { ...history()[6]!, meta: { ...history()[6]!.meta!, preBalances: [1] } },
      },
      /malformed transaction: .*differ in length/,
    ],
    [
      'another transaction than the one asked for',
      { method: 'getTransaction', first: sig(7), result: history()[0] },
      /malformed transaction for /,
    ],
    [
      'a missing block time of a reward',
      { method: 'getBlockTime', error: { code: -32009, message: 'Slot was skipped' } },
      /refused getBlockTime/,
    ],
  ])('answers %s as source unavailable', async (_label, fault, message) => {
    chain.faults.push({ remaining: 1, ...fault });
    await expect(connector().fetch(request())).rejects.toThrow(
      expect.objectContaining({ name: SourceUnavailableError.name, message: expect.stringMatching(message) }),
    );
  });

  it('reads a swap (1 SOL paid, 150 USDC received) as a sale of SOL at the day’s price and a purchase of USDC at that value', async () => {
    // ME: 5,000,000,000 → 3,999,995,000 lamports = −1 SOL − 5,000 fee; USDC 0.25 → 150.25 (+150).
    // SOL's stored price that day 150.00, USDC none: V = 1 × 150.00 = 150.00, so the USDC is
    // bought at 150.00 / 150 = 1 each; the fee is 0.000005 SOL at 150.00.
    chain.transactions = [
      buildTransaction({
        ...at(1),
        keys: [
          { pubkey: ME, pre: 5_000_000_000, post: 3_999_995_000 },
          { pubkey: MY_USDC, pre: 2_039_280, post: 2_039_280 },
          { pubkey: OTHER, pre: 90_000_000_000, post: 91_000_000_000 },
        ],
        preTokens: [tokenBalance(1, USDC, ME, 250_000n, 6)],
        postTokens: [tokenBalance(1, USDC, ME, 150_250_000n, 6)],
      }),
    ];
    chain.tokenAccounts = [];
    const solOnly = {
      pricesOnDate: async (symbols: readonly string[]) =>
        new Map(symbols.filter((s) => s === 'SOL').map((s) => [s, '150.00'])),
    };
    const result = await new SolanaConnector(
      new SolanaRpcClient({ baseUrl: url, requestTimeoutMs: 2_000 }),
      solOnly,
    ).fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    const legs = await collect(result.pages);
    expect(legs.map((l) => [l.direction, l.symbol, l.amount, l.priceUsd, l.transferId])).toEqual([
      ['fee', 'SOL', '0.000005', '150.00', null],
      ['sell', 'SOL', '1', '150', null],
      ['buy', 'USDC', '150', '1', null],
    ]);
  });

  it('keeps lamports beyond 2^53 exact through the JSON answer', async () => {
    const whale = 2n ** 60n + 7n; // 1,152,921,504.606846983 SOL
    chain.transactions = [
      buildTransaction({
        ...at(1),
        keys: [
          { pubkey: OTHER, pre: whale + 10_000n, post: 5_000n },
          { pubkey: ME, pre: 0, post: whale },
        ],
      }),
    ];
    chain.tokenAccounts = [];
    chain.balances.set(ME, whale);
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect((await collect(result.pages)).map((l) => l.amount)).toEqual(['1152921504.606846983']);
    expect(result.reportedBalances?.get('SOL')).toBe('1152921504.606846983');
  });

  it('asks the market store for daily prices of every mint moved or held, from the first leg’s day to today', async () => {
    const asked: unknown[] = [];
    const withTokens = new SolanaConnector(new SolanaRpcClient({ baseUrl: url, requestTimeoutMs: 2_000 }), {
      ...prices,
      ensureTokenPrices: async (tokens, fromDate, toDate) => {
        asked.push({ tokens, fromDate, toDate });
        return new Map(tokens.map((token) => [token.symbol, 'unpriceable' as const]));
      },
    });
    const result = await withTokens.fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(asked).toEqual([
      {
        tokens: [
          { symbol: 'USDC', platform: 'solana', contract: USDC },
          { symbol: unknownMintSymbol(ODD_MINT), platform: 'solana', contract: ODD_MINT },
        ],
        fromDate: '2024-06-01',
        toDate: '2024-07-01',
      },
    ]);
  });

  it('dates a transaction the node answers without a blockTime by its block’s time', async () => {
    const [deposit] = history();
    chain.transactions = [{ ...deposit!, blockTime: null }];
    chain.blockTimes.set(deposit!.slot, T + 7 * DAY);
    chain.tokenAccounts = [];
    chain.balances.set(ME, 2_000_000_000n);
    const result = await connector().fetch(request());
    if (result.status !== 'ready') throw new Error('expected ready');
    expect((await collect(result.pages)).map((l) => [l.amount, l.occurredAt.toISOString()])).toEqual([
      ['2', '2024-06-08T00:00:00.000Z'],
    ]);
  });

  it('fails when no SOL price covers a fee’s day, naming it', async () => {
    const none = new SolanaConnector(new SolanaRpcClient({ baseUrl: url, requestTimeoutMs: 2_000 }), {
      pricesOnDate: async () => new Map(),
    });
    await expect(none.fetch(request())).rejects.toThrow(
      /No stored SOL price on or before 2024-06-01 for the fee/,
    );
  });

  it('says why the endpoint could not be reached, without its address', async () => {
    const failure = connector({ baseUrl: `http://127.0.0.1:${await closedPort()}/` }).fetch(request());
    await expect(failure).rejects.toThrow(
      'Solana RPC could not be reached (ECONNREFUSED) (getSignaturesForAddress).',
    );
    await expect(failure).rejects.not.toThrow(/127\.0\.0\.1/);
  });

  it('refuses an account without a valid address', async () => {
    await expect(connector().fetch(request('0x52908400098527886E0F7030069857D2E4169EE7'))).rejects.toThrow(
      'The account has no valid Solana address.',
    );
  });
});

/** The fill byte of a test signature (sig(n)), or the transaction id's own prefix (rewards). */
function sigNumber(transactionId: string): string {
  const head = transactionId.split(':')[0]!;
  if (head === 'reward') return 'reward';
  return String(base58.decode(head)[0]);
}
