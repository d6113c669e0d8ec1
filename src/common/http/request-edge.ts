/**
 * The request edge: what every request passes through before the application routes it, in this
 * order: timing (the HTTP metrics), the request id and its log line, the security headers.
 *
 * app.factory.ts mounts `enter` as one middleware ahead of the body parsers and Nest's routes, so
 * even a body the parser rejects or an unknown path is timed, named in a line and carries the
 * headers. A handler mounted ahead of the edge (by the HTTP adapter) that answers a request by itself
 * and does the edge's work itself with the same parts (`answering` before its answer, `answered`
 * after it), or hands the request on to the application through `enter`.
 */
import type { NextFunction, Request, Response } from 'express';
import type { RequestLog } from '../logging/request-log.js';
import type { ServiceRequest } from './request-context.js';
import { setApiHeaders, type HeaderSteps, type SecurityHeaders } from './security-headers.js';

/** The HTTP metrics, as the edge uses them (HttpMetrics). */
export interface HttpTiming {
  /** Times the request until its response is over ('close'), then counts it. */
  track(res: Response): void;
  /** One answered request, counted under its route template. */
  observe(method: string, route: string, status: number | 'aborted', seconds: number): void;
}

export class RequestEdge {
  /** The API answers' security headers when they are fixed (see `answersDirectly`). */
  private readonly apiHeaders: HeaderSteps | undefined;

  constructor(
    private readonly timing: HttpTiming,
    private readonly log: RequestLog,
    private readonly headers: SecurityHeaders,
  ) {
    this.apiHeaders = headers.apiHeaders;
  }

  /** The edge as a middleware: every request the application routes goes through it first. */
  readonly enter = (req: Request, res: Response, next: NextFunction): void => {
    this.timing.track(res);
    this.log.begin(req, res);
    this.headers.apply(req, res, next);
  };

  /**
   * Whether a handler ahead of the edge may answer API requests by itself: the API answers' security headers do
   * not depend on the request (helmet's configuration was recorded at start-up).
   */
  get answersDirectly(): boolean {
    return this.apiHeaders !== undefined;
  }

  /**
   * Before such a handler's own answer to an API request: the request id and the security headers
   * `enter` gives. Returns the time `answered` measures from.
   */
  answering(req: Request, res: Response): number {
    const startedAt = performance.now();
    this.log.identify(req, res);
    setApiHeaders(res, this.apiHeaders!);
    return startedAt;
  }

  /**
   * After it (the response ended): what the edge's 'close' listeners would record, at once: the
   * metrics under `route` (a template, never the URL) and the request's log line.
   */
  answered(req: Request, res: Response, route: string, startedAt: number): void {
    const elapsed = performance.now() - startedAt;
    const finished = !res.destroyed;
    this.timing.observe(req.method, route, finished ? res.statusCode : 'aborted', elapsed / 1000);
    this.log.write(req as ServiceRequest, res.statusCode, finished, Math.trunc(elapsed));
  }
}
