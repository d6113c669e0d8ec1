/**
 * CI's SDK step (.ci/run), after `npm run build`, against the built service started on a fresh
 * embedded data dir and a free port. While the service boots: (1) the SDK, its tests and its
 * example compile, (2) its unit tests pass (clients/typescript/test, node:test, no service),
 * (3) it packs (`npm pack`, whose prepack builds), installs from the tarball into an empty project
 * and is imported and type-checked there through its `exports`. Then, against the service:
 * (4) the committed SDK, document and Postman collection match what the code generates
 * (`generate-sdk.mjs --check`, on the running service's /docs-json), (5) the example runs the
 * README's flow (token → accounts → balances), (6) the SDK's end-to-end tests
 * (clients/typescript/test/e2e: pagination, the 8949 CSV, idempotency, a real 429, a webhook).
 * Prints each check and a last line `N passed, M failed`.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const SDK = join(ROOT, 'clients/typescript');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
/** npm and the scripts it runs (the SDK's prepack: tsc) on this Node and the project's tools. */
const TOOLS_PATH = [dirname(process.execPath), join(ROOT, 'node_modules/.bin'), process.env.PATH].join(
  delimiter,
);
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
        // The SDK's e2e tests: a webhook delivered in under a second, and a verification cap whose
        // per-address share (a quarter) is one slot, so a real 429 with Retry-After is cheap to get.
        WEBHOOK_POLL_MS: '200',
        JOBS_POLL_INTERVAL_MS: '500',
        TOKEN_VERIFICATIONS_MAX_CONCURRENT: '4',
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

/** The ✔/✖ lines and totals of a node:test spec report. */
function summary(report) {
  return report
    .split('\n')
    .filter((line) => /^\s*[✔✖]|^ℹ (tests|pass|fail)/.test(line))
    .join('\n');
}

/**
 * `npm pack` (prepack builds), then an empty ESM project installs the tarball from the registry's
 * cache where it can, imports it with node and type-checks a use of it with nodenext resolution:
 * what a partner's project does with the published package.
 */
async function packAndInstall() {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-pack-'));
  const env = { ...process.env, PATH: TOOLS_PATH, npm_config_update_notifier: 'false' };
  try {
    const { stdout: packed } = await run('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: SDK,
      env,
      timeout: 120_000,
    });
    const tarball = join(dir, packed.trim().split('\n').pop());
    const app = join(dir, 'app');
    await run('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
      {
        cwd: app,
        env,
        timeout: 120_000,
      },
    );
    const { stdout: imported } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as sdk from '@crypto-asset-service/sdk';
         import pkg from '@crypto-asset-service/sdk/package.json' with { type: 'json' };
         for (const name of ['createServiceClient', 'unwrap', 'verifyWebhook', 'withRetries', 'paginate']) {
           if (typeof sdk[name] !== 'function') throw new Error(name + ' is not exported');
         }
         console.log(pkg.name + '@' + pkg.version + ' (' + pkg.license + ') for API ' + sdk.API_VERSION);`,
      ],
      { cwd: app },
    );
    writeFileSync(
      join(app, 'use.ts'),
      `import { createServiceClient, type AccountEventType } from '@crypto-asset-service/sdk';
const api = createServiceClient({ baseUrl: 'http://x', clientId: 'c', clientSecret: 's' });
export const list = api.accounts.list({ limit: 10 });
export const events: AccountEventType[] = ['account.synced'];
// @ts-expect-error: not an event of the API
export const typo: AccountEventType[] = ['acount.synced'];
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          // As `tsc --init` sets it: standardwebhooks' declarations name Node's Buffer.
          skipLibCheck: true,
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    await run(process.execPath, [TSC, '-p', app], { cwd: app });
    return imported.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
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
  // One after another: packing compiles the SDK again (its prepack empties and rebuilds
  // dist/src), the directory the compile writes and the unit tests import. Run side by side, the
  // tarball once held half-written declarations (CI: `number` not assignable to `never`).
  await check('SDK, its tests and example compile', async () => {
    await run(process.execPath, [TSC, '-p', 'clients/typescript'], { cwd: ROOT });
  });
  await check('SDK unit tests (retries, pagination, text answers, webhooks)', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--test', '--test-reporter=spec', 'dist/test/*.test.js'],
      {
        cwd: SDK,
        timeout: 60_000,
      },
    );
    return summary(stdout);
  });
  await check('SDK packs, installs from its tarball, imports and type-checks through its exports', () =>
    packAndInstall(),
  );
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
  await check('SDK end-to-end against the built service', async () => {
    const { base } = await service;
    const { stdout } = await run(
      process.execPath,
      ['--test', '--test-reporter=spec', '--test-force-exit', 'dist/test/e2e/service.e2e.js'],
      {
        cwd: SDK,
        env: { ...process.env, BASE_URL: base, CLIENT_ID: 'sandbox-client', CLIENT_SECRET: 'sandbox-secret' },
        timeout: 120_000,
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
