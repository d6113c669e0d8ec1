import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Level } from 'pino';
import type { ServiceRequest } from '../http/request-context.js';

/** Where request lines are written (logging.module.ts, requestLines: a RenderedLines). */
export interface LineWriter {
  enabled(level: Level): boolean;
  /** One line: `properties` the object's members, each preceded by a comma; `msg` the message. */
  write(level: Level, properties: string, msg: string): void;
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
 * first; a handler ahead of the edge that answers by itself writes it right after its answer, `write`):
 *
 *   {"level":"info",…,"reqId":"…","req":{"id","method","url"},"res":{"statusCode"},
 *    "responseTime":3,"clientId":"…","tenantId":"…","msg":"request completed"}
 *
 * An error answer's line also has `"problem":{"detail","reason"}`, what the client was told
 * (set by the exception filter).
 *
 * The same fields and messages as pino-http with this service's serializers, rendered here and
 * written through one logger made at start-up (requestLines, which writes a turn's lines at once):
 * no child logger per request (pino-http made three to four), no object walk by pino, and no
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
    const level: Level =
      statusCode >= 500 || !finished
        ? 'error'
        : statusCode >= 400
          ? 'warn'
          : url.startsWith('/health/')
            ? 'debug'
            : 'info';
    if (!this.log.enabled(level)) return;
    // The object pino would write, rendered here (RenderedLines): {reqId, req: {id, method, url},
    // res: {statusCode}, responseTime, clientId, tenantId}, members that are undefined left out.
    const reqId = jsonOf(request.id);
    const user = request.user;
    const properties =
      (reqId === undefined ? '' : `,"reqId":${reqId}`) +
      `,"req":{${reqId === undefined ? '' : `"id":${reqId},`}"method":${JSON.stringify(request.method)},"url":${JSON.stringify(url)}}` +
      `,"res":{"statusCode":${statusCode}},"responseTime":${Number.isFinite(responseTime) ? responseTime : null}` +
      (user ? member('clientId', user.clientId) + member('tenantId', user.tenantId) : '') +
      // An error answer's detail (and reason), as the client read it: why this 4xx or 5xx.
      (statusCode >= 400 && request.problem ? member('problem', request.problem) : '');
    this.log.write(level, properties, level === 'error' ? 'request errored' : 'request completed');
  }
}

/** A value as JSON, undefined when pino would leave the member out. */
function jsonOf(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

function member(key: string, value: unknown): string {
  const json = jsonOf(value);
  return json === undefined ? '' : `,"${key}":${json}`;
}
