import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { FailureCounter, type FailureWindow } from '../../common/guards/failure-counter.js';

const MINUTE_MS = 60_000;
/** Requests that may wait per verification slot, and how long each may wait, before a 503. */
const QUEUE_PER_SLOT = 8;
const SLOT_WAIT_MS = 5_000;

const busy = () =>
  DomainError.retryLater(
    ErrorCode.ServiceUnavailable,
    'Too many credential verifications in progress; retry after the number of seconds in Retry-After.',
    1,
  );

/** What the token endpoints put in their `RateLimit-*` headers: the failed attempts still allowed. */
export interface CredentialLimitState {
  readonly limit: number;
  readonly remaining: number;
  readonly resetSeconds: number;
}
export type CredentialLimitReport = (state: CredentialLimitState) => void;

/**
 * The guessing limits of the token endpoints (design §10, issue 13 item 8):
 * - failed verifications per source address + clientId (TOKEN_RATE_LIMIT_PER_MINUTE), and per
 *   source address across clientIds (TOKEN_FAILURES_PER_IP_PER_MINUTE): 429 with Retry-After for
 *   that address until its window ends. Only failures count, so a correct secret is refused only
 *   when its own address is over a limit, never because other addresses guessed wrong;
 * - argon2 verifications in progress on this instance (TOKEN_VERIFICATIONS_MAX_CONCURRENT, each
 *   argon2id hash holds 64 MiB): beyond it requests wait their turn (at most 8 per slot, 5 s
 *   each), then 503 with Retry-After 1 before any hashing, so a burst costs neither memory nor
 *   CPU. An address that has failed in its window may hold at most a quarter of the slots (429
 *   with Retry-After 1 beyond), so a guessing flood cannot crowd out other clients' correct
 *   secrets, while a partner's burst of correct ones from one address only waits.
 * The source address is Express's `req.ip`, which honours X-Forwarded-For only from TRUST_PROXY.
 */
@Injectable()
export class CredentialAttempts {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  /** Verifications running or waiting for a slot, per source address. */
  private readonly inFlightByAddress = new Map<string, number>();

  constructor(
    private readonly failures: FailureCounter,
    private readonly config: AppConfig,
  ) {}

  /**
   * Runs `verify` unless the address is over a failure limit or the instance is at its cap; counts
   * a null answer as a failure. `report` hears the failure budget before any refusal and after a
   * failure is counted, so every answer can carry it (design §10: RateLimit-* on every response).
   */
  async verify<T>(
    sourceAddress: string,
    clientId: string,
    verify: () => Promise<T | null>,
    report: CredentialLimitReport = () => {},
  ): Promise<T | null> {
    const pair = this.key(`ip:${sourceAddress}|client:${clientId.slice(0, 128)}`);
    const address = this.key(`ip:${sourceAddress}`);
    const before = await Promise.all([this.failures.usage(pair), this.failures.usage(address)]);
    report(this.tightest(before));
    const wait = Math.max(
      ...this.limits().map((limit, i) => (before[i]!.failures >= limit ? before[i]!.resetSeconds : 0)),
    );
    if (wait > 0) {
      throw DomainError.retryLater(
        ErrorCode.RateLimited,
        'Too many failed credential attempts from this address; retry after the number of seconds in Retry-After.',
        wait,
      );
    }
    const cap = this.config.TOKEN_VERIFICATIONS_MAX_CONCURRENT;
    const fromAddress = this.inFlightByAddress.get(sourceAddress) ?? 0;
    // The per-address share applies to an address that has failed in its window: a partner's
    // burst of correct secrets from one address (workers behind one NAT) waits for slots instead.
    if (before[1]!.failures > 0 && fromAddress >= Math.max(1, Math.floor(cap / 4))) {
      throw DomainError.retryLater(
        ErrorCode.RateLimited,
        'Too many credential verifications in progress from this address; retry after the number of seconds in Retry-After.',
        1,
      );
    }
    this.inFlightByAddress.set(sourceAddress, fromAddress + 1);
    let verified: T | null;
    try {
      await this.slot(cap);
      try {
        verified = await verify();
      } finally {
        this.release();
      }
    } finally {
      const left = (this.inFlightByAddress.get(sourceAddress) ?? 1) - 1;
      if (left > 0) this.inFlightByAddress.set(sourceAddress, left);
      else this.inFlightByAddress.delete(sourceAddress);
    }
    if (verified === null) {
      report(
        this.tightest(
          await Promise.all([
            this.failures.recordFailure(pair, MINUTE_MS),
            this.failures.recordFailure(address, MINUTE_MS),
          ]),
        ),
      );
    }
    return verified;
  }

  /**
   * One of the `cap` verification slots: at once when one is free, else after the requests queued
   * before it (at most QUEUE_PER_SLOT × cap wait, each at most SLOT_WAIT_MS); beyond, 503.
   */
  private slot(cap: number): Promise<void> {
    if (this.inFlight < cap) {
      this.inFlight += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= cap * QUEUE_PER_SLOT) return Promise.reject(busy());
    return new Promise<void>((resolve, reject) => {
      const waiter = () => {
        clearTimeout(timer);
        this.inFlight += 1;
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(busy());
      }, SLOT_WAIT_MS);
      this.waiting.push(waiter);
    });
  }

  /** Frees a slot, handing it straight to the longest-waiting request. */
  private release(): void {
    this.inFlight -= 1;
    this.waiting.shift()?.();
  }

  /** The budget of a request that names no client (a credential is missing): the address's own. */
  async addressState(sourceAddress: string): Promise<CredentialLimitState> {
    const window = await this.failures.usage(this.key(`ip:${sourceAddress}`));
    return this.state(this.config.TOKEN_FAILURES_PER_IP_PER_MINUTE, window);
  }

  /** Limits in the order of the windows: address + clientId, then address across clientIds. */
  private limits(): [number, number] {
    return [this.config.TOKEN_RATE_LIMIT_PER_MINUTE, this.config.TOKEN_FAILURES_PER_IP_PER_MINUTE];
  }

  /** Of several limits, the one closest to refusing (fewest attempts left) is the one to report. */
  private tightest(windows: readonly FailureWindow[]): CredentialLimitState {
    const states = this.limits().map((limit, i) => this.state(limit, windows[i]!));
    return states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  }

  private state(limit: number, window: FailureWindow): CredentialLimitState {
    return {
      limit,
      remaining: Math.max(0, limit - window.failures),
      resetSeconds: window.resetSeconds > 0 ? window.resetSeconds : MINUTE_MS / 1000,
    };
  }

  private key(suffix: string): string {
    return `${this.config.RATE_LIMIT_PREFIX}:token-failures:${suffix}`;
  }
}
