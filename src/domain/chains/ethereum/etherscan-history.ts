/**
 * What an Ethereum address's history means for its ledger (issue 15 item 3), from the lists of an
 * Etherscan-compatible API: normal transactions (`txlist`), internal ETH transfers
 * (`txlistinternal`) and ERC-20 transfers (`tokentx`).
 *
 * - ETH or tokens arriving from another address are a `deposit`, leaving to one a `withdrawal`;
 *   sending to itself moves nothing;
 * - native ETH moves (a transaction's value, or an internal transfer) carry `transferId` =
 *   chainTransferId(hash), the id an exchange's withdrawal or deposit naming that transaction
 *   computes too: the connector records them as `transfer_in`/`transfer_out`. ERC-20 transfers
 *   have none: several token logs share one hash and an exchange reports only the hash, not the
 *   log index, so both sides could not compute the same id (they stay deposits/withdrawals);
 * - the gas of a transaction the address sent is a `fee` in the chain's gas asset (gasUsed ×
 *   gasPrice, the price actually paid, plus on an OP-stack chain the receipt's L1 data fee), also
 *   when the transaction failed, which transfers nothing else;
 * - on every chain of the table (evm-chains.ts) the same rules: ETH above means the chain's gas
 *   asset (POL on Polygon PoS), tokens are looked up in that chain's known tokens;
 * - a wrap (the address sends the gas asset to its chain's wrapped-asset contract) or an unwrap (that
 *   contract pays the address) also moves the wrapped token 1:1: where the explorer does not list
 *   that movement as a token transfer (WETH9 emits Deposit/Withdrawal events, not Transfer), the
 *   wrapped leg is added (`<hash>:wrap-in`, `<hash>:wrap-out`), so the swap rules see both sides;
 * - tokens are identified by contract address: the well-known ones by their ticker, any other
 *   kept under a symbol derived from its contract (`unknownTokenSymbol`) and flagged, never dropped;
 * - a token row is named by its log index, or, where the provider gives none, by what the
 *   transfer is (`tokenTransferId`).
 *
 * Amounts are exact: wei and token base units as BigInt, written as decimal text. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { isAddress } from 'viem';
import { canonicalDecimal } from '../../money/format.js';
import { chainTransferId } from '../transfer-id.js';
import { ETHEREUM_MAINNET, type EvmChain, type EvmToken } from './evm-chains.js';

export interface EtherscanNormalTx {
  readonly hash: string;
  readonly blockNumber: string;
  readonly timeStamp: string;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly gasUsed: string;
  readonly gasPrice: string;
  readonly isError: string;
}

export interface EtherscanInternalTx {
  readonly hash: string;
  readonly blockNumber: string;
  readonly timeStamp: string;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly isError: string;
  readonly traceId?: string;
}

export interface EtherscanTokenTx {
  readonly hash: string;
  readonly blockNumber: string;
  readonly timeStamp: string;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly contractAddress: string;
  readonly tokenSymbol: string;
  readonly tokenDecimal: string;
  /**
   * The log's index in its block. Optional: Etherscan's own documented `tokentx` sample and some
   * compatible explorers leave it out (see tokenTransferId).
   */
  readonly logIndex?: string;
}

export type AddressLegDirection = 'deposit' | 'withdrawal' | 'fee';

export interface AddressLeg {
  readonly transactionId: string;
  readonly hash: string;
  readonly direction: AddressLegDirection;
  /** Ledger symbol: the gas asset (ETH, POL), a known token's ticker, or unknownTokenSymbol(contract, chain). */
  readonly symbol: string;
  /** Decimal text > 0. */
  readonly amount: string;
  readonly occurredAt: Date;
  readonly blockNumber: number;
  /** The ERC-20 contract (lower case); null for the gas asset. */
  readonly contractAddress: string | null;
  /** True for a token not in the known list: its symbol is derived from the contract. */
  readonly unknownToken: boolean;
  /** Decimals of the asset's base unit (18 for ETH and POL). */
  readonly decimals: number;
  /** `chain:<hash>` on a native ETH deposit or withdrawal; null on fees and tokens. */
  readonly transferId: string | null;
}

/** Mainnet ERC-20 contracts known by ticker (lower-case address → symbol, decimals). */
export const KNOWN_TOKENS: ReadonlyMap<string, EvmToken> = ETHEREUM_MAINNET.knownTokens;

/**
 * The ledger symbol of a token not in its chain's known tokens: the chain's prefix ("ERC" on
 * mainnet, "BASE", "ARB", "OP", "POLY") and the first hex digits of its contract, upper case, 20
 * characters in all (the ledger's limit). A token's own `tokenSymbol` is not trusted: any
 * contract can call itself USDC. The same contract on two chains gives two symbols.
 */
export function unknownTokenSymbol(contractAddress: string, chain: EvmChain = ETHEREUM_MAINNET): string {
  const digits = 20 - chain.unknownPrefix.length;
  return `${chain.unknownPrefix}${contractAddress.toLowerCase().replace(/^0x/, '').slice(0, digits).toUpperCase()}`;
}

export class MalformedEtherscanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedEtherscanError';
  }
}

/** Base units as decimal text: unitsToDecimal(1500000n, 6) → "1.5". */
export function unitsToDecimal(units: bigint, decimals: number): string {
  if (units < 0n) throw new RangeError('units must not be negative');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77)
    throw new RangeError(`bad decimals ${decimals}`);
  if (decimals === 0) return units.toString();
  const scale = 10n ** BigInt(decimals);
  return canonicalDecimal(`${units / scale}.${(units % scale).toString().padStart(decimals, '0')}`);
}

const UINT = /^\d{1,78}$/;
function uint(value: string, what: string): bigint {
  if (typeof value !== 'string' || !UINT.test(value))
    throw new MalformedEtherscanError(`${what} is not an unsigned integer: ${value}`);
  return BigInt(value);
}
function time(tx: { timeStamp: string; hash: string }): Date {
  return new Date(Number(uint(tx.timeStamp, `timeStamp of ${tx.hash}`)) * 1000);
}

export interface AddressHistory {
  readonly normal: readonly EtherscanNormalTx[];
  readonly internal: readonly EtherscanInternalTx[];
  readonly tokens: readonly EtherscanTokenTx[];
  /**
   * The L1 data fee of each transaction the address sent on an OP-stack chain (the receipt's
   * `l1Fee`, wei), by lower-case hash: added to the gas fee. Absent elsewhere.
   */
  readonly l1Fees?: ReadonlyMap<string, bigint>;
}

/**
 * The address's legs on `chain` (mainnet by default), each transaction counted once, ordered by
 * block, then transaction id. The native asset is the chain's gas asset (ETH, POL on Polygon).
 */
export function addressLegs(
  addressInput: string,
  history: AddressHistory,
  chain: EvmChain = ETHEREUM_MAINNET,
): AddressLeg[] {
  const address = addressInput.toLowerCase();
  const native = chain.gasAsset;
  const legs = new Map<string, AddressLeg>();
  const add = (leg: AddressLeg) => {
    if (leg.amount !== '0') legs.set(leg.transactionId, leg);
  };
  const base = (tx: { hash: string; blockNumber: string; timeStamp: string }) => ({
    hash: tx.hash,
    occurredAt: time(tx),
    blockNumber: Number(uint(tx.blockNumber, `blockNumber of ${tx.hash}`)),
  });

  for (const tx of history.normal) {
    const from = tx.from.toLowerCase();
    const to = (tx.to ?? '').toLowerCase();
    const value = uint(tx.value, `value of ${tx.hash}`);
    const ok = tx.isError === '0';
    if (from === address) {
      const gas =
        uint(tx.gasUsed, `gasUsed of ${tx.hash}`) * uint(tx.gasPrice, `gasPrice of ${tx.hash}`) +
        (history.l1Fees?.get(tx.hash.toLowerCase()) ?? 0n);
      add({
        ...base(tx),
        transactionId: `${tx.hash}:fee`,
        direction: 'fee',
        symbol: native,
        amount: unitsToDecimal(gas, 18),
        contractAddress: null,
        unknownToken: false,
        decimals: 18,
        transferId: null,
      });
      if (ok && to !== address) {
        add({
          ...base(tx),
          transactionId: `${tx.hash}:eth-out`,
          direction: 'withdrawal',
          symbol: native,
          amount: unitsToDecimal(value, 18),
          contractAddress: null,
          unknownToken: false,
          decimals: 18,
          transferId: chainTransferId(tx.hash),
        });
      }
    } else if (to === address && ok) {
      add({
        ...base(tx),
        transactionId: `${tx.hash}:eth-in`,
        direction: 'deposit',
        symbol: native,
        amount: unitsToDecimal(value, 18),
        contractAddress: null,
        unknownToken: false,
        decimals: 18,
        transferId: chainTransferId(tx.hash),
      });
    }
  }

  for (const tx of history.internal) {
    if (tx.isError !== '0') continue;
    const from = tx.from.toLowerCase();
    const to = tx.to.toLowerCase();
    if (from === to) continue;
    const direction = to === address ? 'deposit' : from === address ? 'withdrawal' : null;
    if (!direction) continue;
    add({
      ...base(tx),
      transactionId: `${tx.hash}:internal:${tx.traceId ?? '0'}:${direction}`,
      direction,
      symbol: native,
      amount: unitsToDecimal(uint(tx.value, `value of ${tx.hash}`), 18),
      contractAddress: null,
      unknownToken: false,
      decimals: 18,
      transferId: chainTransferId(tx.hash),
    });
  }

  const tokenIds = new TokenTransferIds();
  for (const tx of history.tokens) {
    const from = tx.from.toLowerCase();
    const to = tx.to.toLowerCase();
    if (from === to) continue;
    const direction = to === address ? 'deposit' : from === address ? 'withdrawal' : null;
    if (!direction) continue;
    const contract = tx.contractAddress.toLowerCase();
    const known = chain.knownTokens.get(contract);
    const decimals = known?.decimals ?? Number(uint(tx.tokenDecimal || '0', `tokenDecimal of ${tx.hash}`));
    add({
      ...base(tx),
      transactionId: tokenIds.next(tx),
      direction,
      symbol: known?.symbol ?? unknownTokenSymbol(contract, chain),
      amount: unitsToDecimal(uint(tx.value, `value of ${tx.hash}`), decimals),
      contractAddress: contract,
      unknownToken: !known,
      decimals,
      transferId: null,
    });
  }

  // The wrapped gas asset's own side of a wrap or unwrap the address made, where the explorer did
  // not list it as a token transfer (WETH9 emits Deposit/Withdrawal, not Transfer).
  const wrapped = chain.knownTokens.get(chain.wrappedGasAsset);
  if (wrapped) {
    const listed = new Set(
      [...legs.values()]
        .filter((leg) => leg.contractAddress === chain.wrappedGasAsset)
        .map((leg) => `${leg.hash.toLowerCase()}:${leg.direction}`),
    );
    const wrapLeg = (
      tx: { hash: string; blockNumber: string; timeStamp: string; value: string },
      direction: 'deposit' | 'withdrawal',
    ) => {
      if (listed.has(`${tx.hash.toLowerCase()}:${direction}`)) return;
      add({
        ...base(tx),
        transactionId: `${tx.hash}:${direction === 'deposit' ? 'wrap-in' : 'wrap-out'}`,
        direction,
        symbol: wrapped.symbol,
        amount: unitsToDecimal(uint(tx.value, `value of ${tx.hash}`), wrapped.decimals),
        contractAddress: chain.wrappedGasAsset,
        unknownToken: false,
        decimals: wrapped.decimals,
        transferId: null,
      });
    };
    // Wrap: the address paid the gas asset into the contract (deposit() or its fallback): as much comes back wrapped.
    for (const tx of history.normal) {
      if (
        tx.isError === '0' &&
        tx.from.toLowerCase() === address &&
        (tx.to ?? '').toLowerCase() === chain.wrappedGasAsset
      )
        wrapLeg(tx, 'deposit');
    }
    // Unwrap: the contract paid the gas asset to the address (withdraw() pays its caller): as much wrapped left.
    for (const tx of history.internal) {
      if (
        tx.isError === '0' &&
        tx.from.toLowerCase() === chain.wrappedGasAsset &&
        tx.to.toLowerCase() === address
      )
        wrapLeg(tx, 'withdrawal');
    }
  }

  return [...legs.values()].sort(
    (a, b) =>
      a.blockNumber - b.blockNumber ||
      (a.transactionId < b.transactionId ? -1 : a.transactionId > b.transactionId ? 1 : 0),
  );
}

/**
 * The transaction id of a token row: `<hash>:token:<logIndex>` when the row has a log index;
 * without one, `<hash>:token:<digest>` where digest is the first 20 hex digits of the SHA-256 of
 * `contract|from|to|value` (lower-case addresses, value in base units), so the id depends only on
 * what the transfer is: the same on every refresh, whatever order the provider lists the rows in,
 * and different for different transfers of one transaction. Transfers that are identical in all
 * four (one transaction paying the same amount twice) are numbered by occurrence (`:2`, `:3`):
 * identical rows cannot be told apart, so which one is which does not matter.
 */
export function tokenTransferId(tx: EtherscanTokenTx, occurrence = 1): string {
  if (tx.logIndex !== undefined && tx.logIndex !== null && tx.logIndex !== '')
    return `${tx.hash}:token:${uint(tx.logIndex, `logIndex of ${tx.hash}`)}`;
  const what = [tx.contractAddress, tx.from, tx.to]
    .map((address) => address.toLowerCase())
    .concat(uint(tx.value, `value of ${tx.hash}`).toString())
    .join('|');
  const digest = createHash('sha256').update(what).digest('hex').slice(0, 20);
  return `${tx.hash}:token:${digest}${occurrence > 1 ? `:${occurrence}` : ''}`;
}

/** Numbers the occurrences of identical rows without a log index (tokenTransferId). */
class TokenTransferIds {
  private readonly seen = new Map<string, number>();

  next(tx: EtherscanTokenTx): string {
    const id = tokenTransferId(tx);
    const occurrence = (this.seen.get(id) ?? 0) + 1;
    this.seen.set(id, occurrence);
    return occurrence === 1 ? id : tokenTransferId(tx, occurrence);
  }
}

/**
 * True for a 20-byte hex address (`0x` + 40 hex digits). All lower or all upper case is taken as
 * is; mixed case must carry a valid EIP-55 checksum (a typo in a checksummed address is refused).
 */
export function isEthereumAddress(address: string): boolean {
  return isAddress(address, { strict: true });
}
