import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../../config/app-config.js';

/** Knows when the process started and whether it is draining, for status and readiness. */
@Injectable()
export class LifecycleService implements BeforeApplicationShutdown {
  readonly startedAt = Date.now();
  private draining = false;
  private readonly logger = new Logger('Lifecycle');

  constructor(private readonly config: AppConfig) {}

  get isDraining(): boolean {
    return this.draining;
  }

  /** Runs before the HTTP server stops accepting: readiness answers 503 during the grace period. */
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.draining = true;
    this.logger.log(
      `Shutting down${signal ? ` on ${signal}` : ''}: readiness answers 503, in-flight requests finish; the listener closes in ${this.config.SHUTDOWN_GRACE_MS} ms`,
    );
    if (this.config.SHUTDOWN_GRACE_MS > 0) await sleep(this.config.SHUTDOWN_GRACE_MS);
  }

  uptimeSeconds(now = Date.now()): number {
    return Math.floor((now - this.startedAt) / 1000);
  }
}
