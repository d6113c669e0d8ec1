/**
 * Nest's Express adapter with the application's front routes (front-route.ts) ahead of Express:
 * Node's HTTP server hands each request to the front routes first, and to Express (Nest's adapter
 * middleware, the request edge, the body parsers, Nest's router) when none answers it.
 *
 * Why ahead of Express rather than as its first middleware: for a cached balances read, Express's
 * `app.handle` and router walk (a final handler per request, the router's layer matching, Nest's
 * two adapter layers) cost about a tenth of the whole answer (docs/decisions.md, "Cached balances
 * fast path").
 *
 * What a front route still gets of Express: the request and response Express's middleware and
 * Nest's guards see (Express's prototypes, so `req.ip` honours `trust proxy`, and `res.locals`),
 * prepared here as `app.handle` prepares them. While the application closes (Nest's
 * `return503OnClosing`), every request goes to Express, which answers 503.
 *
 * createApp imports this module when it runs, not statically: it loads Express, which tracing
 * (common/tracing/register.ts) must hook before it loads.
 */
import { ExpressAdapter } from '@nestjs/platform-express';
import type { NestApplicationOptions } from '@nestjs/common';
import type { Express, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RELAYED_ERROR, type FrontRouteHandler, type Relaying } from './front-route.js';

export class ServiceHttpAdapter extends ExpressAdapter {
  private front: readonly FrontRouteHandler[] = [];
  private closing = false;

  /** The front routes, in order (createApp, once the application is built). */
  useFrontRoutes(handlers: readonly FrontRouteHandler[]): void {
    this.front = handlers;
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
    if (this.front.length === 0 || this.closing) {
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
    this.frontFrom(0, req, res, app);
  }

  /** Runs the front routes from `index` on; the first that calls `next` passes the request on. */
  private frontFrom(index: number, req: Request, res: Response, app: Express): void {
    const route = this.front[index];
    if (!route) {
      app(req, res);
      return;
    }
    route(req, res, (error?: unknown) => {
      if (error === undefined) return this.frontFrom(index + 1, req, res, app);
      (req as Relaying)[RELAYED_ERROR] = error;
      app(req, res);
    });
  }
}
