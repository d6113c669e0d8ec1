/**
 * Browser test of the Swagger UI: starts the built service (dist/) on in-memory PGlite, gets a
 * sandbox token over HTTP, then drives Debian's Chromium through Authorize → GET /api/status →
 * Try it out → Execute and checks the live response. Run with `npm run test:browser` (builds first).
 * Needs /usr/bin/chromium (`apt-get install -y chromium`); installs nothing itself.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
const SCREENSHOT = join(ROOT, 'test-results', 'swagger-status.png');
const TOTAL_TIMEOUT_MS = 90_000;
const EXPECTED_VERSION = '2026.04.1';

let child;
let browser;
let childOutput = '';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startService(port) {
  const env = {
    ...process.env,
    DATA_DIR: 'memory',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SCHEDULER_ENABLED: 'false',
  };
  // Self-contained: never point the test at a real database, Redis or production config.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_ENV;
  child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (chunk) => {
    childOutput = (childOutput + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return child;
}

async function waitForReady(base) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early with code ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
}

async function getToken(base) {
  const response = await fetch(`${base}/v1/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
  });
  const body = await response.json();
  if (response.status !== 200 || body.isError !== false || typeof body.result?.accessToken !== 'string') {
    throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.result.accessToken;
}

async function driveSwaggerUi(base, token) {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${base}/docs`, { waitUntil: 'domcontentloaded' });

  // The top-level Authorize button (the one outside the dialog).
  await page
    .locator('.scheme-container')
    .getByRole('button', { name: /authorize/i })
    .click();
  const dialog = page.locator('.modal-ux');
  await dialog.waitFor({ state: 'visible' });
  const bearerBlock = dialog.locator('.auth-container').filter({ hasText: 'bearer' }).first();
  await bearerBlock.locator('input').first().fill(token);
  // Swagger UI labels its dialog buttons for screen readers: "Authorize" is "Apply credentials".
  await dialog.getByRole('button', { name: /^(apply credentials|authorize)$/i }).click();
  // Authorized: the dialog now offers Logout ("Remove authorization") instead of Authorize.
  await dialog
    .getByRole('button', { name: /^(remove authorization|logout)$/i })
    .waitFor({ state: 'visible' });
  await dialog
    .getByRole('button', { name: /^close$/i })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden' });

  // Expand GET /api/status.
  const operation = page
    .locator('.opblock-get')
    .filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/api\/status$/ }) })
    .first();
  await operation.locator('.opblock-summary').first().click();
  const body = operation.locator('.opblock-body');
  await body.waitFor({ state: 'visible' });

  // tryItOutEnabled may already have switched it on; then the button reads "Cancel".
  const tryItOut = body.getByRole('button', { name: /try it out/i });
  if (await tryItOut.isVisible().catch(() => false)) await tryItOut.click();
  await body.getByRole('button', { name: /^execute$/i }).click();

  const live = body.locator('.live-responses-table');
  await live.waitFor({ state: 'visible' });
  const statusCell = live.locator('.response .response-col_status').first();
  await statusCell.waitFor({ state: 'visible' });
  const code = (await statusCell.innerText()).trim();
  const responseBody = live.locator('.response .response-col_description pre').first();
  await responseBody.waitFor({ state: 'visible' });
  const text = await responseBody.innerText();

  await operation.scrollIntoViewIfNeeded();
  await mkdir(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });

  if (code !== '200')
    throw new Error(`expected live response code 200, got ${JSON.stringify(code)}; body: ${text}`);
  if (!text.includes(`"version": "${EXPECTED_VERSION}"`))
    throw new Error(`response body lacks "version": "${EXPECTED_VERSION}": ${text}`);
  console.log(
    `ok - Swagger UI authorized and executed GET /api/status: ${code}, version ${EXPECTED_VERSION} (screenshot: ${SCREENSHOT})`,
  );
}

async function cleanup() {
  await browser?.close().catch(() => undefined);
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await Promise.race([exited, sleep(6_000)]);
    clearTimeout(forced);
  }
}

async function main() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  startService(port);
  await waitForReady(base);
  const token = await getToken(base);
  await driveSwaggerUi(base, token);
}

let timer;
const timeout = new Promise((_, reject) => {
  timer = setTimeout(
    () => reject(new Error(`timed out after ${TOTAL_TIMEOUT_MS / 1000} s`)),
    TOTAL_TIMEOUT_MS,
  );
});
// If this process is killed, take the service down with it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    child?.kill('SIGKILL');
    process.exit(130);
  });
}
process.once('exit', () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

let failed = false;
try {
  await Promise.race([main(), timeout]);
} catch (error) {
  failed = true;
  console.error(`not ok - swagger UI: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  if (childOutput) console.error(`--- service output (tail) ---\n${childOutput.slice(-4_000)}`);
} finally {
  clearTimeout(timer);
  await cleanup();
}
console.log(failed ? '0 passed, 1 failed' : '1 passed, 0 failed');
process.exit(failed ? 1 : 0);
