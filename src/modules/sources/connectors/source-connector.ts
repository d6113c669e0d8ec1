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

/**
 * One option a source takes when an account is linked: a top-level field of the admin API's
 * create body. The admin DTO and the OpenAPI document are built from these (accounts/dto).
 */
export type SourceOptionSpec =
  | { readonly type: 'string'; readonly enum: readonly string[]; readonly description: string }
  /** A free text option (e.g. an extended public key): checked against `pattern` and `maxLength`. */
  | {
      readonly type: 'string';
      readonly pattern: RegExp;
      readonly maxLength: number;
      readonly description: string;
      readonly example?: string;
    }
  | {
      readonly type: 'integer';
      readonly minimum: number;
      readonly maximum: number;
      readonly description: string;
    };

/** What a source says about itself: the admin API's `source` field and its options are built from it. */
export interface SourceDescription {
  /** How the `source` field's description names it, e.g. "`csv` (imports)". */
  readonly summary: string;
  /** Serves synthetic data: accepted only where the sandbox is enabled (never in production). */
  readonly synthetic: boolean;
  /** The options it takes when an account is linked, by field name. */
  readonly options: Readonly<Record<string, SourceOptionSpec>>;
  /**
   * Transactions arrive only by import (admin API, CLI): a refresh fetches nothing and only
   * revalues what imports stored, so it never says the account synced (docs/sources.md, "An
   * import that did not finish").
   */
  readonly importOnly?: boolean;
  /**
   * How a partner links an account of this source over REST (`POST /v1/api/accounts`, issue 15):
   * the platforms it serves (lower-case ids, e.g. `kraken`, `bitcoin`) and what the partner sends
   * for them. Absent: partners cannot link it (the admin API still can).
   */
  readonly linking?: SourceLinking;
  /**
   * Link requests of this source that succeed as they stand (`POST /admin/accounts`' examples in
   * the OpenAPI document, one per way of linking; issue 31): the source's own fields of the body
   * (`platform`, `source`, address, credentials, options); the admin controller adds `tenant` and
   * `identity`. A new source gives at least one.
   */
  readonly examples: Readonly<Record<string, SourceLinkExample>>;
}

export interface SourceLinkExample {
  /** What Swagger UI's examples list shows, e.g. "Bitcoin: a watch-only address". */
  readonly summary: string;
  readonly body: Readonly<Record<string, unknown>>;
}

export interface SourceLinking {
  /** The platforms it serves; empty for a source fed by files (it serves any: the file's origin). */
  readonly platforms: readonly string[];
  /**
   * `credentials`: read-only API keys; `address`: a watched address; `xpub`: an extended public key;
   * `file`: nothing at link, the history arrives in uploaded files (`POST
   * /v1/api/accounts/{id}/import`). Such a source is named in the link body (`source`), since
   * its platform says only where the files come from (issue 30 item 5).
   */
  readonly accepts: readonly ('credentials' | 'address' | 'xpub' | 'file')[];
}

/** The account being linked, as a connector may know it when it turns options into settings. */
export interface NewAccountContext {
  readonly accountId: string;
  readonly platform: string;
}

export interface SourceConnector {
  fetch(request: ConnectorRequest): Promise<ConnectorResult>;
  /** The source's description; absent: no options, not synthetic (e.g. a test's connector). */
  describe?(): SourceDescription;
  /**
   * The non-secret settings stored with a new account (account.sourceOptions) from the options the
   * admin sent (only fields of this source's description, each already checked against its
   * spec); null when the source keeps none. Throws DomainError.validation naming the field.
   */
  accountOptions?(
    options: Readonly<Record<string, unknown>>,
    account: NewAccountContext,
  ): Record<string, unknown> | null;
  /** Rejects credentials this source cannot use (DomainError.validation naming `credentials`). */
  checkCredentials?(credentials: Readonly<Record<string, string>>): void;
  /**
   * Asks the source whether the credentials work, before an account is linked or reconnected (the
   * partner link flow answers 202 only then). Throws SourceAuthorizationError when the source
   * refuses them, SourceUnavailableError when it cannot tell now. Absent: nothing to ask.
   */
  verifyCredentials?(request: ConnectorRequest): Promise<void>;
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

/**
 * Why a request to a source never got an answer, in a few words an operator can act on: the
 * system error code of fetch's cause (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`…), else the
 * cause's own message without any URL (a URL may carry an API key). Hosts and ports are left out
 * too: the sentence is also the account's `syncError`, which partners read.
 */
export function unreachableCause(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const code = (cause as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
  const own = (cause as { message?: unknown })?.message;
  const message = typeof own === 'string' ? own : String(cause ?? '');
  const plain = message
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '')
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 0 ? plain.slice(0, 80) : 'no answer';
}

/** Wraps an in-memory list as the single page of a `ready` result. */
export async function* singlePage(
  transactions: readonly SourceTransaction[],
): AsyncIterable<readonly SourceTransaction[]> {
  yield transactions;
}
