import { spawnSync } from 'node:child_process';
import { jest } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DataDirectoryLockedError,
  LOCK_FILE,
  lockDataDirectory,
  unlockDataDirectory,
} from './data-dir-lock.js';

describe('DATA_DIR lock', () => {
  let dir: string;
  let lockFile: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
    lockFile = join(dir, LOCK_FILE);
  });
  afterEach(() => {
    unlockDataDirectory(dir);
    rmSync(dir, { recursive: true, force: true });
  });

  const holder = (fields: { pid: number; startedAt?: string; host?: string; token?: string }) =>
    writeFileSync(
      lockFile,
      JSON.stringify({ startedAt: '', host: hostname(), token: 'someone-else', ...fields }),
    );
  /** A pid that existed a moment ago and is gone now. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

  it('is taken once per process, holds our pid, and is removed on release', () => {
    lockDataDirectory(dir);
    lockDataDirectory(dir); // already ours: no-op
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    unlockDataDirectory(dir);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('creates the directory it locks', () => {
    const nested = join(dir, 'a', 'b');
    lockDataDirectory(nested);
    expect(existsSync(join(nested, LOCK_FILE))).toBe(true);
    unlockDataDirectory(nested);
  });

  it('refuses while a live process holds it, in one sentence naming the directory and the pid', () => {
    holder({ pid: process.ppid });
    expect(() => lockDataDirectory(dir)).toThrow(
      new DataDirectoryLockedError(dir, { pid: process.ppid, host: hostname() }, lockFile),
    );
    expect(() => lockDataDirectory(dir)).toThrow(
      `DATA_DIR ${dir} is in use by another process (pid ${process.ppid}): stop it first, use the ` +
        "running service's admin API (/admin/accounts) instead, or run both against one PostgreSQL with DATABASE_URL.",
    );
    // The holder's lock is untouched.
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('takes over a lock whose holder is gone (killed, crashed)', () => {
    const pid = deadPid();
    holder({ pid });
    lockDataDirectory(dir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('takes over a lock left by an earlier process with our own pid (a restarted container)', () => {
    holder({ pid: process.pid, token: 'an-earlier-run' });
    lockDataDirectory(dir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).token).not.toBe('an-earlier-run');
  });

  (existsSync('/proc/self/stat') ? it : it.skip)(
    'takes over a lock whose pid now belongs to a process started at another time (pid reuse)',
    () => {
      holder({ pid: process.ppid, startedAt: '1' });
      lockDataDirectory(dir);
      expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    },
  );

  it('takes over a lock file it cannot read as a lock', () => {
    writeFileSync(lockFile, 'not json');
    lockDataDirectory(dir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('counts a holder on another host as alive while it renews the lock, and as gone 30 s after', () => {
    const pid = deadPid();
    holder({ pid, host: 'elsewhere' });
    expect(() => lockDataDirectory(dir)).toThrow(
      `DATA_DIR ${dir} is in use by a process on host elsewhere (pid ${pid}): stop it first`,
    );
    const lastRenewed = new Date(Date.now() - 31_000);
    utimesSync(lockFile, lastRenewed, lastRenewed);
    lockDataDirectory(dir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
  });

  it('renews the lock it holds (mtime), so another host sees it alive', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      lockDataDirectory(dir);
      const old = new Date(Date.now() - 60_000);
      utimesSync(lockFile, old, old);
      jest.advanceTimersByTime(10_000);
      expect(Date.now() - statSync(lockFile).mtimeMs).toBeLessThan(15_000);
    } finally {
      jest.useRealTimers();
    }
  });

  it('never removes a lock that another process took over', () => {
    lockDataDirectory(dir);
    holder({ pid: process.ppid, token: 'taken-over' });
    unlockDataDirectory(dir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ token: 'taken-over' });
  });
});
