import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Counter, type Metric } from 'prom-client';
import { METRIC_PREFIX, MetricsRegistry } from './metrics.registry.js';
import { routeTemplateOf } from './route-label.js';

/**
 * Latency buckets, in seconds: from the cached reads (well under a millisecond to a few ms) to
 * simulations and large reports (seconds).
 */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const STARTED_AT = Symbol('metrics.startedAt');

type Timed = Response & { [STARTED_AT]: number };

/** One (method, route): latency observations, bucketed as they arrive. */
class LatencySeries {
  /** Per bucket, not cumulative; the last one counts what is above the largest bound. */
  readonly perBucket = new Float64Array(HTTP_DURATION_BUCKETS.length + 1);
  sum = 0;
  count = 0;

  constructor(readonly labels: { readonly method: string; readonly route: string }) {}

  observe(seconds: number): void {
    let i = 0;
    while (i < HTTP_DURATION_BUCKETS.length && seconds > HTTP_DURATION_BUCKETS[i]!) i++;
    this.perBucket[i]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/** One (method, route, status): a count, and the latency series of its route. */
interface StatusSeries {
  readonly labels: { readonly method: string; readonly route: string; readonly status: string };
  readonly latency: LatencySeries;
  count: number;
}

/**
 * HTTP requests by route template and status, and latency by route.
 *
 * The `route` label is the template Express matched (`/v1/api/account/:accountId/balances`),
 * never the URL: ids, query strings and unknown paths never become label values, so the number of
 * series is bounded by the routes × methods × status codes the service answers.
 *
 * Per request: one timestamp, one 'close' listener, and at the end one count and one bucketed
 * observation on plain numbers of the request's series (a map lookup). prom-client's own
 * `inc`/`observe` hash and validate the labels on every call (~1 µs each on this machine, more
 * than the rest of a cached balances answer's metrics work together), so the figures are kept
 * here and handed to the registry when Prometheus scrapes. A request answered ahead of the
 * request edge is counted with `observe`, under its route's template.
 */
@Injectable()
export class HttpMetrics {
  private readonly byRoute = new Map<string, Map<string, Map<number | string, StatusSeries>>>();
  private readonly series: StatusSeries[] = [];
  private readonly latencies = new Map<string, LatencySeries>();

  constructor(metrics: MetricsRegistry) {
    const series = this.series;
    new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route template and status code (aborted: the client left first).',
      labelNames: ['method', 'route', 'status'],
      registers: [metrics.registry],
      collect() {
        this.reset();
        for (const { labels, count } of series) this.inc(labels, count);
      },
    });
    metrics.registry.registerMetric(
      histogramOf(
        `${METRIC_PREFIX}http_request_duration_seconds`,
        'Time from the request reaching the application to the last byte of the response, by method and route template.',
        this.latencies,
      ),
    );
  }

  /**
   * Times a request from now until its response is over ('close'), then counts it under its route
   * template and status: the request edge (request-edge.ts) calls it first for every request.
   */
  readonly track = (() => {
    const record = (res: Timed) => {
      const req = res.req;
      this.observe(
        req.method,
        routeTemplateOf(req),
        res.writableFinished ? res.statusCode : 'aborted',
        (performance.now() - res[STARTED_AT]) / 1000,
      );
    };
    // One shared listener function (no closure per request); `this` is the response.
    function onClose(this: Timed): void {
      record(this);
    }
    return (res: Response): void => {
      (res as Timed)[STARTED_AT] = performance.now();
      res.on('close', onClose); // emitted once; `on` spares `once`'s wrapper
    };
  })();

  /**
   * One answered request: the count of its (method, route, status) and its latency. A handler
   * ahead of the request edge that answers by itself calls it right after its answer (`aborted` when the client had left).
   */
  observe(method: string, route: string, status: number | 'aborted', seconds: number): void {
    const series = this.seriesOf(method, route, status);
    series.count += 1;
    series.latency.observe(seconds);
  }

  /**
   * Nested maps rather than one map keyed by "method route status": building that key string
   * (and hashing it, new each time) cost ~0.7 µs a request; the route template, the method (one
   * of Node's interned names) and the numeric status hash once.
   */
  private seriesOf(method: string, route: string, status: number | string): StatusSeries {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      const routeKey = `${method} ${route}`;
      let latency = this.latencies.get(routeKey);
      if (!latency) this.latencies.set(routeKey, (latency = new LatencySeries({ method, route })));
      series = { labels: { method, route, status: String(status) }, latency, count: 0 };
      byStatus.set(status, series);
      this.series.push(series);
    }
    return series;
  }
}

/**
 * The latency series as a prom-client metric (the shape its Histogram hands the registry:
 * cumulative `_bucket` samples with `le`, then `_sum` and `_count`), read at scrape time.
 */
function histogramOf(name: string, help: string, latencies: ReadonlyMap<string, LatencySeries>): Metric {
  const get = async () => {
    const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
    for (const series of latencies.values()) {
      let cumulative = 0;
      HTTP_DURATION_BUCKETS.forEach((le, i) => {
        cumulative += series.perBucket[i]!;
        values.push({ value: cumulative, labels: { ...series.labels, le }, metricName: `${name}_bucket` });
      });
      values.push({
        value: series.count,
        labels: { ...series.labels, le: '+Inf' },
        metricName: `${name}_bucket`,
      });
      values.push({ value: series.sum, labels: series.labels, metricName: `${name}_sum` });
      values.push({ value: series.count, labels: series.labels, metricName: `${name}_count` });
    }
    return { name, help, type: 'histogram', values, aggregator: 'sum' };
  };
  // The registry calls get() (exposition) and reset() (resetMetrics); nothing else of a Metric.
  return {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get,
    reset: () => undefined,
  } as unknown as Metric;
}
