/**
 * The OpenTelemetry SDK, loaded only when tracing is configured (register.ts).
 *
 * Spans: the HTTP server span of every request (named by its route template, which it also
 * carries as `http.route`, and with `request.id`: the request id of the logs, the `X-Request-Id`
 * header and an error body's `traceId`), outgoing HTTP calls (market data providers) and
 * PostgreSQL queries (pg, with DATABASE_URL; PGlite is not pg and has none). No Express
 * middleware spans: the server span's route and duration say what an operator needs, at a
 * fraction of the spans. Exported in batches over OTLP/HTTP (JSON); W3C trace context is
 * honoured on incoming requests and sent on outgoing ones.
 *
 * node:http and pg are loaded with `require` (by Nest, Express and TypeORM, all CommonJS), which
 * the instrumentations hook; none of this service's own ESM code needs an ESM loader hook.
 */
import { context, propagation, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { routeTemplateOf, UNMATCHED_ROUTE } from '../../modules/metrics/route-label.js';

/** The span attribute carrying the request id (docs/observability.md). */
export const REQUEST_ID_ATTRIBUTE = 'request.id';

let provider: TracerProvider | undefined;

export interface TracingOptions {
  readonly url: string;
  readonly serviceName: string;
  /** Tests: where spans go instead of OTLP. */
  readonly exporter?: SpanExporter;
}

export function startTracing(options: TracingOptions): void {
  if (provider) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  );
  provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': options.serviceName })),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: options.exporter ?? new OTLPTraceExporter({ url: options.url }) }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes arrive every few seconds and say nothing about a request's path.
        ignoreIncomingRequestHook: (request) => isProbeOrScrape(request.url),
        applyCustomAttributesOnSpan: describeServerSpan,
      }),
      new PgInstrumentation(),
    ],
  });
}

/** Sends the spans still buffered and stops; the application calls it when it shuts down. */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = undefined;
  await stopping?.shutdown();
}

/** On the server span, once the response is complete: the request id and the route template. */
function describeServerSpan(
  span: Span,
  request: ClientRequest | IncomingMessage,
  response: IncomingMessage | ServerResponse,
): void {
  if (!('getHeader' in response)) return; // an outgoing call's span
  const requestId = response.getHeader('x-request-id');
  if (typeof requestId === 'string') span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
  const route = routeTemplateOf(request);
  if (route !== UNMATCHED_ROUTE) {
    span.setAttribute('http.route', route);
    span.updateName(`${(request as IncomingMessage).method} ${route}`);
  }
}

function isProbeOrScrape(url: string | undefined): boolean {
  return (
    url !== undefined && (url.startsWith('/health/') || url === '/metrics' || url.startsWith('/metrics?'))
  );
}
