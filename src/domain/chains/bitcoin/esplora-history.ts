/**
 * What a watched bitcoin wallet's transactions mean for its ledger (issue 15 item 2), from the
 * transaction objects of an Esplora REST API (Blockstream/mempool.space `GET /address/:a/txs`).
 * The wallet is the set of its addresses (one address, or every used address of an extended key):
 *
 * - coins arriving from outside are a `deposit` (a coinbase output: `income`, mining);
 * - coins leaving to outside addresses are a `withdrawal` of what left;
 * - both carry `transferId` = chainTransferId(txid): the connector records them as
 *   `transfer_in`/`transfer_out`, so an exchange withdrawal or deposit naming the same txid pairs
 *   with them (unpaired, they mean the same as a deposit/withdrawal). A transaction with inputs of
 *   the wallet and of others (coinjoin) has no transfer id;
 * - the network fee the wallet paid is a `fee` entry (a taxable disposal, docs/cost-basis.md);
 * - moving coins between the wallet's own addresses (change, consolidation) is not a disposal:
 *   only its fee is recorded.
 *
 * Amounts are exact: satoshis as BigInt, written as BTC decimal text. Unconfirmed transactions
 * are left out until they confirm (their fee and even their existence can still change). Pure: no I/O.
 */
import { canonicalDecimal } from '../../money/format.js';
import { chainTransferId } from '../transfer-id.js';

export interface EsploraOutput {
  readonly scriptpubkey_address?: string;
  readonly value: number;
}

export interface EsploraInput {
  readonly txid: string;
  readonly vout: number;
  readonly is_coinbase?: boolean;
  readonly prevout: EsploraOutput | null;
}

export interface EsploraTransaction {
  readonly txid: string;
  readonly vin: readonly EsploraInput[];
  readonly vout: readonly EsploraOutput[];
  /** Satoshis. */
  readonly fee: number;
  readonly status: {
    readonly confirmed: boolean;
    readonly block_time?: number;
    readonly block_height?: number;
  };
}

export type WalletLegDirection = 'deposit' | 'income' | 'withdrawal' | 'fee';

/** One ledger leg of a transaction for the wallet; `transactionId` is `<txid>:<direction>`. */
export interface WalletLeg {
  readonly transactionId: string;
  readonly txid: string;
  readonly direction: WalletLegDirection;
  /** BTC, decimal text > 0. */
  readonly amount: string;
  readonly occurredAt: Date;
  readonly blockHeight: number | null;
  /** `chain:<txid>` on a receipt from or a payment to outside; null otherwise. */
  readonly transferId: string | null;
}

const SATS_PER_BTC = 100_000_000n;

/** Satoshis (integer) as canonical BTC decimal text: 150000 → "0.0015". */
export function satsToBtc(sats: bigint): string {
  if (sats < 0n) throw new RangeError('satoshis must not be negative');
  const whole = sats / SATS_PER_BTC;
  const fraction = (sats % SATS_PER_BTC).toString().padStart(8, '0');
  return canonicalDecimal(`${whole}.${fraction}`);
}

function sats(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new MalformedEsploraError(`${what} is not a satoshi amount: ${value}`);
  return BigInt(value);
}

export class MalformedEsploraError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedEsploraError';
  }
}

/** The wallet's legs of one transaction; [] when it does not touch the wallet or is unconfirmed. */
export function walletLegs(tx: EsploraTransaction, own: ReadonlySet<string>): WalletLeg[] {
  if (!tx.status.confirmed) return [];
  if (tx.status.block_time === undefined)
    throw new MalformedEsploraError(`confirmed transaction ${tx.txid} has no block_time`);
  const coinbase = tx.vin.some((input) => input.is_coinbase);
  let ownIn = 0n;
  let externalIn = 0n;
  for (const input of tx.vin) {
    if (input.is_coinbase || !input.prevout) continue;
    const value = sats(input.prevout.value, `input ${input.txid}:${input.vout} of ${tx.txid}`);
    if (input.prevout.scriptpubkey_address && own.has(input.prevout.scriptpubkey_address)) ownIn += value;
    else externalIn += value;
  }
  let ownOut = 0n;
  let externalOut = 0n;
  for (const [index, output] of tx.vout.entries()) {
    const value = sats(output.value, `output ${index} of ${tx.txid}`);
    if (output.scriptpubkey_address && own.has(output.scriptpubkey_address)) ownOut += value;
    else externalOut += value;
  }
  const fee = sats(tx.fee, `fee of ${tx.txid}`);
  const leg = (direction: WalletLegDirection, amount: bigint, transfer = false): WalletLeg => ({
    transactionId: `${tx.txid}:${direction}`,
    txid: tx.txid,
    direction,
    amount: satsToBtc(amount),
    occurredAt: new Date(tx.status.block_time! * 1000),
    blockHeight: tx.status.block_height ?? null,
    transferId: transfer ? chainTransferId(tx.txid) : null,
  });
  const legs: WalletLeg[] = [];
  if (ownIn === 0n) {
    // Nothing of the wallet's was spent: whatever reached its addresses came from outside.
    if (ownOut > 0n) legs.push(coinbase ? leg('income', ownOut) : leg('deposit', ownOut, true));
    return legs;
  }
  if (externalIn === 0n) {
    // The wallet funded every input, so it paid the whole fee; what left is what went to others.
    if (externalOut > 0n) legs.push(leg('withdrawal', externalOut, true));
    if (fee > 0n) legs.push(leg('fee', fee));
    return legs;
  }
  // Inputs from the wallet and from others (a coinjoin or payjoin): the fee's share is not
  // knowable from the chain, so only the wallet's net change is recorded.
  const net = ownOut - ownIn;
  if (net > 0n) legs.push(leg('deposit', net));
  if (net < 0n) legs.push(leg('withdrawal', -net));
  return legs;
}

/**
 * The wallet's legs over a history that may list a transaction more than once (it touches several
 * of the wallet's addresses): each txid is counted once, ordered by time, then txid.
 */
export function walletHistory(
  transactions: Iterable<EsploraTransaction>,
  own: ReadonlySet<string>,
): WalletLeg[] {
  const seen = new Map<string, EsploraTransaction>();
  for (const tx of transactions) if (!seen.has(tx.txid)) seen.set(tx.txid, tx);
  return [...seen.values()]
    .flatMap((tx) => walletLegs(tx, own))
    .sort(
      (a, b) =>
        a.occurredAt.getTime() - b.occurredAt.getTime() ||
        (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0) ||
        LEG_ORDER[a.direction] - LEG_ORDER[b.direction],
    );
}

/** Within one transaction: what arrived, then what left, then the fee. */
const LEG_ORDER: Record<WalletLegDirection, number> = { income: 0, deposit: 1, withdrawal: 2, fee: 3 };

/** BTC decimal text (at most 8 decimals) to satoshis. */
export function btcToSats(btc: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(btc);
  if (!match) throw new RangeError(`not a BTC amount with at most 8 decimals: ${btc}`);
  return BigInt(match[1]!) * SATS_PER_BTC + BigInt((match[2] ?? '').padEnd(8, '0'));
}
