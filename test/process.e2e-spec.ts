import { spawn, type ChildProcess } from 'node:child_process';
import { databaseEnv, freePort, run, DIST_MAIN, startService } from './support/process.js';
import { usingPostgres } from './support/test-database.js';

interface LogLine {
  level: string;
  msg?: string;
  cause?: Record<string, unknown>;
}

/** The service's JSON log lines in `output` (anything else, e.g. a stack trace, is skipped). */
function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

const isProblem = (line: LogLine) => ['warn', 'error', 'fatal'].includes(line.level);

/** The first log line of a running child that `matches`; rejects if the child exits first. */
function firstLogLine(child: ChildProcess, matches: (line: LogLine) => boolean): Promise<LogLine> {
  return new Promise((resolve, reject) => {
    let output = '';
    const look = (chunk: Buffer) => {
      output += String(chunk);
      const found = logLines(output.slice(0, output.lastIndexOf('\n') + 1)).find(matches);
      if (found) resolve(found);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code} first: ${output}`)));
  });
}

describe('the service as a process (e2e)', () => {
  it('refuses to start in production without database, JWT keys and encryption key, naming each', async () => {
    const result = await run(DIST_MAIN, [], { NODE_ENV: 'production', PORT: '0' });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/DATABASE_URL: required/);
    expect(result.stderr).toMatch(/JWT_PRIVATE_KEYS: required/);
    expect(result.stderr).toMatch(/ENCRYPTION_KEY: required/);
  });

  it('refuses a malformed variable with a message naming it', async () => {
    const result = await run(DIST_MAIN, [], { PORT: 'eighty' });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/PORT:/);
  });

  it('refuses a bad REFRESH_SCHEDULES with 78, naming the field and the valid keys, without a stack trace', async () => {
    const result = await run(DIST_MAIN, [], {
      PORT: '0',
      DATA_DIR: 'memory',
      REFRESH_SCHEDULES: '{"csv": {"every": 60000}}',
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain(
      'REFRESH_SCHEDULES.csv.every is not a setting (settings: intervalMs, maxConcurrent, backoff).',
    );
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('says why the database cannot be reached in one line at the first failure, and retries', async () => {
    const closed = await freePort(); // nothing listens: connection refused
    const service = spawn(process.execPath, [DIST_MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/test`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const first = await firstLogLine(service, isProblem);
      expect(first.msg).toMatch(/ECONNREFUSED/);
      expect(first.msg).toMatch(/attempt 1 of 10/);
      expect(first.cause).toMatchObject({ code: 'ECONNREFUSED' });
      expect(service.exitCode).toBeNull(); // still trying
    } finally {
      service.kill('SIGKILL');
    }
  }, 60_000);

  (usingPostgres() ? it : it.skip)(
    'stops at once with 78 when the database refuses the role, naming the cause in one line',
    async () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.username = 'nosuchrole';
      url.password = '';
      const startedAt = Date.now();
      const result = await run(DIST_MAIN, [], { PORT: '0', DATABASE_URL: url.toString() });
      expect(result.code).toBe(78);
      expect(Date.now() - startedAt).toBeLessThan(20_000); // no retries: they take 3 s each
      const lines = logLines(result.stdout + result.stderr).filter(isProblem);
      expect(lines[0]!.msg).toContain('role "nosuchrole" does not exist');
      expect(lines[0]!.msg).toContain('DATABASE_URL');
      expect(lines[0]!.cause).toMatchObject({ code: '28000' });
      expect(lines.some((line) => /Retrying/.test(line.msg ?? ''))).toBe(false);
    },
    60_000,
  );

  it('on SIGTERM: in-flight requests finish, new ones get 503 with Connection: close, readiness 503, clean exit', async () => {
    const db = await databaseEnv();
    try {
      const service = await startService({ ...db.env, SHUTDOWN_GRACE_MS: '4000', LOG_LEVEL: 'info' });
      const issue = () =>
        fetch(`${service.base}/v1/api/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
        }).then((r) => ({ status: r.status, connection: r.headers.get('connection') }));
      // Token issuance takes tens of ms (argon2id): once the first answer is back, the rest of the
      // batch is queued inside the service, i.e. in flight, when SIGTERM lands.
      const batch = Array.from({ length: 24 }, issue);
      await Promise.race(batch);
      service.child.kill('SIGTERM');
      // The flip happens as soon as the process handles the signal (later on a loaded machine).
      // A 503 without `Connection: close` is the readiness probe's own database ping timing out
      // under this load, not the shutdown; keep polling for the shutdown's answer.
      const shuttingDown = (r: Response) => r.status === 503 && r.headers.get('connection') === 'close';
      let ready = await fetch(`${service.base}/health/ready`);
      for (let i = 0; i < 150 && !shuttingDown(ready); i++) {
        await new Promise((r) => setTimeout(r, 20));
        ready = await fetch(`${service.base}/health/ready`);
      }
      expect(ready.status).toBe(503);
      expect(ready.headers.get('connection')).toBe('close');
      const late = await issue();
      expect(late).toEqual({ status: 503, connection: 'close' });

      const results = await Promise.all(batch); // rejects on any reset or network error
      const accepted = results.filter((r) => r.status === 200).length;
      expect(accepted).toBeGreaterThan(1);
      expect(
        results.filter((r) => r.status !== 200).every((r) => r.status === 503 && r.connection === 'close'),
      ).toBe(true);
      // Nest closes the app, then re-raises the signal so the exit status tells the supervisor why.
      expect([0, 'SIGTERM']).toContain(await service.exited);
      await expect(fetch(`${service.base}/health/live`)).rejects.toThrow();

      // The logs survive the re-raised signal (which skips 'exit' handlers): the shutdown is
      // announced, and every token request the service answered has its line. The 503s above were
      // answered by the closing server before any middleware, so they have none.
      const lines = service
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map(
          (line) =>
            JSON.parse(line) as { msg?: string; req?: { url?: string }; res?: { statusCode?: number } },
        );
      expect(lines.some((l) => l.msg?.startsWith('Shutting down on SIGTERM'))).toBe(true);
      const tokenLines = lines.filter((l) => l.msg === 'request completed' && l.req?.url === '/v1/api/token');
      expect(tokenLines.map((l) => l.res?.statusCode)).toEqual(Array(accepted).fill(200));
    } finally {
      await db.cleanup();
    }
  }, 120_000);
});
