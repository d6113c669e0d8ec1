/**
 * Retries with backoff, as a fetch wrapper: a 429 or 503 (and a 409 that says when to retry, the
 * service's "this Idempotency-Key is still being processed") is sent again after the answer's
 * `Retry-After` (seconds or an HTTP date), else after an exponential backoff with jitter; a network
 * failure is sent again when repeating it is safe (a read, or a write with an Idempotency-Key, which
 * the service answers once). Attempts are bounded, and a `Retry-After` longer than the caller is
 * willing to wait is not waited: that answer is returned as it is.
 */

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). 1 turns retries off. */
  maxAttempts?: number;
  /** Backoff before the first retry when the answer has no Retry-After, ms (default 500); doubles per retry. */
  baseDelayMs?: number;
  /** Longest backoff, ms (default 8000). */
  maxDelayMs?: number;
  /** A Retry-After longer than this (ms, default 60000) is not waited: the answer is returned. */
  maxRetryAfterMs?: number;
  /** Statuses retried whatever their headers (default 429 and 503). */
  statuses?: readonly number[];
  /** Waits `ms` (default setTimeout); tests pass a fake. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
  /** Milliseconds since the epoch, to read an HTTP-date Retry-After (default Date.now). */
  now?: () => number;
  /** Told before each retry (for logging): the attempt that failed, the wait, and why. */
  onRetry?: (retry: {
    attempt: number;
    delayMs: number;
    status?: number;
    error?: unknown;
    request: Request;
  }) => void;
}

const DEFAULTS = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  statuses: [429, 503],
} as const;

/** Methods that may be repeated after a network failure without a key (RFC 9110 §9.2.2). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The delay a `Retry-After` value asks for, in ms: delta-seconds or an HTTP date (RFC 9110
 * §10.2.3); undefined when absent or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // a negative or fractional number is not a date
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A fetch that retries `fetch` as the options say (see the module's comment). */
export function withRetries(
  fetch: typeof globalThis.fetch,
  options: RetryOptions = {},
): typeof globalThis.fetch {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? DEFAULTS.maxAttempts));
  const baseDelayMs = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
  const statuses = new Set(options.statuses ?? DEFAULTS.statuses);
  const sleep = options.sleep ?? wait;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  /** Exponential backoff with jitter: 50–100 % of base × 2^(attempt-1), capped. */
  const backoff = (attempt: number) =>
    Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)) * (0.5 + random() / 2);

  return async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const repeatable = SAFE_METHODS.has(request.method) || request.headers.has('idempotency-key');
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      // Each attempt sends its own copy: a body can be read once.
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await fetch(sent);
      } catch (error) {
        if (last || !repeatable || request.signal.aborted || isAbort(error)) throw error;
        const delayMs = backoff(attempt);
        options.onRetry?.({ attempt, delayMs, error, request });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (last) return response;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
      const retried =
        statuses.has(response.status) || (response.status === 409 && retryAfterMs !== undefined);
      if (!retried || (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs)) return response;
      const delayMs = retryAfterMs ?? backoff(attempt);
      options.onRetry?.({ attempt, delayMs, status: response.status, request });
      await response.body?.cancel(); // this answer is not read: free the connection
      await sleep(delayMs, request.signal);
    }
  };
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
