/**
 * The one interface every source of account history sits behind (design §5): sandbox, CSV, and
 * later exchanges (ccxt) and chains. A connector only fetches: it never touches the database,
 * never decides sync state and never sees another account. The refresh engine
 * (refresh/refresh.service.ts) calls it outside any database transaction, with a timeout.
 */
import type { TransactionInput } from '../../ledger/index.js';

/** One transaction leg as the source reports it (the ledger's input shape). */
export type SourceTransaction = TransactionInput;

/** What a connector may know about the account it fetches (no secrets except `credentials`). */
export interface ConnectorAccount {
  readonly id: string;
  readonly tenantId: string;
  readonly platform: string;
  readonly identity: string;
  readonly address: string | null;
  readonly chain: string | null;
  readonly createdOn: Date;
  readonly lastSyncedAt: Date | null;
  readonly sourceOptions: Readonly<Record<string, unknown>> | null;
}

export interface ConnectorRequest {
  readonly account: ConnectorAccount;
  /** Decrypted just for this call; never logged, never stored in plain text. */
  readonly credentials: Readonly<Record<string, string>> | null;
  /** The engine's clock: connectors never read the system time. */
  readonly now: Date;
  /** Aborted when the engine's timeout elapses. */
  readonly signal: AbortSignal;
}

export type ConnectorResult =
  /** The source is still preparing the account's history (slow initial sync): try again later. */
  | { readonly status: 'pending'; readonly retryAt: Date | null }
  | {
      readonly status: 'ready';
      /**
       * `full`: the pages are the account's whole history; transactions the source no longer
       * reports are removed. `incremental`: the pages are upserted, nothing is removed.
       */
      readonly mode: 'full' | 'incremental';
      readonly pages: AsyncIterable<readonly SourceTransaction[]>;
      /** Quantities per symbol when the source reports balances itself (exchanges); else null. */
      readonly reportedBalances: ReadonlyMap<string, string> | null;
    };

export interface SourceConnector {
  fetch(request: ConnectorRequest): Promise<ConnectorResult>;
}

/** `simulated`: a failure the sandbox source plays on purpose, not a real source's. */
export interface SourceErrorOptions {
  simulated?: boolean;
}

/** The source rejected the account's authorization: the end client must reconnect. */
export class SourceAuthorizationError extends Error {
  readonly simulated: boolean;

  constructor(
    message = 'The source rejected the authorization; the account must be reconnected.',
    options: SourceErrorOptions = {},
  ) {
    super(message);
    this.name = 'SourceAuthorizationError';
    this.simulated = options.simulated ?? false;
  }
}

/** The source failed or is unreachable; the refresh is retried later. */
export class SourceUnavailableError extends Error {
  readonly simulated: boolean;

  constructor(message = 'The source is unavailable.', options: SourceErrorOptions = {}) {
    super(message);
    this.name = 'SourceUnavailableError';
    this.simulated = options.simulated ?? false;
  }
}

/** Wraps an in-memory list as the single page of a `ready` result. */
export async function* singlePage(
  transactions: readonly SourceTransaction[],
): AsyncIterable<readonly SourceTransaction[]> {
  yield transactions;
}
