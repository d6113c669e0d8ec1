/**
 * The fake servers' addresses for sources.e2e-spec.ts. The file's app is configured once with one
 * URL per kind of fake (Kraken, Esplora, Etherscan with its JSON-RPC, Solana JSON-RPC); each suite starts fakes of
 * its own, as when it had an app of its own, and points the relay of their kind at them in its
 * `beforeAll`. A relay forwards every request as it came (method, path, query, headers, body) to
 * the fake it points at and the answer back, so a fake sees the same requests (signatures
 * included) and starts each suite with its own state. One module instance per test file, so the
 * file and its suites share the relays.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class FakeRelay {
  private server?: Server;
  private target?: URL;
  /** The relay's base URL, once started: the file's app is configured with it. */
  url = '';

  constructor(private readonly kind: string) {}

  /** Listens on a free local port; answers its base URL. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const target = this.target;
      if (!target) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end(`no ${this.kind} fake: a suite points the relay at its own (FakeRelay.to)`);
        return;
      }
      const upstream = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`${this.kind} fake unreachable: ${error.message}`);
      });
      req.pipe(upstream);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Forwards to the fake at `url` (a suite's own) until pointed elsewhere. */
  to(url: string): void {
    this.target = new URL(url);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export const relays = {
  kraken: new FakeRelay('Kraken'),
  esplora: new FakeRelay('Esplora'),
  ethereum: new FakeRelay('Etherscan/JSON-RPC'),
  solana: new FakeRelay('Solana JSON-RPC'),
};
