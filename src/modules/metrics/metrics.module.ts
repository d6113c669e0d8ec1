/**
 * Prometheus metrics (docs/observability.md lists every series).
 *
 * Owns: the registry of this instance, the HTTP request middleware, the sync-run counters the
 * refresh engine reports to (SyncMetrics), the gauges read at scrape time (simulation pool,
 * heavy-work admission, database pool, where the rate limits are kept), and `GET /metrics` (admin scope). Never: labels carrying ids (account, tenant,
 * client, raw URLs): every label takes values from a short fixed set, so the series stay bounded.
 * Also flushes the trace spans at shutdown when tracing is on (src/common/tracing), and turns an
 * unhandled promise rejection into an error line and a count instead of the end of the process
 * (UnhandledRejections). Global, so a module reports with one injected service and no import.
 */
import { Global, Module } from '@nestjs/common';
import { TracingLifecycle } from '../../common/tracing/tracing.lifecycle.js';
import { ComputeModule } from '../compute/index.js';
import { JobsModule } from '../jobs/index.js';
import { SimulationModule } from '../simulation/index.js';
import { JobQueueGauges, WebhookMetrics } from './background-metrics.js';
import { HttpMetrics } from './http-metrics.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsRegistry } from './metrics.registry.js';
import { RateLimitGauges } from './rate-limit-gauges.js';
import { RuntimeGauges } from './runtime-gauges.js';
import { SyncMetrics } from './sync-metrics.js';
import { UnhandledRejections } from './unhandled-rejections.js';

@Global()
@Module({
  imports: [SimulationModule, ComputeModule, JobsModule],
  controllers: [MetricsController],
  providers: [
    MetricsRegistry,
    HttpMetrics,
    SyncMetrics,
    RuntimeGauges,
    JobQueueGauges,
    WebhookMetrics,
    RateLimitGauges,
    TracingLifecycle,
    UnhandledRejections,
  ],
  exports: [HttpMetrics, SyncMetrics, WebhookMetrics],
})
export class MetricsModule {}
