import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { LoopTime } from '../clock/event-loop-stalls.js';

/** Where the limits are kept now: in Redis (shared by every instance) or in this instance's memory. */
export type LimitStore = 'redis' | 'memory';

export interface RedisLinkOptions {
  /** The client's command timeout (REDIS_TIMEOUT_MS). */
  readonly commandTimeoutMs: number;
  /** How long a start waits for Redis' first answer before counting in memory (ms). */
  readonly startWaitMs: number;
  /** While Redis is unreachable: how often it is asked again (ms). */
  readonly probeIntervalMs: number;
}

/**
 * The rate limits' Redis connection, and whether it can be used now (design §12: Redis being down
 * never makes a request wait or fail; the limits carry on in memory, with a warning and a metric).
 *
 * The client is made so that no command waits for Redis (rate-limit.module.ts): no offline queue
 * (a command while disconnected fails at once), no resending, and a command timeout
 * (REDIS_TIMEOUT_MS). `run()` answers from memory whenever Redis is not known to be up, and marks
 * it down at the first failed command: from then on every check is answered from memory at once,
 * without trying Redis, until Redis answers again: on reconnection ('ready'), or to a PING this
 * link sends every `probeIntervalMs` (a connection that stays open but has stopped answering, a
 * partition, gets no 'ready' of its own; nor does one whose handshake never finishes, which the
 * probe replaces by a fresh one).
 *
 * One warning when Redis goes away and one line when it is back, not one per request; ioredis'
 * 'error' events (every reconnection attempt) are handled here, so none is printed raw as
 * "[ioredis] Unhandled error event".
 */
export class RedisLink implements OnModuleInit, OnApplicationShutdown {
  private state: 'starting' | 'up' | 'down' = 'starting';
  private cause = '';
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  /** Consecutive probes that found the connection stuck in its handshake. */
  private stuckProbes = 0;
  private closed = false;
  /** Rate-limit and failure-counter operations answered from memory because Redis was unreachable. */
  private memoryAnswers = 0;

  constructor(
    readonly redis: Redis,
    private readonly options: RedisLinkOptions,
    private readonly logger = new Logger('RateLimits'),
  ) {
    redis.on('error', (error: unknown) => this.lost(causeOf(error)));
    redis.on('close', () => this.lost('the connection closed'));
    redis.on('ready', () => this.regained());
  }

  /** Waits a moment for the first connection, so a Redis that is simply slower to start than us is no outage. */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return this.regained();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, this.options.startWaitMs);
      this.redis.on('ready', done);
    });
    if (this.state !== 'up') this.lost(this.cause || `no answer within ${this.options.startWaitMs} ms`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.stopProbing();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** True while the limits are kept in Redis. */
  get available(): boolean {
    return this.state === 'up';
  }

  get store(): LimitStore {
    return this.available ? 'redis' : 'memory';
  }

  /** Operations answered from memory because Redis was unreachable, since the start. */
  get fallbacks(): number {
    return this.memoryAnswers;
  }

  /**
   * `command` against Redis when it is up; `fallback` (the in-memory answer) when it is not, or
   * when the command fails (refused, timed out, an error reply such as LOADING or OOM), which
   * marks Redis down until it answers again. Never throws what Redis did.
   */
  async run<T>(command: (redis: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (this.state === 'up' && this.redis.status === 'ready') {
      const waited = new LoopTime();
      try {
        return await command(this.redis);
      } catch (error) {
        // A timeout that is only the event loop held meanwhile (the answer is waiting unread on
        // the socket: timers run first after a stall) is no outage: this one check is counted
        // in memory, Redis stays in use.
        const stalled =
          (error as Error | undefined)?.message === 'Command timed out' &&
          waited.stalledMs() > 0 &&
          waited.elapsedMs() < this.options.commandTimeoutMs;
        if (!stalled) this.lost(causeOf(error));
      }
    }
    this.memoryAnswers += 1;
    return fallback();
  }

  private lost(cause: string): void {
    if (this.closed) return;
    this.cause = cause;
    if (this.state === 'down') return;
    this.state = 'down';
    this.logger.warn(
      { cause },
      `Redis is unreachable (${cause}): rate limits and failure counters are kept in this instance's memory until it answers again.`,
    );
    this.startProbing();
  }

  private regained(): void {
    if (this.closed || this.state === 'up') return;
    const wasDown = this.state === 'down';
    this.state = 'up';
    this.cause = '';
    this.stopProbing();
    if (wasDown)
      this.logger.log('Redis answers again: rate limits and failure counters are kept in Redis again.');
  }

  private startProbing(): void {
    if (this.probe || this.closed) return;
    this.stuckProbes = 0;
    this.probe = setInterval(() => void this.probeOnce(), this.options.probeIntervalMs);
    this.probe.unref();
  }

  private stopProbing(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = undefined;
  }

  private async probeOnce(): Promise<void> {
    if (this.probing || this.closed) return;
    this.probing = true;
    try {
      const status = this.redis.status;
      if (status === 'ready') {
        await this.redis.ping(); // bounded by the command timeout
        this.regained();
      } else if (status === 'connect' && ++this.stuckProbes >= 2) {
        // Connected, but the handshake was never answered: ioredis would wait for it forever.
        this.stuckProbes = 0;
        this.redis.disconnect(true);
      } else if (status !== 'connect') {
        this.stuckProbes = 0;
      }
    } catch (error) {
      // Open but silent: start again on a fresh connection (the old one may be dead for good).
      this.cause = causeOf(error);
      if (!this.closed) this.redis.disconnect(true);
    } finally {
      this.probing = false;
    }
  }
}

function causeOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { message, code, errors } = error as { message?: unknown; code?: unknown; errors?: unknown };
  // Node's AggregateError (every address of a host refused) has an empty message.
  if ((typeof message !== 'string' || message === '') && Array.isArray(errors) && errors.length > 0) {
    return causeOf(errors[0]);
  }
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
}
