import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

const CACHE_MS = 2_000;
const PING_TIMEOUT_MS = 1_500;

/** A cheap, cached "is the database answering" for /api/status (readiness pings every time). */
@Injectable()
export class DatabaseHealthService {
  private last: { ok: boolean; at: number } | undefined;
  private inFlight: Promise<boolean> | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>(
      (resolve) => (timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)),
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
