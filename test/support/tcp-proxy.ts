import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of Postgres that a test can break: `refuse()` closes every connection and
 * refuses new ones (Postgres down), `blackhole()` accepts but never answers (network partition),
 * `stall()` freezes the open connections as they are and lets new ones hang (a partition that
 * the client only notices by its own timeouts), `heal()` forwards again. The shared Postgres
 * server itself is never touched.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private mode: 'forward' | 'blackhole' = 'forward';
  /** Open client ⇄ upstream pairs, so stall() can freeze them and heal() resume them. */
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  private stalled: { client: Socket; upstream: Socket }[] = [];
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
    const pair = { client, upstream };
    this.pairs.add(pair);
    client.on('close', () => {
      this.pairs.delete(pair);
      upstream.destroy();
    });
    client.pipe(upstream).pipe(client);
  }

  private dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.pairs.clear();
    this.stalled = [];
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

  /**
   * Open connections stop moving bytes in both directions but stay open (nothing is reset); new
   * connections are accepted and never answered. See heal() for what becomes of the frozen ones.
   */
  stall(): void {
    this.mode = 'blackhole';
    for (const pair of this.pairs) {
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
      pair.client.pause();
      pair.upstream.pause();
      this.stalled.push(pair);
    }
  }

  /**
   * Forward again (restarting the listener on the same port after refuse()). Connections frozen
   * by stall(): `resume` (default) lets them go on where they stopped, `reset` closes them (the
   * peer lost their state), `keep` leaves them frozen for good while new connections work (a
   * failover behind the same address: only the client's own timeouts can tell).
   */
  async heal(options: { stalled?: 'resume' | 'reset' | 'keep' } = {}): Promise<void> {
    this.mode = 'forward';
    const stalled = options.stalled ?? 'resume';
    if (stalled !== 'keep') {
      for (const pair of this.stalled.splice(0)) {
        if (pair.client.destroyed || pair.upstream.destroyed) continue;
        if (stalled === 'reset') {
          pair.client.destroy();
          pair.upstream.destroy();
        } else {
          pair.client.pipe(pair.upstream);
          pair.upstream.pipe(pair.client);
        }
      }
    }
    if (!this.server?.listening) await this.start(this.port);
  }

  async stop(): Promise<void> {
    this.dropAll();
    if (this.server?.listening) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
