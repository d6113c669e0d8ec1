/**
 * The API's contract at the edge: request ids and error bodies, X-Forwarded-For without trusted
 * proxies, the operator tenant and tenant-naming admin API, every operation's live answers
 * against the served OpenAPI document, fuzzing every operation, and the simulation worker pool.
 * One application for these suites (test/e2e/README.md), started while the file loads: the fuzz
 * suite's tests are the served document's operations.
 *
 * Order: the suites that read the sandbox as seeded first; then the OpenAPI check, which writes
 * into `sandbox`; then the fuzz, which writes anything anywhere; the simulation pool last, on
 * tenants of its own (its last test closes the app). Then a suite on applications of its own (a
 * restart on a database on disk).
 *
 * Configuration: request, market, token and bearer-failure limits out of the way (the fuzz and
 * the OpenAPI check send thousands of requests, hundreds without a token; the limits are
 * test/e2e/limits.e2e-spec.ts's); no trusted proxy (the default); the Esplora URL a loopback port
 * nobody listens on (a linked wallet's first refresh fails fast, offline); one simulation worker,
 * one waiting, one per client (the pool's caps); seeded at 2026-03-15T12:00Z (the simulations'
 * pinned figures read the sandbox market history up to that day).
 */
import { startE2eWorld } from '../support/e2e-world.js';
import type { OpenApiDoc } from '../support/fuzz-openapi.js';
import './contract/platform.cases.js';
import './contract/operator-tenant.cases.js';
import './contract/openapi-responses.cases.js';
import { describeFuzz } from './contract/fuzz.cases.js';

const app = await startE2eWorld({
  sandbox: true,
  startAt: new Date('2026-03-15T12:00:00.000Z'),
  overrides: {
    RATE_LIMIT_PER_MINUTE: '1000000',
    MARKET_RATE_LIMIT_PER_MINUTE: '1000000',
    TOKEN_RATE_LIMIT_PER_MINUTE: '1000000',
    BEARER_FAILURES_PER_MINUTE: '1000000',
    ESPLORA_BASE_URL: 'http://127.0.0.1:9',
    SIMULATION_WORKERS: '1',
    SIMULATION_QUEUE: '1',
    SIMULATION_PER_CLIENT: '1',
  },
});
describeFuzz((await app.http.get('/docs-json').expect(200)).body as OpenApiDoc);
// Last on the file's app: it closes the app.
await import('./contract/simulate-pool.cases.js');
