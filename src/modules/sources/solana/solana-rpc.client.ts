/**
 * A client of Solana JSON-RPC (https://solana.com/docs/rpc): the few methods the `solana` source
 * reads, each a POST of one JSON-RPC 2.0 request, at commitment `finalized`. Base URL from
 * configuration (SOLANA_RPC_URL). u64 integers beyond 2^53 (lamports of a large account) are kept
 * exact: the body is parsed with the source text of every number at hand, and an integer a
 * double cannot hold becomes a BigInt.
 *
 * Failures are SourceUnavailableError (the refresh is retried later, the old data kept): no
 * answer or a timeout (15 s a request), an HTTP error (429 from a rate-limited public endpoint,
 * 5xx), a body that is not JSON-RPC, a JSON-RPC error, or a transaction the node no longer has.
 */
import type { SolanaTokenBalance, SolanaTransaction } from '../../../domain/chains/solana/index.js';
import { SourceUnavailableError, unreachableCause } from '../connectors/source-connector.js';

export interface SolanaRpcClientOptions {
  readonly baseUrl: string;
  /** Signatures per getSignaturesForAddress page; 1,000 (the method's maximum) unless a test says less. */
  readonly pageSize?: number;
  readonly requestTimeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** One row of getSignaturesForAddress (newest first). */
export interface SignatureInfo {
  readonly signature: string;
  readonly slot: number;
  readonly err: unknown;
  readonly blockTime: number | null;
}

/** One token account of getTokenAccountsByOwner (jsonParsed), reduced to what the source reads. */
export interface TokenAccount {
  readonly pubkey: string;
  readonly lamports: bigint;
  readonly mint: string;
  readonly owner: string;
  /** Base units and decimals, as a token balance of a transaction has them. */
  readonly tokenAmount: SolanaTokenBalance['uiTokenAmount'];
}

export interface InflationReward {
  readonly epoch: number;
  readonly effectiveSlot: number;
  readonly amount: number | bigint;
  readonly postBalance: number | bigint;
  readonly commission?: number | null;
}

export interface EpochSchedule {
  readonly slotsPerEpoch: number;
  readonly firstNormalEpoch: number;
  readonly firstNormalSlot: number;
  readonly warmup?: boolean;
}

/** The two token programs whose accounts an owner may hold: SPL Token and Token-2022. */
export const TOKEN_PROGRAMS = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
] as const;

const MAX_PAGE_SIZE = 1_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
const COMMITMENT = 'finalized';

export class SolanaRpcClient {
  private readonly pageSize: number;
  private readonly requestTimeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private nextId = 1;

  constructor(private readonly options: SolanaRpcClientOptions) {
    this.pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Every signature of the address, newest first, paging back with `before` until a short page. */
  async signatures(address: string, signal: AbortSignal): Promise<SignatureInfo[]> {
    const all: SignatureInfo[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await this.call<SignatureInfo[]>(
        'getSignaturesForAddress',
        [address, { limit: this.pageSize, commitment: COMMITMENT, ...(before ? { before } : {}) }],
        signal,
      );
      if (!Array.isArray(page) || page.some((row) => typeof row?.signature !== 'string'))
        throw new SourceUnavailableError('Solana RPC answered a malformed getSignaturesForAddress page.');
      all.push(...page);
      if (page.length < this.pageSize) return all;
      before = page[page.length - 1]!.signature;
    }
  }

  async transaction(signature: string, signal: AbortSignal): Promise<SolanaTransaction> {
    const tx = await this.call<SolanaTransaction | null>(
      'getTransaction',
      [signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0, commitment: COMMITMENT }],
      signal,
    );
    if (tx === null)
      throw new SourceUnavailableError(
        `Solana RPC does not have transaction ${signature} (not an archive node, or not finalized yet).`,
      );
    if (
      typeof tx !== 'object' ||
      !tx.transaction?.message ||
      !Array.isArray(tx.transaction.signatures) ||
      tx.transaction.signatures[0] !== signature
    )
      throw new SourceUnavailableError(`Solana RPC answered a malformed transaction for ${signature}.`);
    return tx;
  }

  async balance(address: string, signal: AbortSignal): Promise<bigint> {
    const answer = await this.call<{ value: number | bigint }>(
      'getBalance',
      [address, { commitment: COMMITMENT }],
      signal,
    );
    return lamports(answer?.value, 'getBalance');
  }

  /** The owner's token accounts under both token programs. */
  async tokenAccounts(owner: string, signal: AbortSignal): Promise<TokenAccount[]> {
    const accounts: TokenAccount[] = [];
    for (const programId of TOKEN_PROGRAMS) {
      const answer = await this.call<{ value: RpcTokenAccount[] }>(
        'getTokenAccountsByOwner',
        [owner, { programId }, { encoding: 'jsonParsed', commitment: COMMITMENT }],
        signal,
      );
      if (!Array.isArray(answer?.value))
        throw new SourceUnavailableError('Solana RPC answered a malformed getTokenAccountsByOwner result.');
      for (const row of answer.value) {
        const info = row?.account?.data?.parsed?.info;
        if (typeof row?.pubkey !== 'string' || typeof info?.mint !== 'string' || !info.tokenAmount)
          throw new SourceUnavailableError('Solana RPC answered a malformed token account.');
        accounts.push({
          pubkey: row.pubkey,
          lamports: lamports(row.account.lamports, 'token account lamports'),
          mint: info.mint,
          owner: info.owner,
          tokenAmount: info.tokenAmount,
        });
      }
    }
    return accounts;
  }

  async currentEpoch(signal: AbortSignal): Promise<number> {
    const info = await this.call<{ epoch: number }>('getEpochInfo', [{ commitment: COMMITMENT }], signal);
    if (!Number.isSafeInteger(info?.epoch))
      throw new SourceUnavailableError('Solana RPC answered a malformed getEpochInfo result.');
    return info.epoch;
  }

  async epochSchedule(signal: AbortSignal): Promise<EpochSchedule> {
    const schedule = await this.call<EpochSchedule>('getEpochSchedule', [], signal);
    if (!Number.isSafeInteger(schedule?.slotsPerEpoch) || schedule.slotsPerEpoch <= 0)
      throw new SourceUnavailableError('Solana RPC answered a malformed getEpochSchedule result.');
    return schedule;
  }

  /** The rewards of one epoch for each address (null: none), in the order asked. */
  async inflationRewards(
    addresses: readonly string[],
    epoch: number,
    signal: AbortSignal,
  ): Promise<(InflationReward | null)[]> {
    const rewards = await this.call<(InflationReward | null)[]>(
      'getInflationReward',
      [addresses, { epoch, commitment: COMMITMENT }],
      signal,
    );
    if (!Array.isArray(rewards) || rewards.length !== addresses.length)
      throw new SourceUnavailableError(
        `Solana RPC answered a malformed getInflationReward result (epoch ${epoch}).`,
      );
    return rewards;
  }

  async blockTime(slot: number, signal: AbortSignal): Promise<number> {
    const time = await this.call<number | null>('getBlockTime', [slot], signal);
    if (typeof time !== 'number' || !Number.isSafeInteger(time))
      throw new SourceUnavailableError(`Solana RPC has no block time for slot ${slot}.`);
    return time;
  }

  private async call<T>(method: string, params: unknown[], signal: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(this.options.baseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new SourceUnavailableError(
        `Solana RPC ${timeout.aborted ? `timed out after ${this.requestTimeoutMs} ms` : `could not be reached (${unreachableCause(error)})`} (${method}).`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SourceUnavailableError(
        `Solana RPC answered ${response.status}${response.status === 429 ? ' (rate limited)' : ''} to ${method}; retried later.`,
      );
    }
    let body: { result?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      body = parseExact(await response.text()) as typeof body;
    } catch {
      throw new SourceUnavailableError(`Solana RPC answered a body that is not JSON (${method}).`);
    }
    if (body?.error) {
      const message =
        typeof body.error.message === 'string' ? body.error.message.slice(0, 200) : 'unknown error';
      throw new SourceUnavailableError(
        `Solana RPC refused ${method}: ${message} (${String(body.error.code)}).`,
      );
    }
    if (!body || !('result' in body))
      throw new SourceUnavailableError(`Solana RPC answered without a result (${method}).`);
    return body.result as T;
  }
}

interface RpcTokenAccount {
  pubkey: string;
  account: {
    lamports: number | bigint;
    data: { parsed?: { info?: { mint: string; owner: string; tokenAmount: TokenAccount['tokenAmount'] } } };
  };
}

function lamports(value: unknown, what: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new SourceUnavailableError(`Solana RPC answered a malformed ${what}: ${String(value)}.`);
}

/** JSON.parse keeping integers beyond 2^53 exact, as BigInt (the reviver sees each number's source text). */
function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && /^\d+$/.test(context?.source ?? '')
      ? BigInt(context!.source!)
      : value,
  );
}
