/**
 * Builds the HTTP application exactly as production runs it; main.ts and the e2e tests both use
 * this, so tests exercise the real body limits, validation, filters, Swagger and shutdown hooks.
 */
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { AppConfig } from './config/app-config.js';
import type { Clock } from './common/clock/clock.js';
import type { DestinationStream } from 'pino';
import { createValidationPipe } from './common/validation/validation.js';
import { setupSwagger } from './swagger.js';
import { HttpMetrics } from './modules/metrics/index.js';
import { checkRequestInput } from './common/http/request-input.check.js';
import { RequestLog } from './common/logging/request-log.js';
import { RequestEdge } from './common/http/request-edge.js';
import { securityHeaders } from './common/http/security-headers.js';
import { createServiceLogger, loggerParams, requestLines } from './common/logging/logging.module.js';

export const BODY_LIMIT = '100kb';

export async function createApp(
  config: AppConfig,
  options: { logs?: boolean; clock?: Clock; logDestination?: DestinationStream } = {},
): Promise<NestExpressApplication> {
  const logging = loggerParams(config, options.logDestination);
  // Nest logs through pino from its first line, each line when it happens (no bufferLogs).
  // Nest's Express adapter, with the cached balances fast path ahead of Express (its one seam).
  // Imported here, not at the top: it loads Express, which tracing (common/tracing/register.ts)
  // hooks before it loads.
  const { FastPathHttpAdapter } = await import('./modules/account-data/fast-path/index.js');
  const adapter = new FastPathHttpAdapter();
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, { clock: options.clock, logging }),
    adapter,
    {
      bodyParser: false,
      return503OnClosing: true,
      // A failed start rejects (Nest has logged it) instead of Nest ending the process with 1 on
      // its own: main.ts chooses the status (78 when the database refuses DATABASE_URL's
      // credentials), and a test's failed app fails its test instead of ending Jest.
      abortOnError: false,
      logger: options.logs === false && !options.logDestination ? false : createServiceLogger(logging),
    },
  );
  // Only configured proxies may name the client's address (rate limits key on it); none by default.
  app.set('trust proxy', config.trustProxy);
  app.set('x-powered-by', false);
  app.set('etag', false);
  // The request edge first: timing (so every answer is counted), the request id and its log line,
  // and the security headers (so every answer carries them: errors of the body parser and unknown
  // routes included).
  const edge = new RequestEdge(
    app.get(HttpMetrics),
    new RequestLog(requestLines(config, logging)),
    securityHeaders(config),
  );
  adapter.install(app, edge);
  app.use(edge.enter);
  app.useBodyParser('json', { limit: BODY_LIMIT, strict: true });
  app.useBodyParser('urlencoded', { limit: BODY_LIMIT, extended: false, parameterLimit: 50 });
  app.use(checkRequestInput);
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupSwagger(app);
  return app;
}
