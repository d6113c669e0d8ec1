import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

/** Knows when the process started and whether it is draining, for status and readiness. */
@Injectable()
export class LifecycleService implements BeforeApplicationShutdown {
  readonly startedAt = Date.now();
  private draining = false;

  get isDraining(): boolean {
    return this.draining;
  }

  beforeApplicationShutdown(): void {
    this.draining = true;
  }

  uptimeSeconds(now = Date.now()): number {
    return Math.floor((now - this.startedAt) / 1000);
  }
}
