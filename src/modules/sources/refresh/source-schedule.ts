/**
 * Per-source scheduling (issue 15, docs/sources.md "Scheduling"): how often the scheduler
 * refreshes an account of each source, how many refreshes of one source may run at once (across
 * instances: counted from the leases in Postgres), and how it backs off after consecutive failed
 * refreshes (exponential, capped, with jitter). One table here; `REFRESH_SCHEDULES` (JSON in the
 * environment) may override any field of any source, checked at start-up.
 */
import { Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { STALE_AFTER_MS } from './refresh-timing.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface SourceBackoff {
  /** Delay after the first failure; doubles with each further consecutive failure. */
  readonly baseMs: number;
  /** The delay never exceeds this (before jitter shortens it). */
  readonly capMs: number;
  /**
   * Fraction of the delay drawn at random (0 ≤ jitter ≤ 1): the delay is
   * `d × (1 − jitter × r)` with r uniform in [0, 1), so accounts that failed together (one outage)
   * do not all retry in the same second. 0: no jitter.
   */
  readonly jitter: number;
}

export interface SourceSchedule {
  /** After a successful refresh, the scheduler refreshes the account again this much later. */
  readonly intervalMs: number;
  /** At most this many refreshes of the source at once (scheduled ones wait for a free slot). */
  readonly maxConcurrent: number;
  readonly backoff: SourceBackoff;
}

/**
 * Sources not in the table (e.g. a test's connector) keep the engine's former fixed rule: every
 * 30 minutes, a failed refresh retried 30 minutes later, no jitter.
 */
export const DEFAULT_SOURCE_SCHEDULE: SourceSchedule = {
  intervalMs: STALE_AFTER_MS,
  maxConcurrent: 4,
  backoff: { baseMs: STALE_AFTER_MS, capMs: STALE_AFTER_MS, jitter: 0 },
};

/** Exchange APIs: rate-limited per key and slow; a failing exchange is retried gently. */
const EXCHANGE: SourceSchedule = {
  intervalMs: 30 * MINUTE_MS,
  maxConcurrent: 2,
  backoff: { baseMs: 2 * MINUTE_MS, capMs: 6 * HOUR_MS, jitter: 0.5 },
};

/** The schedule of every shipped source. */
export const SOURCE_SCHEDULES: Readonly<Record<string, SourceSchedule>> = {
  /** Synthetic, in-process: cheap, many at once; its simulated outage backs off like a real one. */
  sandbox: {
    intervalMs: 30 * MINUTE_MS,
    maxConcurrent: 8,
    backoff: { baseMs: MINUTE_MS, capMs: 2 * HOUR_MS, jitter: 0.5 },
  },
  /** Imports: a refresh fetches nothing and revalues the stored history at current prices. */
  csv: {
    intervalMs: 30 * MINUTE_MS,
    maxConcurrent: 2,
    backoff: { baseMs: 5 * MINUTE_MS, capMs: 6 * HOUR_MS, jitter: 0.5 },
  },
  /** Esplora: public, generous, but an xpub walks many addresses. */
  bitcoin: {
    intervalMs: 30 * MINUTE_MS,
    maxConcurrent: 3,
    backoff: { baseMs: MINUTE_MS, capMs: 2 * HOUR_MS, jitter: 0.5 },
  },
  /** Etherscan-compatible APIs allow a few calls a second per key. */
  ethereum: {
    intervalMs: 30 * MINUTE_MS,
    maxConcurrent: 2,
    backoff: { baseMs: MINUTE_MS, capMs: 2 * HOUR_MS, jitter: 0.5 },
  },
  /**
   * Solana JSON-RPC: one getTransaction per signature on every refresh, and public endpoints allow
   * about 100 requests / 10 s per IP (429 beyond): one wallet at a time, backing off like an exchange.
   */
  solana: {
    intervalMs: 30 * MINUTE_MS,
    maxConcurrent: 1,
    backoff: { baseMs: 2 * MINUTE_MS, capMs: 6 * HOUR_MS, jitter: 0.5 },
  },
  /** ccxt exchanges (every exchange platform shares the source's slots). */
  exchange: EXCHANGE,
};

/** Delay before retrying after `failures` consecutive failed refreshes (≥ 1); `random` in [0, 1). */
export function backoffDelayMs(backoff: SourceBackoff, failures: number, random: number): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 40);
  const delay = Math.min(backoff.capMs, backoff.baseMs * 2 ** exponent);
  return Math.round(delay * (1 - backoff.jitter * random));
}

/**
 * Thrown when REFRESH_SCHEDULES is not what it must be; names the field. The service checks it
 * before Nest starts (config/startup-config.ts): a configuration error, exit 78.
 */
export class InvalidScheduleError extends Error {
  override name = 'InvalidScheduleError';
}

/** The schedules in force: the table, with REFRESH_SCHEDULES applied; tests may set one source's. */
@Injectable()
export class SourceSchedules {
  private readonly schedules = new Map<string, SourceSchedule>(Object.entries(SOURCE_SCHEDULES));
  /** Uniform in [0, 1): the backoff's jitter (tests replace it). */
  random: () => number = Math.random;

  constructor(@Optional() config?: AppConfig) {
    if (config?.REFRESH_SCHEDULES) {
      for (const [source, schedule] of Object.entries(parseOverrides(config.REFRESH_SCHEDULES)))
        this.schedules.set(source, schedule(this.of(source)));
    }
  }

  of(source: string): SourceSchedule {
    return this.schedules.get(source) ?? DEFAULT_SOURCE_SCHEDULE;
  }

  /** The sources with a schedule of their own. */
  sources(): string[] {
    return [...this.schedules.keys()].sort();
  }

  /** Replaces the schedule of `source` (tests); returns a function that restores the previous one. */
  set(source: string, schedule: SourceSchedule): () => void {
    check(schedule, source);
    const previous = this.schedules.get(source);
    this.schedules.set(source, schedule);
    return () => {
      if (previous) this.schedules.set(source, previous);
      else this.schedules.delete(source);
    };
  }

  /** When a successful refresh's account is due again. */
  nextAfterSuccess(source: string, now: Date): Date {
    return new Date(now.getTime() + this.of(source).intervalMs);
  }

  /** When an account is retried after its `failures`-th consecutive failed refresh. */
  nextAfterFailure(source: string, failures: number, now: Date): Date {
    return new Date(now.getTime() + backoffDelayMs(this.of(source).backoff, failures, this.random()));
  }
}

type Override = (base: SourceSchedule) => SourceSchedule;

const POSITIVE_MS = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

function check(schedule: SourceSchedule, source: string): SourceSchedule {
  const where = `REFRESH_SCHEDULES.${source}`;
  if (!POSITIVE_MS(schedule.intervalMs))
    throw new InvalidScheduleError(`${where}.intervalMs must be a positive integer (milliseconds).`);
  if (!Number.isInteger(schedule.maxConcurrent) || schedule.maxConcurrent < 1 || schedule.maxConcurrent > 100)
    throw new InvalidScheduleError(`${where}.maxConcurrent must be an integer from 1 to 100.`);
  if (!POSITIVE_MS(schedule.backoff.baseMs))
    throw new InvalidScheduleError(`${where}.backoff.baseMs must be a positive integer (milliseconds).`);
  if (!POSITIVE_MS(schedule.backoff.capMs) || schedule.backoff.capMs < schedule.backoff.baseMs)
    throw new InvalidScheduleError(`${where}.backoff.capMs must be an integer ≥ backoff.baseMs.`);
  if (
    typeof schedule.backoff.jitter !== 'number' ||
    !(schedule.backoff.jitter >= 0 && schedule.backoff.jitter <= 1)
  )
    throw new InvalidScheduleError(`${where}.backoff.jitter must be a number from 0 to 1.`);
  return schedule;
}

const SETTINGS: readonly string[] = ['intervalMs', 'maxConcurrent', 'backoff'];
const BACKOFF_SETTINGS: readonly string[] = ['baseMs', 'capMs', 'jitter'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{"<source>": {"intervalMs"?, "maxConcurrent"?, "backoff"?: {"baseMs"?, "capMs"?, "jitter"?}}}`:
 * each field given replaces the table's value. Only the table's sources: a misspelt one would
 * otherwise be ignored without a word. Every refusal names the field and what it may be.
 */
export function parseOverrides(text: string): Record<string, Override> {
  const sources = Object.keys(SOURCE_SCHEDULES).sort();
  const valid = (keys: readonly string[], what: string) => `(${what}: ${keys.join(', ')})`;
  const settings = valid(SETTINGS, 'settings');
  const backoffSettings = valid(BACKOFF_SETTINGS, 'settings');
  const notAnObject = `REFRESH_SCHEDULES must be a JSON object keyed by source ${valid(sources, 'sources')}.`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidScheduleError(notAnObject);
  }
  if (!isObject(parsed)) throw new InvalidScheduleError(notAnObject);
  return Object.fromEntries(
    Object.entries(parsed).map(([source, value]): [string, Override] => {
      if (!Object.hasOwn(SOURCE_SCHEDULES, source))
        throw new InvalidScheduleError(
          `REFRESH_SCHEDULES.${source} is not a source ${valid(sources, 'sources')}.`,
        );
      if (!isObject(value))
        throw new InvalidScheduleError(`REFRESH_SCHEDULES.${source} must be an object ${settings}.`);
      for (const key of Object.keys(value))
        if (!SETTINGS.includes(key))
          throw new InvalidScheduleError(`REFRESH_SCHEDULES.${source}.${key} is not a setting ${settings}.`);
      const backoff = value.backoff ?? {};
      if (!isObject(backoff))
        throw new InvalidScheduleError(
          `REFRESH_SCHEDULES.${source}.backoff must be an object ${backoffSettings}.`,
        );
      for (const key of Object.keys(backoff))
        if (!BACKOFF_SETTINGS.includes(key))
          throw new InvalidScheduleError(
            `REFRESH_SCHEDULES.${source}.backoff.${key} is not a setting ${backoffSettings}.`,
          );
      return [
        source,
        (base) =>
          check(
            {
              intervalMs: (value.intervalMs as number | undefined) ?? base.intervalMs,
              maxConcurrent: (value.maxConcurrent as number | undefined) ?? base.maxConcurrent,
              backoff: { ...base.backoff, ...(backoff as Partial<SourceBackoff>) },
            },
            source,
          ),
      ];
    }),
  );
}
