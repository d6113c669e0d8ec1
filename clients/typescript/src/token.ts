import createClient from 'openapi-fetch';
import { ApiError } from './errors.js';
import type { paths } from './generated/openapi.js';

export interface TokenProviderOptions {
  /** The service's base address, e.g. `https://api.example.com` or `http://localhost:3000`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * How long before expiry a token is replaced, in seconds (default 60). Capped at half the
   * token's lifetime, so a short-lived token is still used for a while before it is replaced.
   */
  refreshBeforeExpirySeconds?: number;
  /** fetch to use (default: the global fetch). */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds since the epoch (default Date.now); tests pass a fake clock. */
  now?: () => number;
}

export interface AccessToken {
  accessToken: string;
  /** When this client replaces the token (ms since the epoch): before the service's expiry. */
  refreshAt: number;
  /** When the service stops accepting the token (ms since the epoch, by this client's clock). */
  expiresAt: number;
}

/**
 * Client-credentials tokens from POST /v1/api/token, kept until shortly before they expire.
 *
 * - Expiry is measured from `expiresIn` (seconds) and the moment the request was sent, by this
 *   machine's clock: a client whose clock is off from the service's still refreshes in time
 *   (`expiresOn` is the service's clock).
 * - Concurrent callers share one token request; a failed request is not cached (the next call tries
 *   again) and rejects with an ApiError (401: wrong credentials, 429: too many failed attempts).
 * - `invalidate()` drops the token; the client from createServiceClient calls it on any 401, so a
 *   token revoked early (secret rotated, client disabled) is replaced on the next call.
 */
export class TokenProvider {
  private current: AccessToken | undefined;
  private pending: Promise<AccessToken> | undefined;
  private readonly now: () => number;
  private readonly marginMs: number;
  private readonly client;

  constructor(private readonly options: TokenProviderOptions) {
    this.now = options.now ?? Date.now;
    this.marginMs = (options.refreshBeforeExpirySeconds ?? 60) * 1000;
    if (!(this.marginMs >= 0)) throw new RangeError('refreshBeforeExpirySeconds must be 0 or more');
    this.client = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  }

  /** A valid access token: the cached one until its refresh time, else a new one. */
  async getToken(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return this.current.accessToken;
    return (await this.refresh()).accessToken;
  }

  /** The cached token and its times, if any (for logging or tests). */
  peek(): AccessToken | undefined {
    return this.current;
  }

  /** Forgets the cached token: the next getToken() requests a new one. */
  invalidate(): void {
    this.current = undefined;
  }

  /** Requests a new token now (joining a request already in flight). */
  refresh(): Promise<AccessToken> {
    this.pending ??= this.request().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async request(): Promise<AccessToken> {
    const sentAt = this.now();
    const { data, error, response } = await this.client.POST('/v1/api/token', {
      body: { clientId: this.options.clientId, clientSecret: this.options.clientSecret },
    });
    if (!response.ok || data === undefined) throw new ApiError(response, error);
    const lifetimeMs = data.result.expiresIn * 1000;
    const token: AccessToken = {
      accessToken: data.result.accessToken,
      expiresAt: sentAt + lifetimeMs,
      refreshAt: sentAt + lifetimeMs - Math.min(this.marginMs, lifetimeMs / 2),
    };
    this.current = token;
    return token;
  }
}
