import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of Postgres that a test can break: `refuse()` closes every connection and
 * refuses new ones (Postgres down), `blackhole()` accepts but never answers (network partition),
 * `heal()` forwards again. The shared Postgres server itself is never touched.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private mode: 'forward' | 'blackhole' = 'forward';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => undefined);
    if (this.mode === 'blackhole') return; // hold the socket, say nothing
    const upstream = createConnection(this.targetPort, this.targetHost);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  }

  private dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Postgres is down: existing connections die, new ones are refused. */
  async refuse(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** Connections die and new ones hang unanswered. */
  blackhole(): void {
    this.mode = 'blackhole';
    this.dropAll();
  }

  /** Forward again (restarting the listener on the same port after refuse()). */
  async heal(): Promise<void> {
    this.mode = 'forward';
    if (!this.server?.listening) await this.start(this.port);
  }

  async stop(): Promise<void> {
    this.dropAll();
    if (this.server?.listening) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
