import { createHash } from 'node:crypto';

/**
 * What makes two writes "the same request" for an Idempotency-Key: method, path with query, and
 * body. JSON bodies compare by value (object keys sorted, so key order does not matter); other
 * bodies (CSV text, raw bytes) compare byte for byte.
 */
export function requestFingerprint(method: string, pathWithQuery: string, body: unknown): string {
  const hash = createHash('sha256').update(`${method.toUpperCase()} ${pathWithQuery}\n`);
  if (Buffer.isBuffer(body)) hash.update('b:').update(body);
  else if (typeof body === 'string') hash.update('s:').update(body, 'utf8');
  else if (body === undefined || body === null) hash.update('n:');
  else hash.update('j:').update(canonicalJson(body), 'utf8');
  return hash.digest('hex');
}

/** JSON with every object's keys in code-point order; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** Idempotency-Key values: 1-255 visible ASCII characters (Stripe allows up to 255). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
