/** The metrics module's public face: what other modules may import (docs/modules.md). */
export { HttpMetrics } from './http-metrics.js';
export { MetricsModule } from './metrics.module.js';
export { labelRoute } from './route-label.js';
export { SyncMetrics } from './sync-metrics.js';
export { WebhookMetrics, type WebhookAttemptOutcome, type WebhookBacklog } from './background-metrics.js';
