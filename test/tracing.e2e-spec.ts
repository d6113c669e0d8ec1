/**
 * OpenTelemetry tracing of the built service (docs/observability.md): with an OTLP endpoint, the
 * server span of each request carries its request id and route template and reaches the
 * collector (here a local OTLP/HTTP receiver), the last ones flushed at shutdown; without one, no
 * OpenTelemetry SDK, exporter or instrumentation is even loaded.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { sandboxId } from '../src/modules/sandbox/index.js';
import { databaseEnv, startService } from './support/process.js';

interface ExportedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly attributes: Record<string, unknown>;
  readonly service: unknown;
}

/** A collector's OTLP/HTTP traces endpoint (JSON encoding, the exporter's default). */
function otlpReceiver(): Promise<{ server: Server; url: string; spans: ExportedSpan[]; paths: string[] }> {
  const spans: ExportedSpan[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      paths.push(req.url ?? '');
      for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
        const service = resourceSpans.resource.attributes.find(
          (a: { key: string }) => a.key === 'service.name',
        )?.value.stringValue;
        for (const scope of resourceSpans.scopeSpans)
          for (const span of scope.spans)
            spans.push({
              name: span.name,
              traceId: span.traceId,
              service,
              attributes: Object.fromEntries(
                span.attributes.map((a: { key: string; value: Record<string, unknown> }) => [
                  a.key,
                  Object.values(a.value)[0],
                ]),
              ),
            });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      done({ server, url: `http://127.0.0.1:${port}`, spans, paths });
    }),
  );
}

describe('OpenTelemetry tracing (built service)', () => {
  it('exports a server span per request with the request id and the route template', async () => {
    const receiver = await otlpReceiver();
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const database = await databaseEnv();
    const service = await startService(
      { ...database.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      150_000,
    );
    try {
      const token = await fetch(`${service.base}/v1/api/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'trace-token' },
        body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
      });
      expect(token.status).toBe(200);
      const bearer = `Bearer ${((await token.json()) as { result: { accessToken: string } }).result.accessToken}`;
      const balances = `${service.base}/v1/api/account/${sandboxId('account:sandbox:kraken-trading')}/balances`;
      expect((await fetch(balances, { headers: { Authorization: bearer } })).status).toBe(200);
      // Answered by the cached balances fast path, and part of the caller's trace (W3C traceparent).
      const fast = await fetch(balances, {
        headers: {
          Authorization: bearer,
          'X-Request-Id': 'trace-fast',
          traceparent: `00-${callerTrace}-00f067aa0ba902b7-01`,
        },
      });
      expect(fast.status).toBe(200);
      const missing = await fetch(`${service.base}/no/such/path`, { headers: { Authorization: bearer } });
      expect(missing.status).toBe(404);
      const minted = missing.headers.get('x-request-id');
      expect(minted).toMatch(/^[0-9a-f-]{36}$/);
      // The balances reads' audit rows are appended within AUDIT_READ_FLUSH_MS (200 ms).
      await new Promise((done) => setTimeout(done, 1_000));
    } finally {
      service.child.kill('SIGTERM'); // the shutdown flushes the spans still buffered
      await service.exited;
      await database.cleanup();
      receiver.server.close();
    }

    expect(receiver.paths.every((path) => path === '/v1/traces')).toBe(true);
    const byRequestId = (id: string) => receiver.spans.filter((span) => span.attributes['request.id'] === id);
    expect(byRequestId('trace-token')).toEqual([
      expect.objectContaining({
        name: 'POST /v1/api/token',
        service: 'crypto-asset-service',
        attributes: expect.objectContaining({
          'http.route': '/v1/api/token',
          'http.response.status_code': 200,
        }),
      }),
    ]);
    expect(byRequestId('trace-fast')).toEqual([
      expect.objectContaining({
        name: 'GET /v1/api/account/:accountId/balances',
        traceId: callerTrace,
        attributes: expect.objectContaining({ 'http.route': '/v1/api/account/:accountId/balances' }),
      }),
    ]);
    // Every server span carries a request id, the ones the service minted included.
    const serverSpans = receiver.spans.filter((span) => 'http.response.status_code' in span.attributes);
    expect(serverSpans.length).toBeGreaterThanOrEqual(4);
    for (const span of serverSpans) expect(span.attributes['request.id']).toEqual(expect.any(String));
    if (process.env.DATABASE_URL) {
      // On PostgreSQL the audit rows go in a COPY (audit.service.ts copyEntries): its span ends, so
      // it is exported, like every other statement's.
      expect(
        receiver.spans.some(
          (span) =>
            /COPY/.test(span.name) ||
            /^COPY /.test(String(span.attributes['db.query.text'] ?? span.attributes['db.statement'] ?? '')),
        ),
      ).toBe(true);
    }
    // Probes are not traced (startService polled /health/ready until it answered).
    expect(receiver.spans.some((span) => String(span.attributes['url.path']).startsWith('/health/'))).toBe(
      false,
    );
  }, 240_000);

  it.each([
    ['no endpoint is configured', {}],
    [
      'OTEL_SDK_DISABLED=true',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' },
    ],
  ])('loads no OpenTelemetry SDK when %s', (_case, env) => {
    // What main.ts loads before it starts the application: the tracing switch, then the whole app.
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ resolve(specifier, context, next) { loaded.push(specifier); return next(specifier, context); } });
      await import(${JSON.stringify(resolve('dist/src/common/tracing/register.js'))});
      await import(${JSON.stringify(resolve('dist/src/app.factory.js'))});
      console.log(JSON.stringify({ all: loaded.length, otel: loaded.filter((s) => s.includes('@opentelemetry')) }));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    const { all, otel } = JSON.parse(result.stdout);
    expect(all).toBeGreaterThan(100); // the hook saw the application's modules load
    // @opentelemetry/api alone is prom-client's (exemplars): a no-op facade until an SDK registers.
    expect(otel.filter((specifier: string) => specifier !== '@opentelemetry/api')).toEqual([]);
  });
});
