/**
 * What the security headers must be, for the security-headers suite (operations.e2e-spec.ts) and
 * its production counterpart (test/security-headers.e2e-spec.ts, an app of its own).
 */
import type { Response } from 'supertest';

const PAGE_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** An API answer (JSON or problem+json): OWASP's REST headers, no page headers. */
export const expectBaseline = (res: Response) => {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(String(res.headers['content-security-policy'])).toMatch(
    /^default-src 'none';\s*frame-ancestors 'none'(;\s*upgrade-insecure-requests)?$/,
  );
  for (const header of PAGE_ONLY) expect(res.headers[header]).toBeUndefined();
};

/** The Swagger UI page and its assets: helmet's defaults. */
export const expectPage = (res: Response) => {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
};
