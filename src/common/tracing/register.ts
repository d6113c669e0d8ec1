/**
 * Starts OpenTelemetry tracing when it is configured, before anything it instruments is loaded:
 * main.ts imports this second (after the runtime check), and ESM evaluates this module, top-level
 * await included, before main.ts's later imports load Nest, Express and pg.
 *
 * Not configured (no OTLP endpoint, or OTEL_SDK_DISABLED=true): this module loads nothing more:
 * no OpenTelemetry package, no async context tracking, no per-request cost.
 *
 * An invalid configuration is left to main.ts, which reports it in one sentence and exits.
 */
import { ConfigValidationError, loadConfig } from '../../config/app-config.js';

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) return undefined;
    throw error;
  }
})();

if (config?.otlpTracesUrl) {
  const { startTracing } = await import('./tracing-sdk.js');
  startTracing({ url: config.otlpTracesUrl, serviceName: config.OTEL_SERVICE_NAME });
}
