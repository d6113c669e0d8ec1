/**
 * A minimal client of an Esplora REST API (Blockstream's esplora, mempool.space; the API the
 * bitcoin connector reads). Base URL from configuration. Every call honours the refresh engine's
 * AbortSignal and a per-call timeout; 429 and 5xx become SourceUnavailableError (retried later
 * with backoff), a malformed body a SourceUnavailableError naming what was wrong. No keys: the API
 * is public, and a watch-only wallet needs none.
 */
import type { EsploraTransaction } from '../../../domain/chains/bitcoin/index.js';
import { SourceUnavailableError, unreachableCause } from '../connectors/source-connector.js';

export interface EsploraAddressStats {
  readonly address: string;
  readonly chain_stats: {
    readonly tx_count: number;
    readonly funded_txo_sum: number;
    readonly spent_txo_sum: number;
  };
  readonly mempool_stats: {
    readonly tx_count: number;
    readonly funded_txo_sum: number;
    readonly spent_txo_sum: number;
  };
}

export interface EsploraClientOptions {
  readonly baseUrl: string;
  /** Per request; the refresh engine's own timeout bounds the whole history. */
  readonly requestTimeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** Esplora pages confirmed history 25 transactions at a time (`/txs/chain/:last_seen_txid`). */
export const ESPLORA_CHAIN_PAGE_SIZE = 25;
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
const TXID = /^[0-9a-f]{64}$/;

export class EsploraClient {
  private readonly baseUrl: string;
  private readonly requestTimeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: EsploraClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? fetch;
  }

  async addressStats(address: string, signal: AbortSignal): Promise<EsploraAddressStats> {
    const stats = await this.get<EsploraAddressStats>(`/address/${encodeURIComponent(address)}`, signal);
    if (
      typeof stats?.chain_stats?.tx_count !== 'number' ||
      typeof stats?.mempool_stats?.tx_count !== 'number'
    ) {
      throw new SourceUnavailableError(`Esplora answered a malformed address record for ${address}.`);
    }
    return stats;
  }

  /** Every confirmed transaction of the address, newest first, page by page. */
  async *confirmedTransactions(address: string, signal: AbortSignal): AsyncIterable<EsploraTransaction[]> {
    let lastSeen: string | null = null;
    for (;;) {
      const path: string = `/address/${encodeURIComponent(address)}/txs/chain${lastSeen ? `/${lastSeen}` : ''}`;
      const page = await this.get<EsploraTransaction[]>(path, signal);
      if (!Array.isArray(page))
        throw new SourceUnavailableError(`Esplora answered a malformed page for ${address}.`);
      for (const tx of page) {
        if (
          typeof tx?.txid !== 'string' ||
          !TXID.test(tx.txid) ||
          !Array.isArray(tx.vin) ||
          !Array.isArray(tx.vout)
        ) {
          throw new SourceUnavailableError(`Esplora answered a malformed transaction for ${address}.`);
        }
      }
      const confirmed = page.filter((tx) => tx.status?.confirmed);
      if (confirmed.length) yield confirmed;
      if (page.length < ESPLORA_CHAIN_PAGE_SIZE) return;
      const next = page.at(-1)!.txid;
      if (next === lastSeen) return;
      lastSeen = next;
    }
  }

  private async get<T>(path: string, signal: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = timeout.aborted
        ? `timed out after ${this.requestTimeoutMs} ms`
        : `could not be reached (${unreachableCause(error)})`;
      throw new SourceUnavailableError(`Esplora ${reason}.`);
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      throw new SourceUnavailableError(`Esplora answered ${response.status}; retried later.`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SourceUnavailableError(`Esplora answered ${response.status} for ${path.split('/')[1]}.`);
    }
    try {
      return (await response.json()) as T;
    } catch {
      throw new SourceUnavailableError('Esplora answered a body that is not JSON.');
    }
  }
}
