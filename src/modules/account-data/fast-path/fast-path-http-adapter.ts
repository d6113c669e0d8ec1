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
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
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
    const app = this.getInstance<Express>();
    let server = this.getHttpServer() as ReturnType<typeof createServer>;
    if (!options.httpsOptions && !options.forceCloseConnections) {
      // The server Nest made, with Express's request and response as the classes Node constructs,
      // in place of the one it made (not listening yet; nothing else holds it).
      server = createServer({
        IncomingMessage: expressRequestClass(app),
        ServerResponse: expressResponseClass(app),
      });
      this.setHttpServer(server);
    } else {
      server.removeListener('request', app);
    }
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
    // Already Express's when the server constructed them (expressRequestClass); else as app.handle does.
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
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
 * Node's request class for the server, whose instances are born with Express's request prototype
 * (`app.request`: Express's methods over IncomingMessage's), instead of being IncomingMessages
 * whose prototype Express's `app.handle` replaces on every request. Replacing an object's
 * prototype is one of V8's slow paths: measured at ~3 µs for the request and response together,
 * beside ~1.3 µs to construct both, and it changes the objects' shape mid-life, so code that saw
 * them before (Node's HTTP parser callbacks) and after (Express, the guards) sees two shapes.
 * `app.handle` still sets the prototype, now to the one the object has, which V8 returns from at
 * once. `instanceof IncomingMessage` holds (app.request's chain ends in IncomingMessage.prototype).
 */
function expressRequestClass(app: Express): typeof IncomingMessage {
  function ExpressRequest(this: unknown, ...args: ConstructorParameters<typeof IncomingMessage>) {
    return Reflect.construct(IncomingMessage, args, ExpressRequest) as IncomingMessage;
  }
  ExpressRequest.prototype = app.request;
  return ExpressRequest as unknown as typeof IncomingMessage;
}

/** The same for the response (`app.response`, Express's methods over ServerResponse's). */
function expressResponseClass(app: Express): typeof ServerResponse {
  function ExpressResponse(this: unknown, ...args: ConstructorParameters<typeof ServerResponse>) {
    return Reflect.construct(ServerResponse, args, ExpressResponse) as ServerResponse;
  }
  ExpressResponse.prototype = app.response;
  return ExpressResponse as unknown as typeof ServerResponse;
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
