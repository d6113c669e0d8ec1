/**
 * A client of an Etherscan-compatible account API (Etherscan v2 with `chainid`, or any explorer
 * speaking the same `module=account` actions). Base URL and API key from configuration, the chain
 * id from the account's chain (withChain; src/domain/chains/ethereum/evm-chains.ts);
 * the key is the operator's, never an end client's, and never logged (it is not in any message).
 * Pages ascending by block, 1,000 rows a page, and moves the start block forward past Etherscan's
 * 10,000-row window: the next window starts at the last block seen, whose rows it lists again, so
 * the rows of that block kept so far are dropped first. No row is deduplicated by a key of its
 * own: token rows may have no log index, and two identical transfers of one transaction are two.
 */
import type {
  EtherscanInternalTx,
  EtherscanNormalTx,
  EtherscanTokenTx,
} from '../../../domain/chains/ethereum/index.js';
import { SourceUnavailableError, unreachableCause } from '../connectors/source-connector.js';

export interface EtherscanClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Sent as `chainid` (Etherscan v2); 1 is Ethereum mainnet. */
  readonly chainId?: number;
  readonly pageSize?: number;
  readonly requestTimeoutMs?: number;
  readonly fetch?: typeof fetch;
}

type Action = 'txlist' | 'txlistinternal' | 'tokentx';
interface Row {
  hash: string;
  blockNumber: string;
}
const DEFAULT_PAGE_SIZE = 1_000;
/** Etherscan refuses page × offset beyond 10,000 rows. */
const WINDOW_ROWS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

export class EtherscanClient {
  private readonly baseUrl: string;
  private readonly pageSize: number;
  private readonly requestTimeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: EtherscanClientOptions) {
    this.baseUrl = options.baseUrl;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** The same API and key on another chain (Etherscan v2's `chainid`: one URL serves them all). */
  withChain(chainId: number): EtherscanClient {
    return chainId === this.options.chainId ? this : new EtherscanClient({ ...this.options, chainId });
  }

  normalTransactions(address: string, signal: AbortSignal): Promise<EtherscanNormalTx[]> {
    return this.all<EtherscanNormalTx>('txlist', address, signal);
  }

  internalTransactions(address: string, signal: AbortSignal): Promise<EtherscanInternalTx[]> {
    return this.all<EtherscanInternalTx>('txlistinternal', address, signal);
  }

  tokenTransfers(address: string, signal: AbortSignal): Promise<EtherscanTokenTx[]> {
    return this.all<EtherscanTokenTx>('tokentx', address, signal);
  }

  private async all<T extends Row>(action: Action, address: string, signal: AbortSignal): Promise<T[]> {
    let rows: T[] = [];
    let startBlock = 0;
    for (;;) {
      let lastBlock = startBlock;
      let windowFull = false;
      for (let page = 1; page * this.pageSize <= WINDOW_ROWS; page++) {
        const batch = await this.request<T>(action, address, startBlock, page, signal);
        for (const row of batch) {
          rows.push(row);
          lastBlock = Math.max(lastBlock, Number(row.blockNumber));
        }
        if (batch.length < this.pageSize) return rows;
        windowFull = page * this.pageSize === WINDOW_ROWS;
      }
      // The window is exhausted: go on from the last block seen, which the next window lists whole.
      if (!windowFull || lastBlock === startBlock) {
        throw new SourceUnavailableError(
          `More than ${WINDOW_ROWS} ${action} rows in block ${startBlock}; cannot page further.`,
        );
      }
      startBlock = lastBlock;
      rows = rows.filter((row) => Number(row.blockNumber) < startBlock);
    }
  }

  private async request<T>(
    action: Action,
    address: string,
    startBlock: number,
    page: number,
    signal: AbortSignal,
  ): Promise<T[]> {
    const url = new URL(this.baseUrl);
    const params = {
      ...(this.options.chainId !== undefined ? { chainid: String(this.options.chainId) } : {}),
      module: 'account',
      action,
      address,
      startblock: String(startBlock),
      endblock: '999999999',
      page: String(page),
      offset: String(this.pageSize),
      sort: 'asc',
      apikey: this.options.apiKey,
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new SourceUnavailableError(
        `Etherscan ${timeout.aborted ? `timed out after ${this.requestTimeoutMs} ms` : `could not be reached (${unreachableCause(error)})`}.`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SourceUnavailableError(`Etherscan answered ${response.status}; retried later.`);
    }
    let body: { status?: unknown; message?: unknown; result?: unknown };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new SourceUnavailableError('Etherscan answered a body that is not JSON.');
    }
    if (Array.isArray(body.result) && (body.status === '1' || body.result.length === 0)) {
      for (const row of body.result as Row[]) {
        if (typeof row?.hash !== 'string' || typeof row?.blockNumber !== 'string') {
          throw new SourceUnavailableError(`Etherscan answered a malformed ${action} row.`);
        }
      }
      return body.result as T[];
    }
    // Errors come as status "0" with a text result: rate limit, a bad key (the operator's), a bad query.
    const reason = typeof body.result === 'string' ? body.result : String(body.message ?? 'unknown error');
    if (/api key/i.test(reason)) {
      throw new SourceUnavailableError('Etherscan refused the configured API key (ETHERSCAN_API_KEY).');
    }
    throw new SourceUnavailableError(`Etherscan refused the request: ${reason.slice(0, 200)}`);
  }
}
