import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { LogFn } from 'pino';
import type { ServiceRequest } from '../http/request-context.js';

interface RequestLog {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

interface ChildFactory {
  child(
    bindings: Record<string, unknown>,
    options?: { serializers?: Record<string, (value: unknown) => unknown> },
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
 * One JSON line per request, written when the response finishes (or the connection closes first):
 *
 *   {"level":30,…,"reqId":"…","req":{"id","method","url"},"res":{"statusCode"},
 *    "responseTime":3,"clientId":"…","tenantId":"…","msg":"request completed"}
 *
 * The same fields and messages as pino-http with this service's serializers, built directly
 * instead of through pino-http, which made three to four child loggers per request (the request id,
 * the serialised request, and one per customProps binding): the largest per-request cost after
 * the socket write. `req.log` is the request's child logger (bound to reqId); nestjs-pino
 * (useExisting) runs the rest of the request in its AsyncLocalStorage, so every PinoLogger call
 * made while serving the request carries the reqId.
 *
 * Levels: 5xx (or a response that never finished) → error "request errored"; 4xx → warn;
 * otherwise info "request completed". The query string is never logged (it can carry cursors).
 */
export function requestLogger(root: ChildFactory) {
  // The root logger (built by pino-http for nestjs-pino) serialises `req`/`res` as raw Node
  // objects; these lines carry plain objects already, so they pass through as they are.
  const base = root.child({}, { serializers: { req: asIs, res: asIs } });
  return function logRequest(req: Request, res: Response, next: NextFunction): void {
    const request = req as ServiceRequest;
    request.id = requestIdFor(req, res);
    const log = base.child({ reqId: request.id });
    (request as { log?: unknown }).log = log;
    const startedAt = Date.now();
    const done = () => {
      res.removeListener('finish', done);
      res.removeListener('close', done);
      const line: Record<string, unknown> = {
        req: { id: request.id, method: req.method, url: req.originalUrl.split('?')[0] },
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
      else log.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
