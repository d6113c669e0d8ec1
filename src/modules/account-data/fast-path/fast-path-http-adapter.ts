/**
 * The seam of the cached balances fast path: Nest's Express adapter with the fast path ahead of
 * Express. createApp (app.factory.ts) builds the application on this adapter and, once it is
 * built, calls `install(app, edge)`; nothing else in the service names the fast path.
 *
 * Node's HTTP server hands each request to the fast path first (CachedBalancesFrontRoute), and
 * to Express (Nest's adapter middleware, the request edge, the body parsers, Nest's router) when
 * it does not answer. Why ahead of Express rather than as its first middleware: for a cached
 * balances read, Express's `app.handle` and router walk (a final handler per request, the
 * router's layer matching, Nest's two adapter layers) cost about a tenth of the whole answer
 * (docs/decisions.md, "Cached balances fast path").
 *
 * What the fast path still gets of Express: the request and response Express's middleware and
 * Nest's guards see (Express's prototypes, so `req.ip` honours `trust proxy`, and `res.locals`),
 * prepared here as `app.handle` prepares them. A request it hands on with an error goes to the
 * application's exception filter, as an error of a first middleware would. While the application
 * closes (Nest's `return503OnClosing`), every request goes to Express, which answers 503.
 *
 * createApp imports this module when it runs, not statically: it loads Express, which tracing
 * (common/tracing/register.ts) must hook before it loads.
 */
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import type { NestApplicationOptions } from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestEdge } from '../../../common/http/request-edge.js';
import { CachedBalancesFrontRoute } from './cached-balances.front-route.js';

/** Answers the request, or calls `next()` to leave it to the application (`next(error)`: its exception filter). */
export type FrontHandler = (req: Request, res: Response, next: NextFunction) => void;

/** An error the fast path handed on (`next(error)`), relayed into Express by the first middleware. */
const RELAYED_ERROR = Symbol('fastPath.error');

type Relaying = Request & { [RELAYED_ERROR]?: unknown };

export class FastPathHttpAdapter extends ExpressAdapter {
  private front: FrontHandler | undefined;
  private closing = false;

  /**
   * Once the application is built, before its first middleware is mounted: the relay of handed-on
   * errors as that first middleware, then the fast path itself, which does the edge's work with
   * the edge's parts for what it answers.
   */
  install(app: NestExpressApplication, edge: RequestEdge): void {
    app.use(relayErrors);
    this.front = app.get(CachedBalancesFrontRoute).handler(edge);
  }

  override beforeClose(): void {
    this.closing = true;
    super.beforeClose();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    super.initHttpServer(options);
    const server = this.getHttpServer();
    const app = this.getInstance<Express>();
    server.removeListener('request', app);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.dispatch(req, res, app));
  }

  private dispatch(incoming: IncomingMessage, outgoing: ServerResponse, app: Express): void {
    const front = this.front;
    if (front === undefined || this.closing) {
      app(incoming, outgoing);
      return;
    }
    // Express's application.handle and its router's first lines: the objects every middleware
    // and guard sees.
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    req.originalUrl ||= req.url;
    req.baseUrl = '';
    front(req, res, (error?: unknown) => {
      if (error !== undefined) (req as Relaying)[RELAYED_ERROR] = error;
      app(req, res);
    });
  }
}

/**
 * The application's first middleware: a request the fast path handed on with an error goes
 * straight to the application's exception filter; every other request goes on.
 */
function relayErrors(req: Request, _res: Response, next: NextFunction): void {
  const relaying = req as Relaying;
  if (!(RELAYED_ERROR in relaying)) return next();
  const error = relaying[RELAYED_ERROR];
  delete relaying[RELAYED_ERROR];
  next(error);
}
