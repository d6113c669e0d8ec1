/**
 * The service's logs as an operator sees them: the built service run as a real process, once with
 * stdout a pipe (JSON lines) and once under `script`, which gives it a terminal (pino-pretty).
 */
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { DIST_MAIN, freeFixedPort, startService, tempDataDir } from './support/process.js';
import { createTestSchema, usingPostgres } from './support/test-database.js';

interface LogLine {
  level?: unknown;
  time?: number;
  msg?: string;
  context?: string;
  req?: { url?: string };
  res?: { statusCode?: number };
}

/** Database settings for a child process: a private Postgres schema, or a temporary PGlite dir. */
async function databaseEnv(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
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

/**
 * Runs the built service on a pseudo-terminal until it says it listens, then stops it (SIGTERM to
 * `script`, which ends the service with it). Returns what the terminal showed, colours removed.
 */
async function runOnTerminal(env: Record<string, string>): Promise<string[]> {
  const port = await freeFixedPort();
  const child = spawn('script', ['-qfec', `exec '${process.execPath}' '${DIST_MAIN}'`, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      TERM: 'xterm-256color',
      SCHEDULER_ENABLED: 'false',
      LOG_LEVEL: 'info',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise((done) => child.once('exit', done));
  const deadline = Date.now() + 60_000;
  try {
    while (!stripVTControlCharacters(output).includes('Listening on http://localhost:')) {
      if (child.exitCode !== null) throw new Error(`service exited early: ${output}`);
      if (Date.now() > deadline) throw new Error(`service not listening: ${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return stripVTControlCharacters(output)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
}

describe('logs of the service process (e2e)', () => {
  // One database for the file: the first start creates it (and seeds the sandbox), the next ones
  // find it ready. What is asserted is the start-up's logs, the same either way.
  let db: Awaited<ReturnType<typeof databaseEnv>>;
  beforeAll(async () => {
    db = await databaseEnv();
  });
  afterAll(() => db.cleanup());

  it('at debug: each start-up line carries the time it happened; module loading, route mapping and health probes appear at debug', async () => {
    const service = await startService({ ...db.env, LOG_LEVEL: 'debug' });
    await fetch(`${service.base}/health/live`);
    service.child.kill('SIGTERM');
    await service.exited;
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

    const starting = lines.find((l) => l.msg === 'Starting Nest application...');
    const listening = lines.find((l) => l.msg?.startsWith('Listening on http://localhost:'));
    expect(starting).toMatchObject({ level: 'info', context: 'NestFactory' });
    expect(listening).toMatchObject({ level: 'info', context: 'Bootstrap' });
    // "Listening on … in N ms": N runs from the application's load (after the configuration was
    // read) to listen().
    const startupMs = Number(/ in (\d+) ms /.exec(listening!.msg!)?.[1]);
    expect(startupMs).toBeGreaterThan(0);
    // Nest's first line is written when it happens, not when a buffer is flushed at the end:
    // the start-up lines span (nearly) the whole start-up, in the order they happened.
    expect(listening!.time! - starting!.time!).toBeGreaterThanOrEqual(startupMs * 0.8);
    const times = lines.map((l) => l.time!);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const loading = lines.filter((l) => l.context === 'InstanceLoader');
    const mapped = lines.filter((l) => l.context === 'RouterExplorer' && l.msg?.startsWith('Mapped {'));
    expect(loading.length).toBeGreaterThan(10);
    expect(mapped.length).toBeGreaterThan(10);
    expect(new Set([...loading, ...mapped].map((l) => l.level))).toEqual(new Set(['debug']));
    const probes = lines.filter((l) => l.msg === 'request completed' && l.req?.url?.startsWith('/health/'));
    expect(probes.map((l) => l.req?.url)).toContain('/health/live');
    expect(new Set(probes.map((l) => [l.level, l.res?.statusCode].join(' ')))).toEqual(
      new Set(['debug 200']),
    );
  }, 120_000);

  it('on a terminal: readable lines (pino-pretty) with level names; LOG_FORMAT=json keeps JSON there', async () => {
    const pretty = await runOnTerminal(db.env);
    expect(pretty.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    // [07:21:03.412] INFO: [Bootstrap] Listening on http://localhost:…
    expect(pretty).toContainEqual(
      expect.stringMatching(
        /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: \[Bootstrap\] Listening on http:\/\/localhost:\d+ in \d+ ms /,
      ),
    );
    expect(pretty).toContainEqual(
      expect.stringMatching(
        /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: \[NestFactory\] Starting Nest application\.\.\.$/,
      ),
    );

    const json = await runOnTerminal({ ...db.env, LOG_FORMAT: 'json' });
    const listening = json.find((line) => line.includes('Listening on http://localhost:'));
    expect(JSON.parse(listening!)).toMatchObject({ level: 'info', context: 'Bootstrap' });
  }, 120_000);
});
