import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** Prefix of the service's own series; the default process and Node.js series keep their standard names. */
export const METRIC_PREFIX = 'cas_';

/**
 * The Prometheus registry of one application instance, with the default process and Node.js
 * series (CPU, memory, heap, event-loop lag, GC, handles) registered on it.
 *
 * One registry per application, not prom-client's global one: the e2e suites start several
 * applications in one process, and each must count only its own requests.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly readers: (() => Promise<void>)[] = [];

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Work a scrape does before the gauges are read: the database reads of the background gauges
   * (job queue, webhooks). They end first, so the database pool's gauges, read with the others
   * at once, do not count the scrape's own queries.
   */
  beforeEachScrape(read: () => Promise<void>): void {
    this.readers.push(read);
  }

  /** The exposition text: every series of this instance, gauges read at this moment. */
  async render(): Promise<string> {
    for (const read of this.readers) await read();
    return this.registry.metrics();
  }
}
