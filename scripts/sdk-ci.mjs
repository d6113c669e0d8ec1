/**
 * CI's SDK step (.ci/run), after `npm run build`, against the built service started on a fresh
 * embedded data dir and a free port: (1) the SDK and its example compile (while the service
 * boots), (2) the committed SDK, document and Postman collection match what the code generates
 * (`generate-sdk.mjs --check`, on the running service's /docs-json), (3) the example runs the
 * README's flow (token → accounts → balances) against it. Prints each check and a last line
 * `N passed, M failed`.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 240_000;
const run = promisify(execFile);

/**
 * A port below the kernel's ephemeral range that nothing listens on now (as test/support/process.ts
 * picks them: a port from listen(0) could be handed to another process before the service binds).
 */
async function freePort() {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise((done) => {
      const server = createServer()
        .once('error', () => done(false))
        .listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
    if (free) return port;
  }
}

/** The built service on a fresh data dir; resolves with its base address once /health/ready is 200. */
async function startService(dataDir) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      const ready = await fetch(`${base}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return { child, base, output: () => output };
      await new Promise((r) => setTimeout(r, 250));
    }
    child.kill('SIGKILL');
    // Another process may have bound the port first: try once more on another one.
    if (attempt < 2 && /EADDRINUSE/.test(output)) continue;
    throw new Error(`the service did not become ready: ${output.slice(-2000)}`);
  }
}

const results = [];
async function check(name, body) {
  const started = Date.now();
  try {
    const detail = await body();
    results.push(true);
    console.log(
      `ok    ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${detail ? `\n${detail}` : ''}`,
    );
  } catch (error) {
    results.push(false);
    console.log(`FAIL  ${name}: ${error.stderr || error.stdout || error.message}`);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'sdk-ci-'));
const service = startService(dataDir);
service.catch(() => undefined); // awaited below; a failure is reported by the example's check
try {
  await check('SDK and example compile', async () => {
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'clients/typescript'], {
      cwd: ROOT,
    });
  });
  await check('SDK, document and Postman collection are current (npm run sdk:check)', async () => {
    const { base } = await service;
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'scripts/generate-sdk.mjs'), '--check', '--from', base],
      { cwd: ROOT },
    );
    return stdout.trim();
  });
  await check('the example runs the README flow against the built service', async () => {
    const { base } = await service;
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'clients/typescript/dist/examples/accounts-and-balances.js')],
      {
        cwd: ROOT,
        env: { ...process.env, BASE_URL: base, CLIENT_ID: 'sandbox-client', CLIENT_SECRET: 'sandbox-secret' },
        timeout: 60_000,
      },
    );
    return stdout.trimEnd();
  });
} finally {
  const started = await service.catch(() => undefined);
  if (started) {
    started.child.kill('SIGTERM');
    await new Promise((done) => {
      const timer = setTimeout(() => {
        started.child.kill('SIGKILL');
        done();
      }, 10_000);
      started.child.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      if (started.child.exitCode !== null || started.child.signalCode !== null) done();
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
}

const passed = results.filter(Boolean).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
