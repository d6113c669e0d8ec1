import type { NextFunction, Request, Response } from 'express';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { OAuthError } from '../errors/oauth-error.js';

/** Deeper JSON than any request of this API needs; deeper input overflowed class-transformer's stack. */
export const MAX_JSON_DEPTH = 32;

const NUL = '\u0000';

/**
 * Runs right after body parsing, before routing, on every request:
 * - a NUL character anywhere in the path, query or body is a 400 naming where (Postgres text
 *   cannot hold it, so it would otherwise surface as a 500 from the database; Node itself rejects
 *   one in a header);
 * - JSON nested deeper than MAX_JSON_DEPTH is a 400 naming `body`.
 * Iterative, so hostile input cannot overflow this check's own stack.
 */
export function checkRequestInput(req: Request, _res: Response, next: NextFunction): void {
  const problem = findProblem(req);
  if (!problem) return next();
  if (req.path === '/oauth/token') return next(new OAuthError('invalid_request', problem.message));
  next(
    new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', {
      [problem.field]: [problem.message],
    }),
  );
}

function findProblem(req: Request): { field: string; message: string } | undefined {
  // A NUL reaches the path or query only percent-encoded: Node's HTTP parser answers a raw NUL in
  // the request line or in a header value with 400 itself, before any of this runs. So a URL
  // without "%00" needs no decoding here (it is the common case, and this runs on every request).
  if (req.originalUrl.includes('%00')) {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      path = req.path; // malformed percent-encoding is answered by the router (400 path)
    }
    if (path.includes(NUL)) return { field: 'path', message: 'The path must not contain NUL characters.' };
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (key.includes(NUL) || containsNul(value, 4))
        return {
          field: key.replace(/\u0000/g, ''),
          message: `${key.replace(/\u0000/g, '')} must not contain NUL characters.`,
        };
    }
  }
  return inspectBody(req.body);
}

function containsNul(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return true;
    } else if (current !== null && typeof current === 'object' && depth < maxDepth) {
      for (const [k, v] of Object.entries(current)) {
        if (k.includes(NUL)) return true;
        stack.push([v, depth + 1]);
      }
    }
  }
  return false;
}

function inspectBody(body: unknown): { field: string; message: string } | undefined {
  if (body === null || typeof body !== 'object') {
    return typeof body === 'string' && body.includes(NUL)
      ? { field: 'body', message: 'The body must not contain NUL characters.' }
      : undefined;
  }
  const stack: [unknown, string, number][] = [[body, '', 0]];
  while (stack.length) {
    const [current, path, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL))
        return { field: path || 'body', message: `${path || 'body'} must not contain NUL characters.` };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH)
      return { field: 'body', message: `The body is nested deeper than ${MAX_JSON_DEPTH} levels.` };
    for (const [key, value] of Object.entries(current)) {
      if (key.includes(NUL))
        return { field: 'body', message: 'Property names must not contain NUL characters.' };
      stack.push([value, path ? `${path}.${key}` : key, depth + 1]);
    }
  }
  return undefined;
}
