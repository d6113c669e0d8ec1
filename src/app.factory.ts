/**
 * Builds the HTTP application exactly as production runs it; main.ts and the e2e tests both use
 * this, so tests exercise the real body limits, validation, filters, Swagger and shutdown hooks.
 */
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger, PinoLogger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { AppConfig } from './config/app-config.js';
import type { Clock } from './common/clock/clock.js';
import type { DestinationStream } from 'pino';
import { createValidationPipe } from './common/validation/validation.js';
import { setupSwagger } from './swagger.js';
import { checkRequestInput } from './common/http/request-input.check.js';
import { requestLogger } from './common/logging/request-logger.middleware.js';

export const BODY_LIMIT = '100kb';

export async function createApp(
  config: AppConfig,
  options: { logs?: boolean; clock?: Clock; logDestination?: DestinationStream } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, { clock: options.clock, logDestination: options.logDestination }),
    {
      bufferLogs: true,
      bodyParser: false,
      return503OnClosing: true,
      logger: options.logs === false ? false : undefined,
    },
  );
  if (options.logs !== false || options.logDestination) app.useLogger(app.get(Logger));
  app.set('trust proxy', 'loopback');
  app.set('x-powered-by', false);
  app.set('etag', false);
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
