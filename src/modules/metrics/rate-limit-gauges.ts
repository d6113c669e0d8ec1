import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { RedisLink } from '../../common/guards/redis-link.js';
import { METRIC_PREFIX, MetricsRegistry } from './metrics.registry.js';

/**
 * Where the rate limits are kept, read when Prometheus scrapes (design §12: Redis down → the
 * limits carry on in memory, with a warning and a metric). Without REDIS_URL the limits are always
 * in memory and neither series exists.
 */
@Injectable()
export class RateLimitGauges {
  constructor(metrics: MetricsRegistry, @Optional() @Inject(RedisLink) link?: RedisLink | null) {
    if (!link) return;
    const registers = [metrics.registry];
    new Gauge({
      name: `${METRIC_PREFIX}redis_up`,
      help: "1 while Redis answers and holds the rate limits and failure counters; 0 while it is unreachable and they are kept in this instance's memory.",
      registers,
      collect() {
        this.set(link.available ? 1 : 0);
      },
    });
    new Counter({
      name: `${METRIC_PREFIX}rate_limit_memory_fallbacks_total`,
      help: 'Rate-limit and failure-counter operations counted in memory because Redis was unreachable.',
      registers,
      collect() {
        this.reset();
        this.inc(link.fallbacks);
      },
    });
  }
}
