import { base58 } from '@scure/base';
import { chainTransferId } from '../transfer-id.js';
import {
  epochOfSlot,
  isSolanaAddress,
  isSolanaSignature,
  MalformedSolanaError,
  ownTokenAccountsOf,
  rewardLegs,
  stakeAccountsOf,
  transactionLegs,
  unknownMintSymbol,
  WSOL_MINT,
  type Lamports,
  type SolanaInstruction,
  type SolanaLeg,
  type SolanaTokenBalance,
  type SolanaTransaction,
} from './index.js';

const key = (n: number) => base58.encode(new Uint8Array(32).fill(n));
const sig = (n: number) => base58.encode(new Uint8Array(64).fill(n));
const ME = key(1);
const OTHER = key(2);
const MY_USDC = key(3); // my USDC token account
const OTHER_USDC = key(4);
const POOL = key(5);
const MY_WSOL = key(6);
const STAKE = key(7);
const MY_UNKNOWN = key(8);
const UNKNOWN_MINT = key(9);
const SYSTEM = '11111111111111111111111111111111';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const T = 1_717_200_000; // 2024-06-01T00:00:00Z

const tokenBalance = (accountIndex: number, mint: string, owner: string, amount: bigint, decimals: number) =>
  ({
    accountIndex,
    mint,
    owner,
    programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    uiTokenAmount: { amount: String(amount), decimals, uiAmount: null, uiAmountString: '' },
  }) satisfies SolanaTokenBalance;

const tx = (
  n: number,
  keys: string[],
  pre: Lamports[],
  post: Lamports[],
  options: {
    fee?: number;
    err?: unknown;
    preTokens?: SolanaTokenBalance[];
    postTokens?: SolanaTokenBalance[];
    instructions?: SolanaInstruction[];
  } = {},
): SolanaTransaction => ({
  slot: 270_000_000 + n,
  blockTime: T + n * 60,
  version: 0,
  meta: {
    err: options.err ?? null,
    fee: options.fee ?? 5_000,
    preBalances: pre,
    postBalances: post,
    preTokenBalances: options.preTokens ?? [],
    postTokenBalances: options.postTokens ?? [],
    innerInstructions: [],
  },
  transaction: {
    signatures: [sig(n)],
    message: {
      accountKeys: keys.map((pubkey, i) => ({
        pubkey,
        signer: i === 0,
        writable: true,
        source: 'transaction',
      })),
      instructions: options.instructions ?? [],
    },
  },
});

const brief = (legs: SolanaLeg[]) =>
  legs.map((l) => [l.transactionId.slice(l.signature.length + 1), l.direction, l.symbol, l.amount]);

describe('Solana history: what an address’s transactions mean for its ledger', () => {
  it('a SOL receipt someone else paid for is a deposit of the address’s balance change, with the signature’s transfer id', () => {
    // OTHER pays 1.5 SOL and the 5,000-lamport fee: ME 1,000,000,000 → 2,500,000,000 lamports.
    const legs = transactionLegs(ME, [
      tx(1, [OTHER, ME, SYSTEM], [5_000_000_000, 1_000_000_000, 1], [3_499_995_000, 2_500_000_000, 1]),
    ]);
    expect(brief(legs)).toEqual([['sol-in', 'deposit', 'SOL', '1.5']]);
    expect(legs[0]!.transferId).toBe(`chain:${sig(1)}`);
    expect(legs[0]!.occurredAt.toISOString()).toBe('2024-06-01T00:01:00.000Z');
    expect(legs[0]!.swap).toBe(false);
  });

  it('a payment the address signed is a withdrawal of what left plus a fee in SOL', () => {
    // ME (fee payer) 2,500,000,000 → 2,249,995,000: −250,005,000 = −250,000,000 sent − 5,000 fee.
    const legs = transactionLegs(ME, [
      tx(2, [ME, OTHER, SYSTEM], [2_500_000_000, 0, 1], [2_249_995_000, 250_000_000, 1]),
    ]);
    expect(brief(legs)).toEqual([
      ['fee', 'fee', 'SOL', '0.000005'],
      ['sol-out', 'withdrawal', 'SOL', '0.25'],
    ]);
    expect(legs.map((l) => l.transferId)).toEqual([null, `chain:${sig(2)}`]);
  });

  it('a failed transaction moves only its fee (base + priority), whatever the balances say', () => {
    const legs = transactionLegs(ME, [
      tx(3, [ME, OTHER], [2_249_995_000, 0], [2_249_982_500, 0], {
        fee: 12_500,
        err: { InstructionError: [0, { Custom: 1 }] },
      }),
    ]);
    expect(brief(legs)).toEqual([['fee', 'fee', 'SOL', '0.0000125']]);
  });

  it('no fee when another account paid it; nothing at all when nothing of the wallet moved', () => {
    expect(transactionLegs(ME, [tx(4, [OTHER, ME], [10_000, 7], [5_000, 7])])).toEqual([]);
  });

  it('a USDC receipt into an existing token account is a deposit by mint, exact in base units', () => {
    // OTHER's account 100 USDC → 74.5; mine 0.25 → 25.75: +25,500,000 base units = 25.5 USDC.
    const legs = transactionLegs(ME, [
      tx(
        5,
        [OTHER, OTHER_USDC, MY_USDC, ME],
        [1_000_000, 2_039_280, 2_039_280, 42],
        [995_000, 2_039_280, 2_039_280, 42],
        {
          preTokens: [tokenBalance(1, USDC, OTHER, 100_000_000n, 6), tokenBalance(2, USDC, ME, 250_000n, 6)],
          postTokens: [
            tokenBalance(1, USDC, OTHER, 74_500_000n, 6),
            tokenBalance(2, USDC, ME, 25_750_000n, 6),
          ],
        },
      ),
    ]);
    expect(brief(legs)).toEqual([[`spl:${USDC}:in`, 'deposit', 'USDC', '25.5']]);
    expect(legs[0]).toMatchObject({
      mint: USDC,
      unknownToken: false,
      decimals: 6,
      transferId: `chain:${sig(5)}`,
    });
  });

  it('a mint outside the known list is kept under a symbol derived from the mint and flagged', () => {
    // 1,000,000,000,000 base units at 9 decimals = 1000; the mint's self-declared name is not read.
    const legs = transactionLegs(ME, [
      tx(6, [OTHER, MY_UNKNOWN], [1_000_000, 2_039_280], [995_000, 2_039_280], {
        postTokens: [tokenBalance(1, UNKNOWN_MINT, ME, 1_000_000_000_000n, 9)],
      }),
    ]);
    expect(unknownMintSymbol(UNKNOWN_MINT)).toBe(`SPL${UNKNOWN_MINT.slice(0, 17).toUpperCase()}`);
    expect(unknownMintSymbol(UNKNOWN_MINT)).toHaveLength(20);
    expect(brief(legs)).toEqual([
      [`spl:${UNKNOWN_MINT}:in`, 'deposit', unknownMintSymbol(UNKNOWN_MINT), '1000'],
    ]);
    expect(legs[0]!.unknownToken).toBe(true);
  });

  it('rent the address puts into its own new token account moves no SOL: only the fee', () => {
    // ME pays 2,039,280 rent + 5,000 fee; the new account (mine) holds the 2,039,280: net −5,000.
    const legs = transactionLegs(ME, [
      tx(7, [ME, MY_USDC, SYSTEM], [10_000_000, 0, 1], [7_955_720, 2_039_280, 1], {
        postTokens: [tokenBalance(1, USDC, ME, 0n, 6)],
      }),
    ]);
    expect(brief(legs)).toEqual([['fee', 'fee', 'SOL', '0.000005']]);
  });

  it('wrapping SOL into an own wSOL account moves nothing but the fee (wSOL is SOL)', () => {
    // ME 3,000,000,000 → 997,955,720: 2,000,000,000 wrapped + 2,039,280 rent + 5,000 fee; the wSOL
    // account holds 2,002,039,280 lamports and a token balance of 2,000,000,000 (not counted again).
    const legs = transactionLegs(ME, [
      tx(8, [ME, MY_WSOL, SYSTEM], [3_000_000_000, 0, 1], [997_955_720, 2_002_039_280, 1], {
        postTokens: [tokenBalance(1, WSOL_MINT, ME, 2_000_000_000n, 9)],
      }),
    ]);
    expect(brief(legs)).toEqual([['fee', 'fee', 'SOL', '0.000005']]);
  });

  it('paying one asset and receiving another marks both legs as a swap, without transfer ids', () => {
    // ME: 5,000,000,000 → 3,999,995,000 = −1 SOL − 5,000 fee; USDC 0.25 → 150.25 (+150).
    const legs = transactionLegs(ME, [
      tx(
        9,
        [ME, MY_USDC, POOL],
        [5_000_000_000, 2_039_280, 90_000_000_000],
        [3_999_995_000, 2_039_280, 91_000_000_000],
        {
          preTokens: [tokenBalance(1, USDC, ME, 250_000n, 6)],
          postTokens: [tokenBalance(1, USDC, ME, 150_250_000n, 6)],
        },
      ),
    ]);
    expect(brief(legs)).toEqual([
      ['fee', 'fee', 'SOL', '0.000005'],
      ['sol-out', 'withdrawal', 'SOL', '1'],
      [`spl:${USDC}:in`, 'deposit', 'USDC', '150'],
    ]);
    expect(legs.map((l) => [l.swap, l.transferId])).toEqual([
      [false, null],
      [true, null],
      [true, null],
    ]);
    expect(new Set(legs.map((l) => l.signature))).toEqual(new Set([sig(9)]));
  });

  it('staking into an own stake account moves nothing but the fee; the stake account is found from the instruction', () => {
    const initialize: SolanaInstruction = {
      program: 'stake',
      programId: 'Stake11111111111111111111111111111111111111',
      parsed: {
        type: 'initialize',
        info: { stakeAccount: STAKE, authorized: { staker: ME, withdrawer: ME }, lockup: {} },
      },
    };
    const staking = tx(10, [ME, STAKE, SYSTEM], [20_000_000_000, 0, 1], [9_999_995_000, 10_000_000_000, 1], {
      instructions: [initialize],
    });
    expect(stakeAccountsOf(ME, [staking])).toEqual([STAKE]);
    expect(stakeAccountsOf(OTHER, [staking])).toEqual([]);
    expect(brief(transactionLegs(ME, [staking], { stakeAccounts: [STAKE] }))).toEqual([
      ['fee', 'fee', 'SOL', '0.000005'],
    ]);
    // Without the stake account the 10 SOL would read as a withdrawal.
    expect(brief(transactionLegs(ME, [staking]))).toEqual([
      ['fee', 'fee', 'SOL', '0.000005'],
      ['sol-out', 'withdrawal', 'SOL', '10'],
    ]);
  });

  it('staking rewards are income in SOL at the paying block’s time; zero rewards are left out', () => {
    const legs = rewardLegs([
      { account: STAKE, epoch: 601, amount: 2_717_461, effectiveSlot: 260_064_000, blockTime: T + 86_400 },
      { account: STAKE, epoch: 600, amount: 2_700_000, effectiveSlot: 259_632_000, blockTime: T },
      { account: STAKE, epoch: 602, amount: 0, effectiveSlot: 260_496_000, blockTime: T + 172_800 },
    ]);
    expect(
      legs.map((l) => [l.transactionId, l.direction, l.symbol, l.amount, l.occurredAt.toISOString()]),
    ).toEqual([
      [`reward:600:${STAKE}`, 'income', 'SOL', '0.0027', '2024-06-01T00:00:00.000Z'],
      [`reward:601:${STAKE}`, 'income', 'SOL', '0.002717461', '2024-06-02T00:00:00.000Z'],
    ]);
  });

  it('counts a signature once whatever list brought it, and keeps u64 lamports beyond 2^53 exact', () => {
    const whale = 2n ** 60n; // 1,152,921,504.606846976 SOL
    const receipt = tx(11, [OTHER, ME], [whale + 10_000n, 0], [10_000n - 5_000n, whale]);
    const legs = transactionLegs(ME, [receipt, receipt]);
    expect(brief(legs)).toEqual([['sol-in', 'deposit', 'SOL', '1152921504.606846976']]);
  });

  it('counts a token balance without an owner (older transactions) when its account is known to be the address’s', () => {
    const { owner: _owner, ...anonymous } = tokenBalance(1, USDC, ME, 7_000_000n, 6);
    const old = tx(17, [OTHER, MY_USDC], [10_000, 2_039_280], [5_000, 2_039_280], {
      postTokens: [anonymous],
    });
    expect(transactionLegs(ME, [old])).toEqual([]);
    expect(brief(transactionLegs(ME, [old], { tokenAccounts: [MY_USDC] }))).toEqual([
      [`spl:${USDC}:in`, 'deposit', 'USDC', '7'],
    ]);
  });

  it('lists the token accounts a transaction shows the address owning', () => {
    const receipt = tx(12, [OTHER, MY_USDC, OTHER_USDC], [1, 1, 1], [1, 1, 1], {
      preTokens: [tokenBalance(2, USDC, OTHER, 1n, 6)],
      postTokens: [tokenBalance(1, USDC, ME, 1n, 6)],
    });
    expect(ownTokenAccountsOf(ME, receipt)).toEqual([MY_USDC]);
  });

  it('refuses malformed answers with a message naming the transaction', () => {
    expect(() => transactionLegs(ME, [tx(13, [ME, OTHER], [1], [1, 1])])).toThrow(MalformedSolanaError);
    expect(() => transactionLegs(ME, [tx(14, [OTHER, ME], [0, 1.5], [0, 2])])).toThrow(/preBalances\[1\]/);
    const known = tx(15, [OTHER, MY_USDC], [1, 1], [1, 1], {
      postTokens: [tokenBalance(1, USDC, ME, 1n, 9)],
    });
    expect(() => transactionLegs(ME, [known])).toThrow(/USDC has 6 decimals, not 9/);
    expect(() => transactionLegs(ME, [{ ...tx(16, [ME], [1], [1]), blockTime: null }])).toThrow(
      /no blockTime/,
    );
  });

  it('addresses and signatures are base58 of 32 and 64 bytes', () => {
    expect(isSolanaAddress(USDC)).toBe(true);
    expect(isSolanaAddress(SYSTEM)).toBe(true);
    expect(isSolanaAddress(ME)).toBe(true);
    expect(isSolanaAddress(`${USDC.slice(0, -1)}0`)).toBe(false); // 0 is not base58
    expect(isSolanaAddress(USDC.slice(0, 31))).toBe(false);
    expect(isSolanaAddress(base58.encode(new Uint8Array(33).fill(9)))).toBe(false);
    expect(isSolanaAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(false);
    expect(isSolanaSignature(sig(3))).toBe(true);
    expect(isSolanaSignature(ME)).toBe(false);
  });

  it('a signature is its own chain transfer id (case kept: base58 is case-sensitive)', () => {
    expect(chainTransferId(sig(5))).toBe(`chain:${sig(5)}`);
    expect(chainTransferId(` ${sig(5)} `)).toBe(`chain:${sig(5)}`);
    expect(chainTransferId(ME)).toBeNull(); // 32 bytes: an address, not a signature
  });

  it('finds the epoch of a slot from the epoch schedule', () => {
    const mainnet = { slotsPerEpoch: 432_000, firstNormalEpoch: 0, firstNormalSlot: 0 };
    expect(epochOfSlot(259_632_000, mainnet)).toBe(601);
    expect(epochOfSlot(259_631_999, mainnet)).toBe(600);
    const warmup = { slotsPerEpoch: 8192, firstNormalEpoch: 8, firstNormalSlot: 8160 };
    expect(epochOfSlot(8160 + 8192 * 2, warmup)).toBe(10);
    expect(epochOfSlot(100, warmup)).toBe(0);
  });
});
