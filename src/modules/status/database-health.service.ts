import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';

const CACHE_MS = 2_000;

/**
 * How long a health ping waits for the database: 1.5 s, or DATABASE_TIMEOUT_MS when that is
 * shorter, so readiness never reports an outage later than the requests it covers fail.
 */
export function databasePingTimeoutMs(config: Pick<AppConfig, 'DATABASE_TIMEOUT_MS'>): number {
  return Math.min(1_500, config.DATABASE_TIMEOUT_MS);
}

/** A cheap, cached "is the database answering" for /api/status (readiness pings every time). */
@Injectable()
export class DatabaseHealthService {
  private last: { ok: boolean; at: number } | undefined;
  private inFlight: Promise<boolean> | undefined;

  private readonly pingTimeoutMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.pingTimeoutMs = databasePingTimeoutMs(config);
  }

  async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>(
      (resolve) => (timer = setTimeout(() => resolve(false), this.pingTimeoutMs)),
    );
    try {
      return await Promise.race([
        this.dataSource.query('SELECT 1').then(
          () => true,
          () => false,
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async isHealthy(now = Date.now()): Promise<boolean> {
    if (this.last && now - this.last.at < CACHE_MS) return this.last.ok;
    this.inFlight ??= this.ping().then((ok) => {
      this.last = { ok, at: Date.now() };
      this.inFlight = undefined;
      return ok;
    });
    return this.inFlight;
  }
}
