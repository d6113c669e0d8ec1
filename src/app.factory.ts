/**
 * Builds the HTTP application exactly as production runs it; main.ts and the e2e tests both use
 * this, so tests exercise the real body limits, validation, filters, Swagger and shutdown hooks.
 */
import { NestFactory } from '@nestjs/core';
import helmet from 'helmet';
import type { NextFunction, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { PinoLogger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { AppConfig } from './config/app-config.js';
import type { Clock } from './common/clock/clock.js';
import type { DestinationStream } from 'pino';
import { createValidationPipe } from './common/validation/validation.js';
import { setupSwagger } from './swagger.js';
import { HttpMetrics } from './modules/metrics/http-metrics.js';
import { checkRequestInput } from './common/http/request-input.check.js';
import { requestLogger } from './common/logging/request-logger.middleware.js';
import { createServiceLogger, loggerParams } from './common/logging/logging.module.js';

export const BODY_LIMIT = '100kb';

export async function createApp(
  config: AppConfig,
  options: { logs?: boolean; clock?: Clock; logDestination?: DestinationStream } = {},
): Promise<NestExpressApplication> {
  const logging = loggerParams(config, options.logDestination);
  // Nest logs through pino from its first line, each line when it happens (no bufferLogs).
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, { clock: options.clock, logging }),
    {
      bodyParser: false,
      return503OnClosing: true,
      logger: options.logs === false && !options.logDestination ? false : createServiceLogger(logging),
    },
  );
  // Only configured proxies may name the client's address (rate limits key on it); none by default.
  app.set('trust proxy', config.trustProxy);
  app.set('x-powered-by', false);
  app.set('etag', false);
  // Timing first, so every answer is counted (docs/observability.md).
  app.use(app.get(HttpMetrics).middleware());
  // Security headers first, so every answer carries them: errors of the body parser, unknown
  // routes and the cached balances fast path (which writes its answers itself) included.
  app.use(securityHeaders(config));
  // Request id and the request's log line first, so even a body the parser rejects gets both.
  // Outside a request PinoLogger.logger is nestjs-pino's root logger (the one all logs go through).
  app.use(requestLogger((await app.resolve(PinoLogger)).logger));
  app.useBodyParser('json', { limit: BODY_LIMIT, strict: true });
  app.useBodyParser('urlencoded', { limit: BODY_LIMIT, extended: false, parameterLimit: 50 });
  app.use(checkRequestInput);
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupSwagger(app);
  return app;
}

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
export function securityHeaders(config: AppConfig) {
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
  return function securityHeadersOf(req: Request, res: Response, next: NextFunction): void {
    if (isSwaggerUi(req.url)) return page(req, res, next);
    if (!apiHeaders) return api(req, res, next);
    for (const [name, value] of apiHeaders) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

/** What a header middleware does to a response: set (name, value) or remove (name) steps, in order. */
type HeaderSteps = readonly (readonly [name: string, value: string | undefined])[];

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
