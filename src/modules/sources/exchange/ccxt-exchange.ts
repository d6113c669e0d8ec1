/**
 * ccxt at the edge of the exchange source: loaded lazily (the library is large; start-up never
 * pays for it), one exchange object per fetch with the account's keys, ccxt's own rate limiter on,
 * the request timeout of the source, the API base URL optionally overridden (EXCHANGE_API_URLS:
 * tests point it at a local fake, operators at a proxy), and ccxt's errors turned into the two
 * the refresh engine knows.
 */
import type { Exchange } from 'ccxt';
import { SourceAuthorizationError, SourceUnavailableError } from '../connectors/source-connector.js';

export type Ccxt = typeof import('ccxt');

let loading: Promise<Ccxt> | undefined;

/** The ccxt module, imported on first use only. */
export function loadCcxt(): Promise<Ccxt> {
  loading ??= import('ccxt');
  return loading;
}

/**
 * Checks EXCHANGE_GENERIC_IDS against the installed ccxt (loading it): throws naming the variable
 * and the ids ccxt does not have. Nothing to check: ccxt is not loaded.
 */
export async function checkGenericIds(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const known: object = (await loadCcxt()).exchanges;
  const unknown = ids.filter((id) => !Object.hasOwn(known, id));
  if (unknown.length > 0)
    throw new Error(`EXCHANGE_GENERIC_IDS: ${unknown.join(', ')} is not a ccxt exchange id.`);
}

export interface ExchangeClientOptions {
  /** Per-request timeout (ccxt `timeout`), ms. */
  readonly requestTimeoutMs: number;
  /** Base URL per ccxt id replacing the exchange's API host (the path of each API is kept). */
  readonly apiUrls: Readonly<Record<string, string>>;
  /** ccxt `rateLimit` override, ms per request unit; absent: the exchange's own. */
  readonly rateLimitMs?: number;
  /**
   * PEM certificates trusted besides the system's roots, for this client only (a local HTTPS fake
   * in tests; an egress proxy's own CA). NODE_EXTRA_CA_CERTS would change the whole process.
   */
  readonly trustedCa?: string;
}

/** The members of ccxt's Exchange behind its Node transport (undici), not in its typings. */
interface CcxtTransport {
  loadFetchImplementation(): Promise<void>;
  getDispatcherOptions(isPlainAgent: boolean): Record<string, unknown>;
  undiciModule?: { Agent: new (options: object) => unknown };
  fetchDispatcher?: unknown;
}

/** Makes ccxt's undici dispatcher trust `ca` besides the system roots (ccxt's own pooling options kept). */
async function trustCertificates(exchange: Exchange, ca: string): Promise<void> {
  const transport = exchange as unknown as CcxtTransport;
  await transport.loadFetchImplementation();
  if (!transport.undiciModule)
    throw new SourceUnavailableError(
      `ccxt's ${exchange.id} has no undici transport to trust a certificate with.`,
    );
  const { rootCertificates } = await import('node:tls');
  transport.fetchDispatcher = new transport.undiciModule.Agent({
    ...transport.getDispatcherOptions(true),
    connect: { ca: [...rootCertificates, ca] },
  });
}

/**
 * A ccxt exchange object for `ccxtId` with these credentials (`apiKey`, `secret`, `password`,
 * `uid`: ccxt's names), rate limited, with a timeout and, where configured, another API host.
 */
export async function createExchange(
  ccxtId: string,
  credentials: Readonly<Record<string, string>>,
  options: ExchangeClientOptions,
): Promise<Exchange> {
  const ccxt = await loadCcxt();
  const ExchangeClass = (ccxt as unknown as Record<string, new (config: object) => Exchange>)[ccxtId];
  if (!Object.hasOwn(ccxt.exchanges, ccxtId) || typeof ExchangeClass !== 'function')
    throw new SourceUnavailableError(`ccxt has no exchange "${ccxtId}".`);
  const exchange = new ExchangeClass({
    ...credentials,
    enableRateLimit: true,
    timeout: options.requestTimeoutMs,
    enableLastJsonResponse: true,
    ...(options.rateLimitMs !== undefined ? { rateLimit: options.rateLimitMs } : {}),
  });
  const base = options.apiUrls[ccxtId];
  if (base) exchange.urls['api'] = overrideApiUrls(exchange.urls['api'], base) as typeof exchange.urls.api;
  if (options.trustedCa) await trustCertificates(exchange, options.trustedCa);
  return exchange;
}

/** Every URL in ccxt's `urls.api` (a string or a nested map) moved to `base`, its path kept. */
export function overrideApiUrls(api: unknown, base: string): unknown {
  const root = base.replace(/\/+$/, '');
  if (typeof api === 'string') {
    // Templates such as OKX's "https://{hostname}" have no path to keep.
    const match = /^[a-z]+:\/\/[^/]+(\/.*)?$/i.exec(api);
    return `${root}${match?.[1] ?? ''}`;
  }
  if (api && typeof api === 'object')
    return Object.fromEntries(Object.entries(api).map(([key, value]) => [key, overrideApiUrls(value, base)]));
  return api;
}

/**
 * A ccxt failure as the refresh engine knows it: the key refused (AuthenticationError and its
 * PermissionDenied and AccountSuspended) → SourceAuthorizationError, the account must be
 * reconnected; anything else (NetworkError: timeouts, 5xx, rate limits, DDoS protection,
 * maintenance; BadResponse; an ExchangeError the exchange answered) → SourceUnavailableError,
 * retried with backoff. The message names the exchange and ccxt's error class only: ccxt's own
 * message quotes the exchange's answer, which is not for logs.
 */
export async function sourceError(error: unknown, exchangeId: string): Promise<Error> {
  if (error instanceof SourceAuthorizationError || error instanceof SourceUnavailableError) return error;
  const ccxt = await loadCcxt();
  const kind = error instanceof Error ? error.constructor.name : 'unknown error';
  if (error instanceof ccxt.AuthenticationError)
    return new SourceAuthorizationError(
      `${exchangeId} refused the API key (${kind}); the account must be reconnected with a valid read-only key.`,
    );
  // A wrong secret: Kraken answers "EAPI:Invalid signature", which ccxt leaves a plain ExchangeError.
  if (error instanceof ccxt.ExchangeError && /invalid signature/i.test(error.message))
    return new SourceAuthorizationError(
      `${exchangeId} refused the request signature (the API secret is wrong); the account must be reconnected.`,
    );
  if (error instanceof ccxt.RequestTimeout)
    return new SourceUnavailableError(`${exchangeId} did not answer in time (${kind}).`);
  // Gemini's 429 (`RateLimit`) is ccxt's RateLimitExceeded, a NetworkError beside DDoSProtection.
  if (error instanceof ccxt.DDoSProtection || error instanceof ccxt.RateLimitExceeded)
    return new SourceUnavailableError(
      `${exchangeId} is rate limiting this service (${kind}); retried later.`,
    );
  if (error instanceof ccxt.NetworkError)
    return new SourceUnavailableError(`${exchangeId} is unreachable or failing (${kind}).`);
  if (error instanceof ccxt.BaseError)
    return new SourceUnavailableError(`${exchangeId} answered with an error (${kind}).`);
  return new SourceUnavailableError(`${exchangeId} sent an answer that could not be read (${kind}).`);
}
