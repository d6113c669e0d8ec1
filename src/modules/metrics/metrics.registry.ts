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

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text: every series of this instance, gauges read at this moment. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
