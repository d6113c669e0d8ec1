/**
 * Who can still hold a refresh lease (docs/decisions.md, "A refresh lease whose holder is gone").
 *
 * A lease's owner is an instance token, `host:pid:random` (optionally `/<part>`, e.g. the sandbox
 * seed's `…/seed`): the instance is the process. A lease whose instance is gone (its process died:
 * kill -9, a crash, an OOM kill) is taken over at once, not when it lapses 5 minutes later:
 *
 * - **PGlite** is embedded: one process per data directory (data-dir-lock.ts). Every instance but
 *   this process's own is gone.
 * - **PostgreSQL**: each process keeps one session of its own that holds a session-level advisory
 *   lock on its instance token (`pg_advisory_lock(LEASE_HOLDER_LOCK_SPACE, hashtext(token))`). The
 *   database drops the lock when the session ends: at once when the process dies (its socket is
 *   closed), within about a minute when its machine vanishes (the session's TCP keepalives). A
 *   claim asks with `pg_try_advisory_xact_lock` on the same key: granted means nobody holds it,
 *   the holder is gone. A hash collision with a live token only ever answers "alive" (the lease
 *   then lapses as before), never "gone".
 *
 * The lease's expiry stays the outer bound (a holder whose liveness is unknowable: a pooler in
 * transaction mode, a session the network has cut without either side noticing). A holder wrongly
 * taken for gone (its session dropped while the process lives) writes nothing: the write
 * checks, under the account's row lock, that it still holds the lease (HistoryWriter.persist).
 *
 * The session is opened on first use (the CLI opens nothing before a command runs), and again
 * after it drops, with its lock taken again.
 */
import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import { AppConfig } from '../../../config/app-config.js';
import { OPEN_DATABASE_ON_DEMAND } from '../../../database/database.module.js';

/** The first key of the two-key advisory lock space of lease holders ("LEAS"); any fixed int4. */
export const LEASE_HOLDER_LOCK_SPACE = 0x4c454153;

/**
 * The SQL of "the holder of this row's lease is gone", for a claim's WHERE: `$live` is the
 * parameter with this process's instance tokens (never gone, whatever the database says), the
 * rest asks the database whether any session holds the instance's lock (always granted on PGlite,
 * which has one session: there, not being this process's is being gone).
 */
export function holderGone(live: string): string {
  const instance = `split_part(refresh_lease_owner, '/', 1)`;
  return `(${instance} <> ALL(${live}::text[])
    AND pg_try_advisory_xact_lock(${LEASE_HOLDER_LOCK_SPACE}, hashtext(${instance})))`;
}

/** How long to wait before opening a dropped session again (doubling up to the maximum). */
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

@Injectable()
export class LeaseHolders implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LeaseHolders.name);
  /** This process's instance token: the owner of every lease it takes. */
  readonly instance = `${hostname().slice(0, 32)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly held = new Set<string>([this.instance]);
  private session: pg.Client | null = null;
  private opening: Promise<void> | null = null;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectMs = RECONNECT_MIN_MS;
  private closed = false;

  constructor(
    private readonly config: AppConfig,
    /** The CLI: nothing is opened before a command runs (its first lease opens the session). */
    @Optional() @Inject(OPEN_DATABASE_ON_DEMAND) private readonly onDemand?: boolean,
  ) {}

  /** The instance tokens this process holds: the `$live` of holderGone. */
  live(): string[] {
    return [...this.held];
  }

  /** Opens the session at start-up, so other instances see this one alive before it leases. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.onDemand) await this.ready();
  }

  /**
   * Resolves once the instance's lock is held (PostgreSQL), at once on PGlite. Never rejects: a
   * session that cannot be opened is logged and retried in the background (with a backoff, never
   * by the callers: a claim does not wait for it), and meanwhile this instance's leases rely on
   * their expiry and on the write's own check.
   */
  async ready(): Promise<void> {
    if (this.config.usesEmbeddedDatabase || this.closed || this.session || this.reconnectTimer) return;
    this.opening ??= this.open().finally(() => (this.opening = null));
    await this.opening;
  }

  /**
   * Holds another instance token as alive, from this process (tests: "another instance" holding a
   * lease, on PGlite as on PostgreSQL). `release` lets it go: it is then gone.
   */
  async hold(instance: string): Promise<void> {
    this.held.add(instance);
    await this.ready();
    if (this.session) await this.lock(this.session, instance);
  }

  async release(instance: string): Promise<void> {
    if (instance === this.instance || !this.held.delete(instance)) return;
    await this.session
      ?.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LEASE_HOLDER_LOCK_SPACE, instance])
      .catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    await this.opening?.catch(() => undefined);
    const session = this.session;
    this.session = null;
    await session?.end().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const session = new pg.Client({
      connectionString: this.config.DATABASE_URL,
      connectionTimeoutMillis: this.config.DATABASE_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    session.on('error', (error) => this.dropped(session, error));
    session.on('end', () => this.dropped(session));
    try {
      await session.connect();
      // The server notices a vanished client machine by its own keepalives (about a minute here,
      // not the operating system's two hours); never closed for idling. Settable by any role.
      for (const setting of [
        'SET tcp_keepalives_idle = 30',
        'SET tcp_keepalives_interval = 10',
        'SET tcp_keepalives_count = 3',
        'SET idle_session_timeout = 0',
      ])
        await session.query(setting).catch(() => undefined);
      for (const instance of this.held) await this.lock(session, instance);
      if (this.closed) {
        await session.end().catch(() => undefined);
        return;
      }
      this.session = session;
      this.reconnectMs = RECONNECT_MIN_MS;
    } catch (error) {
      session.removeAllListeners('end');
      await session.end().catch(() => undefined);
      this.logger.warn(
        `The lease holder session could not be opened (${error instanceof Error ? error.message : String(error)}); this instance's refresh leases rely on their expiry until it is. Retrying.`,
      );
      this.scheduleReconnect();
    }
  }

  /**
   * Takes the instance's lock without waiting: when another session holds the key (a hash
   * collision with a live instance), the instance counts as alive all the same, and waiting
   * would hang the start-up.
   */
  private async lock(session: pg.Client, instance: string): Promise<void> {
    const { rows } = await session.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
      [LEASE_HOLDER_LOCK_SPACE, instance],
    );
    if (!rows[0]?.locked)
      this.logger.warn(`Another session holds the lease holder lock of ${instance} (the same hash).`);
  }

  /** The session ended: the lock went with it. Open it again (other instances may take over meanwhile). */
  private dropped(session: pg.Client, error?: Error): void {
    if (this.session !== session) return;
    this.session = null;
    if (this.closed) return;
    this.logger.warn(
      `The lease holder session ended${error ? ` (${error.message})` : ''}: other instances may take over this instance's refresh leases until it is open again.`,
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectMs;
    this.reconnectMs = Math.min(RECONNECT_MAX_MS, this.reconnectMs * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.ready();
    }, delay);
    // (ready() returns at once meanwhile: claims go on, relying on the expiry.)
    this.reconnectTimer.unref();
  }
}
