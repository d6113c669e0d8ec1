import type { Express, Request, Response } from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FastPathHttpAdapter } from './fast-path-http-adapter.js';

/**
 * The HTTP server the adapter makes: Node constructs each request and response with Express's
 * prototypes, and a request the fast path leaves (none is installed here) reaches Express with
 * everything Express gives a handler.
 */
describe('FastPathHttpAdapter server', () => {
  let server: Server;
  let app: Express;
  let seen: { req: Request; res: Response } | undefined;
  /** The prototypes as Node's server hands the objects over, before anything of Express ran. */
  let atArrival: { req: object; res: object } | undefined;

  beforeAll(async () => {
    const adapter = new FastPathHttpAdapter();
    adapter.initHttpServer({});
    app = adapter.getInstance<Express>();
    app.set('trust proxy', 'loopback');
    app.get('/probe', (req, res) => {
      seen = { req, res };
      res.locals.answered = true;
      res.status(201).json({ ip: req.ip, host: req.hostname, accept: req.get('accept') });
    });
    server = adapter.getHttpServer() as Server;
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      atArrival = { req: Object.getPrototypeOf(req) as object, res: Object.getPrototypeOf(res) as object };
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('constructs requests and responses whose prototypes are Express’s from the start', async () => {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/probe`, {
      headers: { accept: 'application/json', 'x-forwarded-for': '203.0.113.7' },
    });
    expect(answer.status).toBe(201);
    // trust proxy, req.get and res.status/json: Express's request and response methods work.
    expect(await answer.json()).toEqual({ ip: '203.0.113.7', host: '127.0.0.1', accept: 'application/json' });
    expect(atArrival!.res).toBe(app.response);
    expect(atArrival!.req).toBe(app.request);
    expect(Object.getPrototypeOf(seen!.req)).toBe(app.request);
    expect(Object.getPrototypeOf(seen!.res)).toBe(app.response);
    expect(seen!.req).toBeInstanceOf(IncomingMessage);
    expect(seen!.res).toBeInstanceOf(ServerResponse);
    expect(seen!.res.locals.answered).toBe(true);
  });

  it('answers an unknown path with Express’s 404', async () => {
    const { port } = server.address() as AddressInfo;
    expect((await fetch(`http://127.0.0.1:${port}/nowhere`)).status).toBe(404);
  });
});
