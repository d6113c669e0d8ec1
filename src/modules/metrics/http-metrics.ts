import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram } from 'prom-client';
import { METRIC_PREFIX, MetricsRegistry } from './metrics.registry.js';
import { routeTemplateOf } from './route-label.js';

/**
 * Latency buckets, in seconds: from the cached reads (well under a millisecond to a few ms) to
 * simulations and large reports (seconds).
 */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const STARTED_AT = Symbol('metrics.startedAt');

type Timed = Response & { [STARTED_AT]: number };

interface Series {
  readonly requests: { inc(): void };
  readonly duration: { observe(seconds: number): void };
}

/**
 * HTTP requests by route template and status, and latency by route.
 *
 * The `route` label is the template Express matched (`/v1/api/account/:accountId/balances`),
 * never the URL: ids, query strings and unknown paths never become label values, so the number of
 * series is bounded by the routes × methods × status codes the service answers.
 *
 * Per request: one timestamp, one 'close' listener, and at the end one counter increment and one
 * histogram observation on cached label children (prom-client's label hashing runs once per
 * series, not per request). The cached balances fast path is counted by the same listener (the
 * middleware runs before it) under the route's template (labelRoute).
 */
@Injectable()
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly series = new Map<string, Series>();
  private readonly durations = new Map<string, Series['duration']>();

  constructor(metrics: MetricsRegistry) {
    this.requests = new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route template and status code (aborted: the client left first).',
      labelNames: ['method', 'route', 'status'],
      registers: [metrics.registry],
    });
    this.duration = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from the request reaching the application to the last byte of the response, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: HTTP_DURATION_BUCKETS,
      registers: [metrics.registry],
    });
  }

  /** The Express middleware that times every request; registered first (app.factory.ts). */
  middleware(): (req: Request, res: Response, next: NextFunction) => void {
    const record = (res: Timed) => {
      const seconds = (performance.now() - res[STARTED_AT]) / 1000;
      const req = res.req;
      const series = this.seriesOf(
        req.method,
        routeTemplateOf(req),
        res.writableFinished ? res.statusCode : 'aborted',
      );
      series.requests.inc();
      series.duration.observe(seconds);
    };
    // One shared listener function (no closure per request); `this` is the response.
    function onClose(this: Timed): void {
      record(this);
    }
    return (_req, res, next) => {
      (res as Timed)[STARTED_AT] = performance.now();
      res.on('close', onClose); // emitted once; `on` spares `once`'s wrapper
      next();
    };
  }

  /** The label children of one method, route and status, made once (label hashing is not free). */
  private seriesOf(method: string, route: string, status: number | string): Series {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      const routeKey = `${method} ${route}`;
      let duration = this.durations.get(routeKey);
      if (!duration) this.durations.set(routeKey, (duration = this.duration.labels(method, route)));
      series = { requests: this.requests.labels(method, route, String(status)), duration };
      this.series.set(key, series);
    }
    return series;
  }
}
