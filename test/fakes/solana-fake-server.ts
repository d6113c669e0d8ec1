/**
 * A local stand-in for a Solana JSON-RPC endpoint (`POST /`, JSON-RPC 2.0, shapes from
 * https://solana.com/docs/rpc), on 127.0.0.1 with a random port, serving a hand-built history:
 *
 * - getSignaturesForAddress: the signatures of the transactions whose accountKeys hold the
 *   address, newest first (slot descending), `limit` (at most 1,000) and `before`;
 * - getTransaction (jsonParsed shape: meta.pre/postBalances, pre/postTokenBalances, fee, err,
 *   blockTime, message.accountKeys as {pubkey, signer, writable, source}); null when unknown;
 *   refuses a version-0 transaction without maxSupportedTransactionVersion, as nodes do;
 * - getBalance ({context, value}), getTokenAccountsByOwner (jsonParsed, filtered by programId),
 *   getEpochInfo, getEpochSchedule, getInflationReward (one entry or null per address), getBlockTime.
 *
 * u64 values given as BigInt are written as plain JSON numbers (beyond 2^53, as a node does).
 * Scripted faults answer an HTTP status or a JSON-RPC error for a method.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  SolanaInstruction,
  SolanaTokenBalance,
  SolanaTransaction,
} from '../../src/domain/chains/solana/index.js';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

export interface FakeTokenAccount {
  pubkey: string;
  owner: string;
  mint: string;
  programId: string;
  amount: bigint;
  decimals: number;
  lamports: bigint;
}

export interface FakeReward {
  epoch: number;
  effectiveSlot: number;
  amount: bigint;
  postBalance: bigint;
  commission: number | null;
}

export interface SolanaFault {
  method: string;
  /** Only a call whose first parameter is this (a signature, an address). */
  first?: unknown;
  status?: number;
  error?: { code: number; message: string };
  /** A result to answer instead of the real one (e.g. null, a malformed object). */
  result?: unknown;
  remaining: number;
}

export interface AccountMove {
  pubkey: string;
  pre: bigint | number;
  post: bigint | number;
  signer?: boolean;
}

/** A jsonParsed transaction as getTransaction answers it (keys[0] pays the fee). */
export function buildTransaction(spec: {
  signature: string;
  slot: number;
  blockTime: number;
  keys: AccountMove[];
  fee?: number;
  err?: unknown;
  preTokens?: SolanaTokenBalance[];
  postTokens?: SolanaTokenBalance[];
  instructions?: SolanaInstruction[];
}): SolanaTransaction {
  return {
    slot: spec.slot,
    blockTime: spec.blockTime,
    version: 0,
    meta: {
      err: spec.err ?? null,
      fee: spec.fee ?? 5_000,
      preBalances: spec.keys.map((k) => k.pre),
      postBalances: spec.keys.map((k) => k.post),
      preTokenBalances: spec.preTokens ?? [],
      postTokenBalances: spec.postTokens ?? [],
      innerInstructions: [],
    },
    transaction: {
      signatures: [spec.signature],
      message: {
        accountKeys: spec.keys.map((k, i) => ({
          pubkey: k.pubkey,
          signer: k.signer ?? i === 0,
          writable: true,
          source: 'transaction',
        })),
        instructions: spec.instructions ?? [],
      },
    },
  };
}

export function tokenBalance(
  accountIndex: number,
  mint: string,
  owner: string,
  amount: bigint,
  decimals: number,
  programId = TOKEN_PROGRAM,
): SolanaTokenBalance {
  return {
    accountIndex,
    mint,
    owner,
    programId,
    uiTokenAmount: uiAmount(amount, decimals),
  };
}

function uiAmount(amount: bigint, decimals: number) {
  const text = (Number(amount) / 10 ** decimals).toString();
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
}

export class FakeSolanaRpc {
  transactions: SolanaTransaction[] = [];
  readonly balances = new Map<string, bigint>();
  tokenAccounts: FakeTokenAccount[] = [];
  /** epoch → address → reward. */
  readonly rewards = new Map<number, Map<string, FakeReward>>();
  readonly blockTimes = new Map<number, number>();
  epoch = 0;
  schedule = {
    slotsPerEpoch: 432_000,
    leaderScheduleSlotOffset: 432_000,
    warmup: false,
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
  };
  readonly requests: { method: string; params: unknown[] }[] = [];
  readonly faults: SolanaFault[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? `__u64__${v}` : v)).replace(
            /"__u64__(\d+)"/g,
            '$1',
          ),
        );
      };
      if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://fake').pathname !== '/')
        return send(404, { error: 'not found' });
      let call: { id: number; method: string; params?: unknown[] };
      try {
        call = JSON.parse(await readBody(req)) as typeof call;
      } catch {
        return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      const params = call.params ?? [];
      this.requests.push({ method: call.method, params });
      const fault = this.faults.find(
        (f) =>
          f.remaining > 0 && f.method === call.method && (f.first === undefined || f.first === params[0]),
      );
      if (fault) {
        fault.remaining -= 1;
        if (fault.status)
          return send(fault.status, {
            jsonrpc: '2.0',
            id: call.id,
            error: { code: fault.status, message: 'Too many requests' },
          });
        if (fault.error) return send(200, { jsonrpc: '2.0', id: call.id, error: fault.error });
        return send(200, { jsonrpc: '2.0', id: call.id, result: fault.result });
      }
      const answer = this.answer(call.method, params);
      send(200, { jsonrpc: '2.0', id: call.id, ...answer });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private answer(
    method: string,
    params: unknown[],
  ): { result: unknown } | { error: { code: number; message: string } } {
    const context = { slot: 300_000_000, apiVersion: '2.2.0' };
    const invalid = (message: string) => ({ error: { code: -32602, message: `Invalid params: ${message}` } });
    switch (method) {
      case 'getSignaturesForAddress': {
        const [address, config = {}] = params as [string, { limit?: number; before?: string }];
        const limit = config.limit ?? 1_000;
        if (limit < 1 || limit > 1_000) return invalid('limit must be 1-1000');
        let rows = this.transactions
          .filter((tx) => tx.transaction.message.accountKeys.some((k) => k.pubkey === address))
          .sort(
            (a, b) =>
              b.slot - a.slot || (a.transaction.signatures[0]! < b.transaction.signatures[0]! ? 1 : -1),
          );
        if (config.before) {
          const at = rows.findIndex((tx) => tx.transaction.signatures[0] === config.before);
          rows = at === -1 ? [] : rows.slice(at + 1);
        }
        return {
          result: rows.slice(0, limit).map((tx) => ({
            signature: tx.transaction.signatures[0],
            slot: tx.slot,
            err: tx.meta?.err ?? null,
            memo: null,
            blockTime: tx.blockTime,
            confirmationStatus: 'finalized',
          })),
        };
      }
      case 'getTransaction': {
        const [signature, config = {}] = params as [
          string,
          { encoding?: string; maxSupportedTransactionVersion?: number },
        ];
        if (config.encoding !== 'jsonParsed') return invalid('this fake serves jsonParsed only');
        const tx = this.transactions.find((t) => t.transaction.signatures[0] === signature);
        if (tx && tx.version === 0 && config.maxSupportedTransactionVersion === undefined)
          return {
            error: {
              code: -32015,
              message:
                'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
            },
          };
        return { result: tx ?? null };
      }
      case 'getBalance':
        return { result: { context, value: this.balances.get(params[0] as string) ?? 0n } };
      case 'getTokenAccountsByOwner': {
        const [owner, filter, config = {}] = params as [
          string,
          { programId?: string; mint?: string },
          { encoding?: string },
        ];
        if (!filter?.programId && !filter?.mint) return invalid('a mint or programId filter is required');
        if (config.encoding !== 'jsonParsed') return invalid('this fake serves jsonParsed only');
        return {
          result: {
            context,
            value: this.tokenAccounts
              .filter(
                (a) =>
                  a.owner === owner &&
                  (filter.programId ? a.programId === filter.programId : a.mint === filter.mint),
              )
              .map((a) => ({
                pubkey: a.pubkey,
                account: {
                  data: {
                    program: a.programId === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022',
                    parsed: {
                      info: {
                        isNative: false,
                        mint: a.mint,
                        owner: a.owner,
                        state: 'initialized',
                        tokenAmount: uiAmount(a.amount, a.decimals),
                      },
                      type: 'account',
                    },
                    space: 165,
                  },
                  executable: false,
                  lamports: a.lamports,
                  owner: a.programId,
                  rentEpoch: 18446744073709551615n,
                  space: 165,
                },
              })),
          },
        };
      }
      case 'getEpochInfo':
        return {
          result: {
            absoluteSlot: this.epoch * this.schedule.slotsPerEpoch + 1_000,
            blockHeight: this.epoch * this.schedule.slotsPerEpoch,
            epoch: this.epoch,
            slotIndex: 1_000,
            slotsInEpoch: this.schedule.slotsPerEpoch,
            transactionCount: null,
          },
        };
      case 'getEpochSchedule':
        return { result: this.schedule };
      case 'getInflationReward': {
        const [addresses, config = {}] = params as [string[], { epoch?: number }];
        const epoch = config.epoch ?? this.epoch - 1;
        if (epoch >= this.epoch)
          return {
            error: {
              code: -32004,
              message: `Block not available for slot ${epoch * this.schedule.slotsPerEpoch}`,
            },
          };
        return { result: addresses.map((a) => this.rewards.get(epoch)?.get(a) ?? null) };
      }
      case 'getBlockTime': {
        const time = this.blockTimes.get(params[0] as number);
        return time === undefined
          ? {
              error: {
                code: -32009,
                message: `Slot ${String(params[0])} was skipped, or missing in long-term storage`,
              },
            }
          : { result: time };
      }
      default:
        return { error: { code: -32601, message: 'Method not found' } };
    }
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
