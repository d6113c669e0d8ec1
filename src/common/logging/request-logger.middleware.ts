import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { LogFn } from 'pino';
import type { ServiceRequest } from '../http/request-context.js';

interface RequestLog {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

interface ChildFactory {
  child(
    bindings: Record<string, unknown>,
    options?: { serializers?: Record<string, (value: unknown) => unknown>; redact?: string[] },
  ): RequestLog & ChildFactory;
}

const asIs = (value: unknown) => value;

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honour a caller's X-Request-Id when it is safe to echo; otherwise mint one. Always echoed back. */
function requestIdFor(req: Request, res: Response): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * One JSON line per request, written once the response is over (sent, or its connection closed
 * first):
 *
 *   {"level":"info",…,"reqId":"…","req":{"id","method","url"},"res":{"statusCode"},
 *    "responseTime":3,"clientId":"…","tenantId":"…","msg":"request completed"}
 *
 * The same fields and messages as pino-http with this service's serializers, written from one
 * logger made at start-up: no child logger per request (pino-http made three to four) and no
 * AsyncLocalStorage scope (docs/decisions.md, "No AsyncLocalStorage per request"). Logs written
 * while serving a request name it themselves: the error filter's `request failed` line carries
 * `reqId`.
 *
 * Levels: 5xx (or a response that never finished) → error "request errored"; 4xx → warn;
 * otherwise info "request completed", or debug for a health probe (`/health/*`: a load balancer or
 * orchestrator asks every few seconds; a failing probe keeps its warn or error). The query string
 * is never logged (it can carry cursors).
 */
export function requestLogger(root: ChildFactory) {
  // The root logger (built by pino-http for nestjs-pino) serialises `req`/`res` as raw Node
  // objects; these lines carry plain objects already, so they pass through as they are. They are
  // built below from the method, the path, the status and ids only, never from headers, query or
  // body, so they hold no credential and skip the root's redaction paths (its wildcard paths made
  // each line walk every field: ~5 µs a request).
  const log = root.child({}, { serializers: { req: asIs, res: asIs }, redact: [] });
  return function logRequest(req: Request, res: Response, next: NextFunction): void {
    const request = req as ServiceRequest;
    const reqId = (request.id = requestIdFor(req, res));
    const startedAt = Date.now();
    // A response emits 'close' once it is over, after 'finish' when it was sent.
    res.once('close', () => {
      const query = req.originalUrl.indexOf('?');
      const url = query < 0 ? req.originalUrl : req.originalUrl.slice(0, query);
      const line: Record<string, unknown> = {
        reqId,
        req: { id: reqId, method: req.method, url },
        res: { statusCode: res.statusCode },
        responseTime: Date.now() - startedAt,
      };
      const user = request.user;
      if (user) {
        line.clientId = user.clientId;
        line.tenantId = user.tenantId;
      }
      if (res.statusCode >= 500 || !res.writableFinished) log.error(line, 'request errored');
      else if (res.statusCode >= 400) log.warn(line, 'request completed');
      else if (url.startsWith('/health/')) log.debug(line, 'request completed');
      else log.info(line, 'request completed');
    });
    next();
  };
}
