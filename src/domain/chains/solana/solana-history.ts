/**
 * What a watched Solana address's history means for its ledger (issue 30 item 1), from the
 * transactions of Solana JSON-RPC `getTransaction` (`encoding: jsonParsed`) and the rewards of
 * `getInflationReward`. Pure: no I/O.
 *
 * The **wallet** is the address, the token accounts it owns (a token balance whose `owner` is the
 * address) and its stake accounts (stakeAccountsOf). Its SOL is the lamports of all of them, so:
 *
 * - the SOL a transaction moves is the change of the wallet's lamports (`meta.preBalances` →
 *   `postBalances` at those accounts' indexes), plus the fee when the address paid it: rent put
 *   into or taken back from an own token account, wrapping and unwrapping SOL (wSOL lamports sit
 *   in an own token account) and staking or unstaking with an own stake account move nothing;
 * - SPL tokens: per mint, Σ postTokenBalances − Σ preTokenBalances (`uiTokenAmount.amount`, base
 *   units) over the token accounts the address owns. wSOL's token balance is not counted again
 *   (its lamports already are);
 * - a net receipt is a `deposit`, a net payment a `withdrawal`, one leg per asset and transaction;
 *   each carries `transferId` = chainTransferId(signature) (`chain:<signature>`), so an exchange's
 *   withdrawal or deposit naming that signature pairs with it (the engine pairs by id AND symbol,
 *   and there is one leg per symbol and transaction);
 * - **swaps**: a transaction in which the wallet pays one asset and receives another is marked
 *   `swap: true` on every leg (ids `<signature>:…`, the same prefix), without a transfer id: the
 *   swap rule (docs/cost-basis.md) turns such legs into a disposal at fair market value and an
 *   acquisition; until then they are a withdrawal and a deposit;
 * - the fee (`meta.fee`: base and priority fee, lamports) is a `fee` in SOL only when the address
 *   is the fee payer (`accountKeys[0]`); a failed transaction (`meta.err` not null) moves only it;
 * - staking rewards (`getInflationReward`, one per stake account and epoch) are `income` in SOL.
 *
 * Tokens are identified by mint, never by a self-declared name: KNOWN_MINTS by their ticker, any
 * other mint under unknownMintSymbol(mint) (flagged: `unknownToken`). Amounts are exact: lamports
 * and token base units as BigInt, written as decimal text.
 */
import { isAddress } from '@solana/addresses';
import { base58 } from '@scure/base';
import { canonicalDecimal } from '../../money/format.js';
import { chainTransferId } from '../transfer-id.js';

/** Lamports as JSON-RPC writes them: a number, or a BigInt where the client kept a u64 exact. */
export type Lamports = number | bigint;

export interface SolanaAccountKey {
  readonly pubkey: string;
  readonly signer: boolean;
  readonly writable: boolean;
  /** `transaction`, or `lookupTable` for an address loaded from a lookup table (version 0). */
  readonly source?: string;
}

export interface SolanaTokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  /** Absent (or null) on transactions from before nodes recorded it. */
  readonly owner?: string | null;
  readonly programId?: string;
  readonly uiTokenAmount: {
    readonly amount: string;
    readonly decimals: number;
    readonly uiAmount?: number | null;
    readonly uiAmountString?: string;
  };
}

/** A jsonParsed instruction: parsed programs carry `program` and `parsed`; others `data`. */
export interface SolanaInstruction {
  readonly programId: string;
  readonly program?: string;
  readonly parsed?: unknown;
  readonly stackHeight?: number | null;
}

export interface SolanaTransaction {
  readonly slot: number;
  readonly blockTime: number | null;
  readonly version?: 'legacy' | number;
  readonly meta: {
    readonly err: unknown;
    readonly fee: Lamports;
    readonly preBalances: readonly Lamports[];
    readonly postBalances: readonly Lamports[];
    readonly preTokenBalances?: readonly SolanaTokenBalance[] | null;
    readonly postTokenBalances?: readonly SolanaTokenBalance[] | null;
    readonly innerInstructions?:
      readonly { readonly index: number; readonly instructions: readonly SolanaInstruction[] }[] | null;
  } | null;
  readonly transaction: {
    readonly signatures: readonly string[];
    readonly message: {
      readonly accountKeys: readonly SolanaAccountKey[];
      readonly instructions: readonly SolanaInstruction[];
    };
  };
}

/** One stake account's inflation reward of one epoch, with the time of the block that paid it. */
export interface SolanaInflationReward {
  readonly account: string;
  readonly epoch: number;
  readonly amount: Lamports;
  readonly effectiveSlot: number;
  /** Unix seconds of `effectiveSlot` (getBlockTime). */
  readonly blockTime: number;
}

export type SolanaLegDirection = 'deposit' | 'withdrawal' | 'fee' | 'income';

export interface SolanaLeg {
  readonly transactionId: string;
  /** The transaction's signature; for a reward, `reward:<epoch>:<account>`. */
  readonly signature: string;
  readonly direction: SolanaLegDirection;
  /** Ledger symbol: SOL, a known mint's ticker, or unknownMintSymbol(mint). */
  readonly symbol: string;
  /** Decimal text > 0. */
  readonly amount: string;
  readonly occurredAt: Date;
  readonly slot: number;
  /** The SPL mint; null for SOL. */
  readonly mint: string | null;
  /** True for a mint not in KNOWN_MINTS: its symbol is derived from the mint. */
  readonly unknownToken: boolean;
  readonly decimals: number;
  /** `chain:<signature>` on a deposit or withdrawal that is not part of a swap; else null. */
  readonly transferId: string | null;
  /** The wallet paid one asset and received another in this transaction (a swap's legs). */
  readonly swap: boolean;
}

export const SOL_DECIMALS = 9;
/** The native mint: wrapped SOL (wSOL) token accounts hold SOL as lamports. */
export const WSOL_MINT = 'So11111111111111111111111111111111111111112';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

/** Mainnet mints known by ticker (mint → symbol, decimals). */
export const KNOWN_MINTS: ReadonlyMap<string, { symbol: string; decimals: number }> = new Map([
  ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', { symbol: 'USDC', decimals: 6 }],
  ['Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', { symbol: 'USDT', decimals: 6 }],
]);

/**
 * The ledger symbol of a mint not in KNOWN_MINTS: "SPL" and the first 17 characters of the mint,
 * upper case (20 characters, the ledger's limit). A token's own name is not trusted: any mint's
 * metadata may call it USDC.
 */
export function unknownMintSymbol(mint: string): string {
  return `SPL${mint.slice(0, 17).toUpperCase()}`;
}

/**
 * True for a Solana address: base58 text of exactly 32 bytes (a public key or a program-derived
 * address; both are valid account addresses), as `isAddress` of @solana/addresses (the address
 * package of @solana/kit, without the rest of the kit) decides it.
 */
export function isSolanaAddress(address: string): boolean {
  return typeof address === 'string' && isAddress(address);
}

/** True for a transaction signature: base58 text of exactly 64 bytes. */
export function isSolanaSignature(signature: string): boolean {
  if (typeof signature !== 'string' || signature.length < 64 || signature.length > 88) return false;
  try {
    return base58.decode(signature).length === 64;
  } catch {
    return false;
  }
}

export class MalformedSolanaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedSolanaError';
  }
}

/** Base units as decimal text: unitsToDecimal(1500000n, 6) → "1.5". */
export function baseUnitsToDecimal(units: bigint, decimals: number): string {
  if (units < 0n) throw new RangeError('units must not be negative');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 30)
    throw new RangeError(`bad decimals ${decimals}`);
  if (decimals === 0) return units.toString();
  const scale = 10n ** BigInt(decimals);
  return canonicalDecimal(`${units / scale}.${(units % scale).toString().padStart(decimals, '0')}`);
}

export function lamportsToSol(lamports: bigint): string {
  return baseUnitsToDecimal(lamports, SOL_DECIMALS);
}

function lamports(value: unknown, what: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new MalformedSolanaError(`${what} is not a lamport count: ${String(value)}`);
}

const UINT = /^\d{1,30}$/;
function units(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !UINT.test(value))
    throw new MalformedSolanaError(`${what} is not an unsigned integer: ${String(value)}`);
  return BigInt(value);
}

/** The transaction's signature (its first), checked. */
export function signatureOf(tx: SolanaTransaction): string {
  const signature = tx?.transaction?.signatures?.[0];
  if (typeof signature !== 'string' || !isSolanaSignature(signature))
    throw new MalformedSolanaError(`a transaction has no valid signature: ${String(signature)}`);
  return signature;
}

/** Every top-level and inner instruction of the transaction. */
function instructionsOf(tx: SolanaTransaction): SolanaInstruction[] {
  return [
    ...(tx.transaction.message.instructions ?? []),
    ...(tx.meta?.innerInstructions ?? []).flatMap((inner) => inner.instructions ?? []),
  ];
}

/**
 * The stake accounts of the address seen in its history: those named by a parsed stake-program
 * instruction (initialize, delegate, split, merge, withdraw, authorize…) in which the address is
 * an authority (`authorized.staker`/`withdrawer`, `stakeAuthority`, `withdrawAuthority`,
 * `authority`). A stake account the address never touched in a transaction of its own is not seen.
 */
export function stakeAccountsOf(address: string, transactions: readonly SolanaTransaction[]): string[] {
  const found = new Set<string>();
  for (const tx of transactions) {
    for (const instruction of instructionsOf(tx)) {
      if (instruction.program !== 'stake') continue;
      const parsed = instruction.parsed as { type?: unknown; info?: Record<string, unknown> } | undefined;
      const info = parsed?.info;
      if (!info || typeof info !== 'object') continue;
      const authorized = info['authorized'] as Record<string, unknown> | undefined;
      const authorities = [
        authorized?.['staker'],
        authorized?.['withdrawer'],
        info['stakeAuthority'],
        info['withdrawAuthority'],
        info['authority'],
      ];
      if (!authorities.includes(address)) continue;
      const accounts = [info['stakeAccount'], info['newSplitAccount']];
      if (parsed?.type === 'merge') accounts.push(info['destination'], info['source']);
      for (const account of accounts)
        if (typeof account === 'string' && isSolanaAddress(account) && account !== address)
          found.add(account);
    }
  }
  return [...found].sort();
}

/** The token accounts a transaction shows the address owning (before or after it). */
export function ownTokenAccountsOf(address: string, tx: SolanaTransaction): string[] {
  const keys = tx.transaction.message.accountKeys;
  const found = new Set<string>();
  for (const balance of [...(tx.meta?.preTokenBalances ?? []), ...(tx.meta?.postTokenBalances ?? [])]) {
    const key = keys[balance.accountIndex]?.pubkey;
    if (balance.owner === address && typeof key === 'string') found.add(key);
  }
  return [...found];
}

interface AssetChange {
  readonly symbol: string;
  readonly mint: string | null;
  readonly decimals: number;
  readonly unknownToken: boolean;
  delta: bigint;
}

/**
 * The address's legs from its transactions (each signature counted once, whatever list brought
 * it), ordered by slot, then transaction id. `wallet.stakeAccounts`: the wallet's stake accounts
 * (stakeAccountsOf, or more the caller knows of). `wallet.tokenAccounts`: token accounts known to
 * be the address's (getTokenAccountsByOwner): a token balance without an `owner` (transactions
 * from before nodes recorded it) counts when its account is one of them.
 */
export function transactionLegs(
  address: string,
  transactions: readonly SolanaTransaction[],
  wallet: { readonly stakeAccounts?: readonly string[]; readonly tokenAccounts?: readonly string[] } = {},
): SolanaLeg[] {
  const stake = new Set(wallet.stakeAccounts ?? []);
  const tokenAccounts = new Set(wallet.tokenAccounts ?? []);
  const seen = new Set<string>();
  const legs: SolanaLeg[] = [];
  for (const tx of transactions) {
    const signature = signatureOf(tx);
    if (seen.has(signature)) continue;
    seen.add(signature);
    legs.push(...legsOf(address, tx, signature, stake, tokenAccounts));
  }
  return sortLegs(legs);
}

function legsOf(
  address: string,
  tx: SolanaTransaction,
  signature: string,
  stake: ReadonlySet<string>,
  tokenAccounts: ReadonlySet<string>,
): SolanaLeg[] {
  const meta = tx.meta;
  if (!meta) throw new MalformedSolanaError(`transaction ${signature} has no meta`);
  if (typeof tx.blockTime !== 'number' || !Number.isSafeInteger(tx.blockTime))
    throw new MalformedSolanaError(`transaction ${signature} has no blockTime`);
  const keys = tx.transaction.message.accountKeys;
  if (
    !Array.isArray(keys) ||
    keys.length !== meta.preBalances?.length ||
    keys.length !== meta.postBalances?.length
  )
    throw new MalformedSolanaError(
      `transaction ${signature}: accountKeys and pre/postBalances differ in length`,
    );
  const base = {
    signature,
    occurredAt: new Date(tx.blockTime * 1000),
    slot: tx.slot,
  };
  const sol = (direction: SolanaLegDirection, amount: bigint, suffix: string): SolanaLeg => ({
    ...base,
    transactionId: `${signature}:${suffix}`,
    direction,
    symbol: 'SOL',
    amount: lamportsToSol(amount),
    mint: null,
    unknownToken: false,
    decimals: SOL_DECIMALS,
    transferId: null,
    swap: false,
  });

  const legs: SolanaLeg[] = [];
  const feePayer = keys[0]?.pubkey === address;
  const fee = feePayer ? lamports(meta.fee, `fee of ${signature}`) : 0n;
  if (fee > 0n) legs.push(sol('fee', fee, 'fee'));
  if (meta.err !== null && meta.err !== undefined) return legs;

  // The wallet's accounts in this transaction: the address, its token accounts, its stake accounts.
  const own = new Set<number>();
  keys.forEach((key, index) => {
    if (key.pubkey === address || stake.has(key.pubkey)) own.add(index);
  });
  const pre = meta.preTokenBalances ?? [];
  const post = meta.postTokenBalances ?? [];
  const owned = (balance: SolanaTokenBalance) =>
    balance.owner === address ||
    ((balance.owner === undefined || balance.owner === null) &&
      tokenAccounts.has(keys[balance.accountIndex]?.pubkey ?? ''));
  for (const balance of [...pre, ...post]) if (owned(balance)) own.add(balance.accountIndex);

  let solDelta = fee;
  for (const index of own)
    solDelta +=
      lamports(meta.postBalances[index], `postBalances[${index}] of ${signature}`) -
      lamports(meta.preBalances[index], `preBalances[${index}] of ${signature}`);

  const changes = new Map<string, AssetChange>();
  if (solDelta !== 0n)
    changes.set('SOL', {
      symbol: 'SOL',
      mint: null,
      decimals: SOL_DECIMALS,
      unknownToken: false,
      delta: solDelta,
    });
  const addToken = (balance: SolanaTokenBalance, sign: 1n | -1n) => {
    if (!owned(balance) || balance.mint === WSOL_MINT) return;
    const decimals = balance.uiTokenAmount?.decimals;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 30)
      throw new MalformedSolanaError(`token balance of ${signature} has bad decimals ${String(decimals)}`);
    const known = KNOWN_MINTS.get(balance.mint);
    if (known && known.decimals !== decimals)
      throw new MalformedSolanaError(
        `token balance of ${signature}: ${known.symbol} has ${known.decimals} decimals, not ${decimals}`,
      );
    if (typeof balance.mint !== 'string' || !isSolanaAddress(balance.mint))
      throw new MalformedSolanaError(`token balance of ${signature} has no valid mint`);
    const change = changes.get(balance.mint) ?? {
      symbol: known?.symbol ?? unknownMintSymbol(balance.mint),
      mint: balance.mint,
      decimals,
      unknownToken: !known,
      delta: 0n,
    };
    change.delta += sign * units(balance.uiTokenAmount.amount, `token amount of ${signature}`);
    changes.set(balance.mint, change);
  };
  for (const balance of pre) addToken(balance, -1n);
  for (const balance of post) addToken(balance, 1n);

  const moved = [...changes.values()].filter((change) => change.delta !== 0n);
  const swap = moved.some((c) => c.delta > 0n) && moved.some((c) => c.delta < 0n);
  const transferId = swap ? null : chainTransferId(signature);
  for (const change of moved) {
    const incoming = change.delta > 0n;
    const magnitude = incoming ? change.delta : -change.delta;
    const suffix = change.mint
      ? `spl:${change.mint}:${incoming ? 'in' : 'out'}`
      : incoming
        ? 'sol-in'
        : 'sol-out';
    legs.push({
      ...base,
      transactionId: `${signature}:${suffix}`,
      direction: incoming ? 'deposit' : 'withdrawal',
      symbol: change.symbol,
      amount: baseUnitsToDecimal(magnitude, change.decimals),
      mint: change.mint,
      unknownToken: change.unknownToken,
      decimals: change.decimals,
      transferId,
      swap,
    });
  }
  return legs;
}

/** Staking rewards as `income` in SOL, dated by the block that paid them. */
export function rewardLegs(rewards: readonly SolanaInflationReward[]): SolanaLeg[] {
  const legs: SolanaLeg[] = [];
  for (const reward of rewards) {
    const id = `reward:${reward.epoch}:${reward.account}`;
    const amount = lamports(reward.amount, `amount of ${id}`);
    if (amount === 0n) continue;
    if (!Number.isSafeInteger(reward.blockTime)) throw new MalformedSolanaError(`${id} has no block time`);
    legs.push({
      transactionId: id,
      signature: id,
      direction: 'income',
      symbol: 'SOL',
      amount: lamportsToSol(amount),
      occurredAt: new Date(reward.blockTime * 1000),
      slot: reward.effectiveSlot,
      mint: null,
      unknownToken: false,
      decimals: SOL_DECIMALS,
      transferId: null,
      swap: false,
    });
  }
  return sortLegs(legs);
}

export function sortLegs(legs: SolanaLeg[]): SolanaLeg[] {
  return legs.sort(
    (a, b) =>
      a.slot - b.slot || (a.transactionId < b.transactionId ? -1 : a.transactionId > b.transactionId ? 1 : 0),
  );
}

export interface EpochSchedule {
  readonly slotsPerEpoch: number;
  readonly firstNormalEpoch: number;
  readonly firstNormalSlot: number;
}

/**
 * The epoch of a slot (getEpochSchedule's shape). Slots of the warm-up (before firstNormalSlot,
 * none on mainnet) are counted as epoch 0: asking for more epochs than needed is harmless.
 */
export function epochOfSlot(slot: number, schedule: EpochSchedule): number {
  if (slot < schedule.firstNormalSlot) return 0;
  return schedule.firstNormalEpoch + Math.floor((slot - schedule.firstNormalSlot) / schedule.slotsPerEpoch);
}
