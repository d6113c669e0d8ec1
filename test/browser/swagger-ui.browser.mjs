/**
 * Browser test of the Swagger UI, doing what an admin does: starts the built service (dist/) on
 * in-memory PGlite and drives Debian's Chromium: a token from POST /v1/api/token through Try it out
 * with the JSON body only, Authorize (bearer) with it, a partner endpoint with the partner client's
 * token and an admin endpoint with the admin client's, then the same through Authorize's OAuth2
 * client-credentials form (Swagger UI fetches the token from /oauth/token itself); then, as the
 * admin, creates a tenant and an API client through Try it out (the secret is shown once, not in
 * the list) and calls a partner endpoint with a token of the new client; then links an account of
 * each source with the example Swagger UI offers for it (the exchange one answers 503: its
 * placeholder keys are checked with an exchange CI cannot reach), uploads a CSV file through the
 * multipart form's file chooser, and reads the audit trail (newest first, the link and the import
 * on it) and the job queues. Every live response must be the expected 200 or 201 and the console
 * must show no Content Security Policy violation. Screenshots of the steps: test-results/swagger-ui-*.png.
 * Run with `npm run test:browser` (builds first).
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
const SCREENSHOT = join(ROOT, 'test-results', 'swagger-ui.png');
/** One screenshot per step of the admin's job (issue 31: shown in the closing note). */
const shot = (name) => join(ROOT, 'test-results', `swagger-ui-${name}.png`);
const TOTAL_TIMEOUT_MS = 300_000;
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

const PARTNER = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' };
const ADMIN = { clientId: 'sandbox-admin', clientSecret: 'sandbox-admin-secret' };

/** The operation block of `method path`, expanded, with Try it out on. */
async function openOperation(page, method, path) {
  const operation = page
    .locator(`.opblock-${method}`)
    .filter({
      has: page.locator('.opblock-summary-path', {
        hasText: new RegExp(`^${path.replace(/[{}/.]/g, '\\$&')}$`),
      }),
    })
    .first();
  const body = operation.locator('.opblock-body');
  if (!(await body.isVisible().catch(() => false)))
    await operation.locator('.opblock-summary').first().click();
  await body.waitFor({ state: 'visible' });
  // tryItOutEnabled may already have switched it on; then the button reads "Cancel".
  const tryItOut = body.getByRole('button', { name: /try it out/i });
  if (await tryItOut.isVisible().catch(() => false)) await tryItOut.click();
  return { operation, body };
}

/** Execute → the live response's status code and body text. */
async function execute(
  page,
  method,
  path,
  { requestBody, params = {}, example, contentType, file, screenshot } = {},
) {
  const { operation, body } = await openOperation(page, method, path);
  // The request body's media type (e.g. multipart/form-data for a file), then one of its examples.
  if (contentType !== undefined)
    await body.locator('.body-param-content-type select').first().selectOption(contentType);
  if (example !== undefined) await body.locator('.examples-select select').first().selectOption(example);
  if (requestBody !== undefined) await body.locator('textarea.body-param__text').fill(requestBody);
  // A multipart body's file field is a file chooser: pick the file as an admin would.
  if (file !== undefined) await body.locator('input[type="file"]').first().setInputFiles(file);
  for (const [name, value] of Object.entries(params))
    await body.locator(`tr[data-param-name="${name}"] input`).first().fill(value);
  await body.getByRole('button', { name: /^execute$/i }).click();
  const live = body.locator('.live-responses-table');
  // Swagger UI refuses to send while a required field is empty, and marks the field instead.
  const refused = body.locator('.invalid, .validation-errors').first();
  const outcome = await Promise.race([
    live.waitFor({ state: 'visible' }).then(() => 'sent'),
    refused.waitFor({ state: 'visible' }).then(
      () => 'refused',
      () => new Promise(() => undefined),
    ),
  ]);
  if (outcome === 'refused')
    throw new Error(
      `Swagger UI refused to Execute ${method.toUpperCase()} ${path}: a required field is empty`,
    );
  const statusCell = live.locator('.response .response-col_status').first();
  await statusCell.waitFor({ state: 'visible' });
  const responseBody = live.locator('.response .response-col_description pre').first();
  await responseBody.waitFor({ state: 'visible' });
  const result = { code: (await statusCell.innerText()).trim(), text: await responseBody.innerText() };
  // The operation as the admin saw it: the request sent and the live response.
  // Cropped below the live response: the documented responses that follow are long.
  if (screenshot) {
    await operation.scrollIntoViewIfNeeded();
    const box = await operation.boundingBox();
    const liveBox = await live.boundingBox();
    const scrollY = await page.evaluate(() => window.scrollY);
    await page.screenshot({
      path: screenshot,
      fullPage: true,
      clip: {
        x: box.x,
        y: box.y + scrollY,
        width: box.width,
        height: Math.min(box.height, liveBox.y + liveBox.height - box.y + 8, 2400),
      },
    });
  }
  // Clear, so the next Execute of this operation shows a fresh response.
  const clear = body.getByRole('button', { name: /^clear$/i });
  if (await clear.isVisible().catch(() => false)) await clear.click();
  await operation.locator('.opblock-summary').first().click();
  return result;
}

function expectOk(what, { code, text }) {
  if (code !== '200') throw new Error(`${what}: expected 200, got ${JSON.stringify(code)}; body: ${text}`);
  console.log(`ok - ${what}: 200`);
  return JSON.parse(text);
}

function expectCreated(what, { code, text }) {
  if (code !== '201') throw new Error(`${what}: expected 201, got ${JSON.stringify(code)}; body: ${text}`);
  console.log(`ok - ${what}: 201`);
  return JSON.parse(text);
}

/** Opens the Authorize dialog and returns it with the block of one security scheme. */
async function authorizeDialog(page, scheme) {
  await page
    .locator('.scheme-container')
    .getByRole('button', { name: /authorize/i })
    .click();
  const dialog = page.locator('.modal-ux');
  await dialog.waitFor({ state: 'visible' });
  const block = dialog
    .locator('.auth-container')
    .filter({ hasText: `${scheme} (` })
    .first();
  await block.waitFor({ state: 'visible' });
  return { dialog, block };
}

async function closeDialog(dialog) {
  await dialog
    .getByRole('button', { name: /^close$/i })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Swagger UI labels its dialog buttons for screen readers: "Authorize" is "Apply credentials". */
async function applyAndWait(block) {
  await block.getByRole('button', { name: /^(apply (given oauth2 )?credentials|authorize)$/i }).click();
  // Authorized: the block now offers Logout ("Remove authorization") instead of Authorize.
  await block.getByRole('button', { name: /^(remove authorization|logout)$/i }).waitFor({ state: 'visible' });
}

async function logoutAll(page) {
  const { dialog } = await authorizeDialog(page, 'bearer');
  const logouts = dialog.getByRole('button', { name: /^(remove authorization|logout)$/i });
  while ((await logouts.count()) > 0) await logouts.first().click();
  await closeDialog(dialog);
}

async function authorizeBearer(page, token) {
  const { dialog, block } = await authorizeDialog(page, 'bearer');
  await block.locator('input').first().fill(token);
  await applyAndWait(block);
  await closeDialog(dialog);
}

/** The OAuth2 client-credentials form: Swagger UI fetches the token from /oauth/token itself. */
async function authorizeOAuth2(page, { clientId, clientSecret }, scope) {
  const { dialog, block } = await authorizeDialog(page, 'oauth2');
  await block.locator('input[id^="client_id"]').fill(clientId);
  await block.locator('input[id^="client_secret"]').fill(clientSecret);
  // The checkbox itself is hidden behind Swagger UI's styled label.
  const checkbox = block.locator(`input[type="checkbox"][data-value="${scope}"]`);
  await block.locator(`label[for="${await checkbox.getAttribute('id')}"]`).click();
  if (!(await checkbox.isChecked())) throw new Error(`scope ${scope} not selected`);
  await applyAndWait(block);
  const errors = await block
    .locator('.errors')
    .allInnerTexts()
    .catch(() => []);
  if (errors.some((text) => text.trim())) throw new Error(`OAuth2 authorization failed: ${errors.join(' ')}`);
  await closeDialog(dialog);
}

/** A token from POST /v1/api/token through Try it out, with the JSON body only (no header). */
async function tokenThroughTryItOut(page, credentials, who) {
  const answer = expectOk(
    `${who}: POST /v1/api/token (body form, headers empty) through Try it out`,
    await execute(page, 'post', '/v1/api/token', { requestBody: JSON.stringify(credentials) }),
  );
  const token = answer?.result?.accessToken;
  if (typeof token !== 'string') throw new Error(`no result.accessToken in ${JSON.stringify(answer)}`);
  return token;
}

async function driveSwaggerUi(base) {
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
  const policyViolations = [];
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) policyViolations.push(message.text());
  });
  await page.goto(`${base}/docs`, { waitUntil: 'domcontentloaded' });
  await page.locator('.opblock').first().waitFor({ state: 'visible' });

  // An admin's morning: a partner token and an admin token through Try it out, body form only.
  const partnerToken = await tokenThroughTryItOut(page, PARTNER, 'partner');
  await authorizeBearer(page, partnerToken);
  const status = expectOk('bearer (partner): GET /api/status', await execute(page, 'get', '/api/status'));
  if (status.version !== EXPECTED_VERSION)
    throw new Error(`version ${status.version}, expected ${EXPECTED_VERSION}`);
  const accounts = expectOk(
    'bearer (partner): GET /v1/api/accounts',
    await execute(page, 'get', '/v1/api/accounts'),
  );
  if (!Array.isArray(accounts.result?.accounts) || accounts.result.accounts.length === 0)
    throw new Error(`no accounts in ${JSON.stringify(accounts).slice(0, 300)}`);

  await logoutAll(page);
  const adminToken = await tokenThroughTryItOut(page, ADMIN, 'admin');
  await authorizeBearer(page, adminToken);
  const adminList = expectOk(
    'bearer (admin): GET /admin/accounts',
    await execute(page, 'get', '/admin/accounts'),
  );
  if (!Array.isArray(adminList.accounts))
    throw new Error(`no accounts in ${JSON.stringify(adminList).slice(0, 300)}`);

  // The same through the OAuth2 client-credentials form of Authorize (no token pasted by hand).
  await logoutAll(page);
  await authorizeOAuth2(page, PARTNER, 'partner');
  expectOk(
    'oauth2 (partner, scope partner): GET /v1/api/accounts',
    await execute(page, 'get', '/v1/api/accounts'),
  );
  await logoutAll(page);
  await authorizeOAuth2(page, ADMIN, 'admin');
  expectOk('oauth2 (admin, scope admin): GET /admin/accounts', await execute(page, 'get', '/admin/accounts'));

  // What an admin does for a new advisory firm, all through Try it out with the admin token
  // Authorize holds: create the tenant, create its API client (the secret is shown this once),
  // then check the firm's integration works: a token for the new client on a partner endpoint.
  const slug = `browser-firm-${Date.now().toString(36)}`;
  const tenant = expectCreated(
    'oauth2 (admin): POST /admin/tenants through Try it out',
    await execute(page, 'post', '/admin/tenants', {
      requestBody: JSON.stringify({ slug, name: 'Browser Test Advisors' }),
    }),
  );
  if (tenant.slug !== slug || tenant.kind !== 'partner')
    throw new Error(`unexpected tenant ${JSON.stringify(tenant)}`);
  const issued = expectCreated(
    'oauth2 (admin): POST /admin/clients through Try it out',
    await execute(page, 'post', '/admin/clients', {
      requestBody: JSON.stringify({ tenant: slug, clientId: `${slug}-app` }),
    }),
  );
  if (typeof issued.clientSecret !== 'string' || issued.clientSecret.length < 40)
    throw new Error(`no clientSecret shown on creation: ${JSON.stringify(issued)}`);
  console.log('ok - the client secret is shown once, in the creation response');
  const clients = expectOk(
    'oauth2 (admin): GET /admin/clients (the secret is not shown again)',
    await execute(page, 'get', '/admin/clients', { params: { tenant: slug } }),
  );
  const listed = clients.clients?.find((client) => client.clientId === issued.clientId);
  if (!listed) throw new Error(`${issued.clientId} not in ${JSON.stringify(clients).slice(0, 300)}`);
  if (JSON.stringify(clients).includes(issued.clientSecret) || 'clientSecret' in listed)
    throw new Error('the client list shows a secret');

  await logoutAll(page);
  const newToken = await tokenThroughTryItOut(
    page,
    { clientId: issued.clientId, clientSecret: issued.clientSecret },
    'the new client',
  );
  await authorizeBearer(page, newToken);
  const firmAccounts = expectOk(
    'bearer (the new client): GET /v1/api/accounts',
    await execute(page, 'get', '/v1/api/accounts'),
  );
  if (!Array.isArray(firmAccounts.result?.accounts) || firmAccounts.result.accounts.length !== 0)
    throw new Error(`a new tenant holds no accounts: ${JSON.stringify(firmAccounts).slice(0, 300)}`);

  await mkdir(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: shot('1-new-firm'), fullPage: false });

  // The admin links an account of each source with the example Swagger UI shows for it (issue 31
  // item 2), uploads a file through the multipart form's file chooser, then reads the audit trail
  // and the job queues: every answer a success.
  await logoutAll(page);
  await authorizeBearer(page, adminToken);
  const linked = {};
  for (const example of [
    'sandbox',
    'csv',
    'bitcoin-address',
    'bitcoin-xpub',
    'ethereum',
    'ethereum-base',
    'solana',
  ]) {
    const account = expectCreated(
      `bearer (admin): POST /admin/accounts with its "${example}" example`,
      await execute(page, 'post', '/admin/accounts', {
        example,
        screenshot: example === 'solana' ? shot('2-linked-solana') : undefined,
      }),
    );
    linked[example] = account;
  }
  // The exchange example carries placeholder keys, which the service checks with the exchange
  // before linking: with no exchange reachable from CI it must answer 503 (unreachable), never a
  // 4xx about the body, and with real keys it links.
  const exchange = await execute(page, 'post', '/admin/accounts', { example: 'exchange' });
  if (!['503', '422'].includes(exchange.code))
    throw new Error(
      `exchange example: expected 503 (unreachable) or 422 (keys refused), got ${exchange.code}: ${exchange.text}`,
    );
  console.log(
    `ok - bearer (admin): POST /admin/accounts with its "exchange" example: ${exchange.code} (the keys are checked with the exchange)`,
  );

  const csvFile = {
    name: 'kraken-ledgers.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'transactionId,timestamp,symbol,direction,amount,price,fee,transferId\n' +
        'b1,2024-01-02T10:00:00Z,BTC,buy,0.5,42000.00,10.00,\n' +
        's1,2024-06-03T10:00:00Z,BTC,sell,0.2,68000.00,5.00,\n',
    ),
  };
  const imported = expectOk(
    'bearer (admin): POST /admin/accounts/{accountId}/import, a file picked in the multipart form',
    await execute(page, 'post', '/admin/accounts/{accountId}/import', {
      contentType: 'multipart/form-data',
      params: { accountId: linked.csv.accountId ?? linked.csv.id, tenant: 'sandbox' },
      file: csvFile,
      screenshot: shot('3-uploaded'),
    }),
  );
  if (imported.rows !== 2) throw new Error(`the upload stored ${JSON.stringify(imported)}`);

  const audit = expectOk(
    'bearer (admin): GET /admin/audit with its defaults (newest first)',
    await execute(page, 'get', '/admin/audit', { screenshot: shot('4-audit') }),
  );
  const actions = (audit.entries ?? audit.items ?? []).map((entry) => entry.action);
  if (!actions.includes('account.imported') || !actions.includes('account.linked'))
    throw new Error(
      `the audit trail lacks the link and the import: ${JSON.stringify(actions).slice(0, 300)}`,
    );
  const queues = expectOk('bearer (admin): GET /admin/queues', await execute(page, 'get', '/admin/queues'));
  if (!Array.isArray(queues.queues ?? queues))
    throw new Error(`no queues in ${JSON.stringify(queues).slice(0, 300)}`);
  await page.screenshot({ path: SCREENSHOT, fullPage: false });
  if (policyViolations.length)
    throw new Error(`Content Security Policy violations: ${policyViolations.join('\n')}`);
  console.log(`ok - no Content Security Policy violation in the console (screenshot: ${SCREENSHOT})`);
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
  await driveSwaggerUi(base);
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
