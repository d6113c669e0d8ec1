/**
 * For tests only (the lint rule lets test/ import it, never src/): the registry and the rate
 * limiter's gauges, to read a metric.
 */
export { MetricsRegistry } from './metrics.registry.js';
export { RateLimitGauges } from './rate-limit-gauges.js';
