/**
 * One process per embedded data directory. PGlite runs Postgres inside the process and keeps the
 * database in memory, writing files as it goes: two processes on one directory each work on their
 * own copy and overwrite each other's files, so writes are lost (a CLI command beside the running
 * service "succeeded" and the service never saw it). Whoever opens a PGlite directory first holds
 * `<DATA_DIR>/pglite.lock` for the life of the process; everyone else is refused.
 *
 * Node has no OS-level file lock (flock) without a native dependency, so this is a lock file:
 * - created atomically and complete (written to a private file, then hard-linked into place,
 *   which fails if the lock exists), holding the holder's pid, its start time and a random token;
 * - stale when its holder is gone (SIGKILL, power loss): the pid no longer exists, the pid now
 *   belongs to a process started at another time (pid reuse), or it is this very pid (a
 *   restarted container's pid 1) under a token this process never wrote. A stale lock is moved
 *   aside by rename, which only one contender can do, and taken over;
 * - removed when the process exits (or when its database is closed), if it is still ours.
 * - renewed by its holder every 10 s (mtime). A holder on another host (a volume that outlives
 *   its container, whose hostname changes when it is recreated; a network filesystem) cannot be
 *   checked by pid: its lock counts as held while renewed, and as stale 30 s after it last was.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'pglite.lock';

/** How often a holder renews its lock, and after how long without renewal another host's lock is stale. */
const RENEW_EVERY_MS = 10_000;
const FOREIGN_STALE_AFTER_MS = 30_000;

/** Exit status of a process refused a data directory: EX_TEMPFAIL, try again once it is free. */
export const DATA_DIR_LOCKED_EXIT_CODE = 75;

export class DataDirectoryLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly holder: { pid: number; host: string } | undefined,
    readonly lockFile: string,
  ) {
    const who = !holder
      ? 'another process'
      : holder.host === hostname()
        ? `another process (pid ${holder.pid})`
        : `a process on host ${holder.host} (pid ${holder.pid})`;
    super(
      `DATA_DIR ${directory} is in use by ${who}: stop it first, use the running service's admin ` +
        'API (/admin/accounts) instead, or run both against one PostgreSQL with DATABASE_URL.',
    );
    this.name = 'DataDirectoryLockedError';
  }
}

interface Holder {
  pid: number;
  startedAt: string;
  host: string;
  token: string;
  /** When the holder last renewed the lock (file mtime); 0 when not read from a file. */
  renewedAt: number;
}

/** Lock files this process holds, by path, with the token written into each. */
const held = new Map<string, string>();
let releaseOnExit = false;
let renewal: NodeJS.Timeout | undefined;

/**
 * Takes the lock on `directory` (created if missing) for this process, or throws
 * DataDirectoryLockedError. Taking a lock this process already holds is a no-op.
 */
export function lockDataDirectory(directory: string): void {
  const dir = resolve(directory);
  const file = join(dir, LOCK_FILE);
  if (held.has(file)) return;
  mkdirSync(dir, { recursive: true });
  const me: Holder = {
    pid: process.pid,
    startedAt: startTimeOf(process.pid) ?? '',
    host: hostname(),
    token: randomUUID(),
    renewedAt: 0,
  };
  const content = JSON.stringify({ pid: me.pid, startedAt: me.startedAt, host: me.host, token: me.token });
  // Each round either takes the lock, finds a live holder, or clears one stale lock; a few rounds
  // cover a lock released or taken over by another contender meanwhile.
  for (let round = 0; round < 5; round++) {
    if (createExclusive(file, content)) {
      held.set(file, me.token);
      if (!releaseOnExit) {
        releaseOnExit = true;
        process.once('exit', () => {
          for (const path of [...held.keys()]) releaseLock(path);
        });
      }
      renewal ??= setInterval(renewLocks, RENEW_EVERY_MS).unref();
      return;
    }
    const holder = readHolder(file);
    if (holder === null) continue; // released meanwhile
    if (holder !== undefined && isAlive(holder))
      throw new DataDirectoryLockedError(dir, { pid: holder.pid, host: holder.host }, file);
    clearStale(file, holder);
  }
  throw new DataDirectoryLockedError(dir, undefined, file);
}

/**
 * Takes this process's exclusive lock on the embedded data directory, or throws
 * DataDirectoryLockedError; nothing to lock with DATABASE_URL or in memory. Opening the database
 * takes it anyway; entry points call this first to refuse with one sentence before doing anything
 * (before they load the application).
 */
export function lockEmbeddedDataDirectory(config: { DATABASE_URL?: string; DATA_DIR: string }): void {
  if (!config.DATABASE_URL && config.DATA_DIR !== 'memory') lockDataDirectory(config.DATA_DIR);
}

/** Releases this process's lock on `directory`, if it holds it (when its database is closed). */
export function unlockDataDirectory(directory: string): void {
  releaseLock(join(resolve(directory), LOCK_FILE));
}

function releaseLock(file: string): void {
  const token = held.get(file);
  if (token === undefined) return;
  held.delete(file);
  if (held.size === 0 && renewal) {
    clearInterval(renewal);
    renewal = undefined;
  }
  try {
    // Never delete a lock that is no longer ours (taken over after being judged stale).
    if (readHolder(file)?.token === token) unlinkSync(file);
  } catch {
    /* already gone */
  }
}

function renewLocks(): void {
  const now = new Date();
  for (const file of held.keys()) {
    try {
      utimesSync(file, now, now);
    } catch {
      /* gone (deleted by hand): the next contender simply takes it */
    }
  }
}

/** Creates `file` with `content` unless it exists; the file never appears half-written. */
function createExclusive(file: string, content: string): boolean {
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  writeFileSync(draft, content, { mode: 0o644 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

/** The lock's holder; null when there is no lock file, undefined when it is not ours to read. */
function readHolder(file: string): Holder | null | undefined {
  let text: string;
  let renewedAt: number;
  try {
    renewedAt = statSync(file).mtimeMs;
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    if (Number.isSafeInteger(parsed.pid) && typeof parsed.token === 'string') {
      return {
        pid: parsed.pid!,
        startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : '',
        host: typeof parsed.host === 'string' ? parsed.host : hostname(),
        token: parsed.token,
        renewedAt,
      };
    }
  } catch {
    /* not a lock this code wrote: treated as stale below */
  }
  return undefined;
}

function isAlive(holder: Holder): boolean {
  if (holder.host !== hostname()) return Date.now() - holder.renewedAt < FOREIGN_STALE_AFTER_MS;
  if (holder.pid === process.pid) return false; // an earlier process with our pid (not in `held`)
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false; // ESRCH: no such process
  }
  // The pid exists; if it was started at another time than the holder, the pid was reused.
  const startedAt = holder.startedAt && startTimeOf(holder.pid);
  return !startedAt || startedAt === holder.startedAt;
}

/**
 * Moves a stale lock aside and deletes it. Rename is atomic, so of several processes clearing the
 * same stale lock one moves it; if what was moved is not the stale lock any more (another
 * contender took over meanwhile), it is put back.
 */
function clearStale(file: string, stale: Holder | undefined): void {
  const aside = `${file}.stale.${process.pid}.${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = readHolder(aside);
    if (moved && moved.token !== stale?.token) {
      try {
        linkSync(aside, file);
      } catch {
        /* a third process holds it now; the round will find it */
      }
    }
  } finally {
    unlinkSync(aside);
  }
}

/** When a process started (Linux: /proc/<pid>/stat field 22, in clock ticks since boot). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start with field 3, the state.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
