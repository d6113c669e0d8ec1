/**
 * The limits: requests per client, failed credentials per address and per address + clientId,
 * argon2 verifications in flight, bearer failures per address, and the 429 answers' documented
 * shape. One application for these suites (test/e2e/README.md), with low limits, behind a trusted
 * proxy (TRUST_PROXY=loopback: each test's X-Forwarded-For addresses are counters of their own)
 * and without the sandbox: each suite's clients are tenants' of its own, so no suite's counter is
 * another's. The Redis suites start applications of their own (redis.cases.ts).
 */
import { useE2eWorld } from '../support/e2e-world.js';
import './limits/token-limits.cases.js';
import './limits/rate-limit.cases.js';
import './limits/openapi-429.cases.js';
import './limits/redis.cases.js';

useE2eWorld({
  sandbox: false,
  overrides: {
    TRUST_PROXY: 'loopback',
    RATE_LIMIT_PER_MINUTE: '5',
    TOKEN_RATE_LIMIT_PER_MINUTE: '3',
    TOKEN_FAILURES_PER_IP_PER_MINUTE: '5',
    TOKEN_VERIFICATIONS_MAX_CONCURRENT: '2',
    BEARER_FAILURES_PER_MINUTE: '3',
  },
});
