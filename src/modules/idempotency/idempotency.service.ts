import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { IdempotencyRepository, type StoredResponse } from './idempotency.repository.js';
import { StoredResponseCipher } from './stored-response.cipher.js';

/** How long a key is remembered per client (Stripe keeps keys 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a request in progress holds its key. Longer than any write takes (the largest CSV
 * import runs for seconds); after a crash a retry with the same key executes once this passes.
 */
export const IDEMPOTENCY_LOCK_MS = 5 * 60 * 1000;

export enum IdempotencyReason {
  KeyReused = 'idempotency_key_reused',
  InProgress = 'idempotency_request_in_progress',
}

export interface IdempotentCaller {
  tenantId: string;
  clientId: string;
}

export type Admission = { kind: 'execute' } | { kind: 'replay'; response: StoredResponse };

/**
 * Idempotency-Key semantics (Stripe's): the first request with a key executes and its successful
 * response is kept for 24 hours; a retry with the same key and the same request gets that response again;
 * the same key with another request is refused (422); a retry while the first still runs is
 * told to wait (409, Retry-After).
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly repository: IdempotencyRepository,
    private readonly clock: Clock,
    private readonly cipher: StoredResponseCipher,
  ) {}

  async admit(caller: IdempotentCaller, key: string, fingerprint: string): Promise<Admission> {
    const now = this.clock.now();
    const claimed = await this.repository.claim(caller.tenantId, caller.clientId, key, fingerprint, {
      now,
      lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
      expiredBefore: new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS),
    });
    if (claimed) return { kind: 'execute' };
    const existing = await this.repository.find(caller.tenantId, caller.clientId, key);
    // Completed or freed between the two statements: the caller may simply try again.
    if (!existing) return this.busy();
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError(
        ErrorCode.Unprocessable,
        'This Idempotency-Key was already used with a different request (method, path or body); use a new key for a new request.',
        { 'Idempotency-Key': ['Already used with a different request.'] },
        IdempotencyReason.KeyReused,
      );
    }
    if (existing.state === 'in_progress') return this.busy();
    return {
      kind: 'replay',
      response: {
        status: existing.responseStatus!,
        headers: existing.responseHeaders ?? {},
        body: await this.cipher.open(binding(caller, key), existing.responseBody ?? ''),
      },
    };
  }

  /** Keeps the response for retries, or frees the key when the response is not final. */
  async settle(
    caller: IdempotentCaller,
    key: string,
    fingerprint: string,
    response: StoredResponse | null,
  ): Promise<void> {
    if (response && isFinal(response.status)) {
      // Encrypted at rest: the answer may hold a secret shown once (StoredResponseCipher).
      const sealed = { ...response, body: await this.cipher.seal(binding(caller, key), response.body) };
      await this.repository.complete(caller.tenantId, caller.clientId, key, fingerprint, sealed);
    } else {
      await this.repository.release(caller.tenantId, caller.clientId, key, fingerprint);
    }
  }

  /** Forgets keys older than the 24-hour window. */
  deleteExpired(): Promise<number> {
    return this.repository.deleteExpired(new Date(this.clock.now().getTime() - IDEMPOTENCY_KEY_TTL_MS));
  }

  private busy(): never {
    throw new DomainError(
      ErrorCode.Conflict,
      'A request with this Idempotency-Key is still being processed; retry after the number of seconds in Retry-After.',
      undefined,
      IdempotencyReason.InProgress,
      1,
    );
  }
}

/**
 * Responses a retry sees again: successes only. An error wrote nothing (every write is one
 * transaction), so a retry executes again and gets an answer about the state of now, with its own
 * traceId (a replayed error would carry the first request's). This is where we differ from
 * Stripe, which also replays 4xx answers (docs/idempotency.md).
 */
function isFinal(status: number): boolean {
  return status >= 200 && status < 300;
}

/** What a stored answer is bound to: its tenant, client and key. */
function binding(caller: IdempotentCaller, key: string): string {
  return `idempotency:${caller.tenantId}:${caller.clientId}:${key}`;
}
