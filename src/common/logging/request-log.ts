import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { LogFn } from 'pino';
import type { ServiceRequest } from '../http/request-context.js';

/** The logger request lines are written with (logging.module.ts, requestLineLogger). */
export interface LineWriter {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

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
 * first; a front route that answers by itself writes it right after its answer, `write`):
 *
 *   {"level":"info",…,"reqId":"…","req":{"id","method","url"},"res":{"statusCode"},
 *    "responseTime":3,"clientId":"…","tenantId":"…","msg":"request completed"}
 *
 * The same fields and messages as pino-http with this service's serializers, written from one
 * logger made at start-up (requestLineLogger, which writes a turn's lines at once): no child
 * logger per request (pino-http made three to four) and no
 * AsyncLocalStorage scope (docs/decisions.md, "No AsyncLocalStorage per request"). Logs written
 * while serving a request name it themselves: the error filter's `request failed` line carries
 * `reqId`.
 *
 * Levels: 5xx (or a response that never finished) → error "request errored"; 4xx → warn;
 * otherwise info "request completed", or debug for a health probe (`/health/*`: a load balancer or
 * orchestrator asks every few seconds; a failing probe keeps its warn or error). The query string
 * is never logged (it can carry cursors).
 */
export class RequestLog {
  constructor(private readonly log: LineWriter) {}

  /** At the edge, before routing: the request's id, and its line once the response is over. */
  begin(req: Request, res: Response): void {
    this.identify(req, res);
    const startedAt = Date.now();
    // A response emits 'close' once it is over, after 'finish' when it was sent.
    res.once('close', () =>
      this.write(req as ServiceRequest, res.statusCode, res.writableFinished, Date.now() - startedAt),
    );
  }

  /** The caller's X-Request-Id when it is safe to echo, else a new one: on the request and the response. */
  identify(req: Request, res: Response): string {
    return ((req as ServiceRequest).id = requestIdFor(req, res));
  }

  /** The request's line: `finished` false when the response never finished (the client left). */
  write(request: ServiceRequest, statusCode: number, finished: boolean, responseTime: number): void {
    const query = request.originalUrl.indexOf('?');
    const url = query < 0 ? request.originalUrl : request.originalUrl.slice(0, query);
    const reqId = request.id;
    const line: Record<string, unknown> = {
      reqId,
      req: { id: reqId, method: request.method, url },
      res: { statusCode },
      responseTime,
    };
    const user = request.user;
    if (user) {
      line.clientId = user.clientId;
      line.tenantId = user.tenantId;
    }
    if (statusCode >= 500 || !finished) this.log.error(line, 'request errored');
    else if (statusCode >= 400) this.log.warn(line, 'request completed');
    else if (url.startsWith('/health/')) this.log.debug(line, 'request completed');
    else this.log.info(line, 'request completed');
  }
}
