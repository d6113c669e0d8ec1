/**
 * The HTTP edge: problem details, malformed bearer tokens and dates, input hardening, token
 * issuance and verification, secret rotation, the OpenAPI document and the clients generated from
 * it. One application for all of these suites (test/e2e/README.md), on real time, with request and
 * bearer-failure limits out of the way (secret-rotation and malformed-bearer-and-dates send many
 * requests; the limits themselves are tested in test/e2e/limits.e2e-spec.ts).
 */
import { useE2eWorld } from '../support/e2e-world.js';
import './http/problem-detail.cases.js';
import './http/malformed-bearer-and-dates.cases.js';
import './http/input-hardening.cases.js';
import './http/auth.cases.js';
import './http/secret-rotation.cases.js';
import './http/openapi.cases.js';
import './http/openapi-client.cases.js';
import './http/sdk.cases.js';
import './http/root-redirect.cases.js';

useE2eWorld({
  sandbox: true,
  overrides: { RATE_LIMIT_PER_MINUTE: '100000', BEARER_FAILURES_PER_MINUTE: '100000' },
});
