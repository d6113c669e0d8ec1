/**
 * The security headers of every answer (docs/decisions.md, "Security headers: pages and API
 * answers"), applied by the request edge (request-edge.ts) before routing.
 */
import helmet from 'helmet';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/app-config.js';

/**
 * Two sets of headers, both from helmet (docs/decisions.md, "Security headers: pages and API
 * answers"):
 *
 * - **Swagger UI** (`/docs` and its assets), the only HTML this service serves: helmet's defaults
 *   (nosniff, frame and referrer policies, a same-origin CSP, cross-origin isolation headers),
 *   with `upgrade-insecure-requests` only in production, as on plain http it would send Swagger
 *   UI's own scripts to an https port nobody listens on. The default CSP suits Swagger UI as
 *   served by @nestjs/swagger: external same-origin scripts, inline styles, data: images (its
 *   online validator badge is switched off in swagger.ts).
 * - **Every other answer** (JSON and problem+json, never rendered as a page): the headers OWASP's
 *   REST Security Cheat Sheet lists for API responses: `nosniff`, `X-Frame-Options: DENY` and a
 *   CSP of `default-src 'none'; frame-ancestors 'none'` (nothing in it may load or be framed),
 *   `Referrer-Policy: no-referrer`, and `Cross-Origin-Resource-Policy: same-origin`. The
 *   page-only headers (cross-origin opener policy, origin-agent-cluster, DNS prefetch, download
 *   options, legacy XSS filter, Flash/PDF policies) mean nothing for JSON, and each header is set
 *   and validated on every answer of the endpoint partners poll.
 *
 * HSTS on both, only in production (a development server on http://localhost must not pin HTTPS
 * in the browser).
 */
export function securityHeaders(config: AppConfig): SecurityHeaders {
  const strictTransportSecurity = config.isProduction
    ? { maxAge: 31_536_000, includeSubDomains: true }
    : false;
  const page = helmet({
    strictTransportSecurity,
    contentSecurityPolicy: {
      directives: { upgradeInsecureRequests: config.isProduction ? [] : null },
    },
  });
  const api = helmet({
    strictTransportSecurity,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  const apiHeaders = recordHeaders(api);
  return {
    apiHeaders,
    apply(req: Request, res: Response, next: NextFunction): void {
      if (isSwaggerUi(req.url)) return page(req, res, next);
      if (!apiHeaders) return api(req, res, next);
      setApiHeaders(res, apiHeaders);
      next();
    },
  };
}

/** The security headers of every answer, as a middleware, and the API answers' ones when fixed. */
export interface SecurityHeaders {
  /** Sets the headers of the request's kind of answer (Swagger UI's page, or an API answer). */
  apply(req: Request, res: Response, next: NextFunction): void;
  /**
   * An API answer's headers, the same for every request (helmet run once at start-up), for a
   * handler ahead of the edge that answers by itself (setApiHeaders); undefined when helmet's configuration
   * makes them depend on the request (then only `apply` gives them).
   */
  readonly apiHeaders: HeaderSteps | undefined;
}

/** The API answers' security headers (securityHeaders().apiHeaders) on a response. */
export function setApiHeaders(res: Response, steps: HeaderSteps): void {
  for (const [name, value] of steps) {
    if (value === undefined) res.removeHeader(name);
    else res.setHeader(name, value);
  }
}

/** What a header middleware does to a response: set (name, value) or remove (name) steps, in order. */
export type HeaderSteps = readonly (readonly [name: string, value: string | undefined])[];

/**
 * The API answers' headers do not depend on the request (no nonce, no per-request directive), so
 * helmet's middleware is run once, at start-up, on a recording response, and each answer then gets
 * the same steps in the same order: the same headers, without helmet walking its middleware chain
 * and setting them one by one for each request (~4 µs of a cached balances read). When the
 * middleware does anything else, or does not finish synchronously, undefined: it runs per request.
 */
function recordHeaders(
  middleware: (req: Request, res: Response, next: (error?: unknown) => void) => void,
): HeaderSteps | undefined {
  const steps: [string, string | undefined][] = [];
  let supported = true;
  const recorder = new Proxy(
    {},
    {
      get(_target, property) {
        if (property === 'setHeader')
          return (name: string, value: unknown) => {
            if (typeof value === 'string') steps.push([name, value]);
            else supported = false;
          };
        if (property === 'removeHeader') return (name: string) => steps.push([name, undefined]);
        supported = false;
        return undefined;
      },
    },
  ) as Response;
  let finished = false;
  middleware({} as Request, recorder, (error?: unknown) => {
    finished = error === undefined;
  });
  return supported && finished ? steps : undefined;
}

/** `/docs`, `/docs/` and its assets (`/docs/swagger-ui.css`, …); not `/docs-json`. */
function isSwaggerUi(url: string): boolean {
  return url.startsWith('/docs') && (url.length === 5 || url[5] === '/' || url[5] === '?');
}
