import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestSchema, usingPostgres } from './test-database.js';

/** Runs the built service (dist/, built by `pretest`) as a real process, for shutdown and CLI tests. */
export const DIST_MAIN = resolve('dist/src/main.js');
export const DIST_CLI = resolve('dist/src/cli.js');

export function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * A free port below the kernel's ephemeral range (32768-60999 on Linux). A port from freePort()
 * comes from that range and is released before the child binds it, so a `listen(0)` elsewhere
 * (supertest binds one per request in parallel suites) can take it meanwhile: the child then
 * fails to bind and startService sees another server's readiness. Nothing picks these ports
 * implicitly.
 */
export async function freeFixedPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((done) => {
      const server = createServer()
        .once('error', () => done(false))
        .listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
    if (free) return port;
  }
  return freePort();
}

export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cass-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Database settings for a child process: a private Postgres schema, or a temporary PGlite dir. */
export async function databaseEnv(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (usingPostgres()) {
    const schema = await createTestSchema();
    return {
      env: { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_SCHEMA: schema.schema },
      cleanup: schema.drop,
    };
  }
  const data = tempDataDir();
  return { env: { DATA_DIR: data.dir }, cleanup: async () => data.remove() };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${script} ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  base: string;
  output: () => string;
  /** Exit code, or the signal name when the process ended by a signal. */
  exited: Promise<number | string | null>;
}

export async function startService(
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  options: { port?: number } = {},
): Promise<ServiceProcess> {
  const port = options.port ?? (await freeFixedPort());
  const child = spawn(process.execPath, [DIST_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      SCHEDULER_ENABLED: 'false',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | string | null>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal)),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${output}`);
    try {
      if ((await fetch(`${base}/health/ready`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base, output: () => output, exited };
}
