import './runtime-check.js'; // first: a too-old Node stops here, before anything else loads
import './compile-cache.js'; // then: the modules loaded later (the application's) compile from the cache
import './common/tracing/register.js'; // next: tracing, when configured, hooks Nest, Express and pg before they load
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigValidationError } from './config/app-config.js';
import { loadStartupConfig } from './config/startup-config.js';
import { DatabaseConfigurationError } from './database/database-startup.js';
import {
  DATA_DIR_LOCKED_EXIT_CODE,
  DataDirectoryLockedError,
  lockEmbeddedDataDirectory,
} from './database/data-dir-lock.js';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadStartupConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  // One process per embedded DATA_DIR: refuse here, in one sentence, before anything starts.
  try {
    lockEmbeddedDataDirectory(config);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      console.error(error.message);
      process.exit(DATA_DIR_LOCKED_EXIT_CODE);
    }
    throw error;
  }
  // The application's modules load only now: an invalid configuration or a held DATA_DIR is
  // refused above in a fraction of a second, without loading them. Tracing (imported first,
  // above) still hooks Nest, Express and pg before they load.
  const { createApp } = await import('./app.factory.js');
  const startedAt = Date.now();
  let app;
  try {
    app = await createApp(config);
  } catch (error) {
    // Said in one line when it happened (database-startup.ts); EX_CONFIG like any other
    // configuration error. Anything else ends the process with 1 (the catch below).
    if (error instanceof DatabaseConfigurationError) process.exit(78);
    throw error;
  }
  await app.listen(config.PORT, config.HOST);
  const logger = new Logger('Bootstrap');
  const base = `http://localhost:${config.PORT}`;
  logger.log(
    `Listening on ${base} in ${Date.now() - startedAt} ms (database: ${config.usesEmbeddedDatabase ? `embedded PGlite in ${config.DATA_DIR}` : 'Postgres'})`,
  );
  logger.log(`Swagger UI: ${base}/docs · OpenAPI: ${base}/docs-json`);
  if (config.sandboxEnabled) {
    logger.log(
      'Sandbox credentials (synthetic data): partner sandbox-client / sandbox-secret (tenant sandbox) · tenant B sandbox-b-client / sandbox-b-secret (tenant sandbox-b) · admin sandbox-admin / sandbox-admin-secret (tenant operator, admin API only; name the tenant in each request)',
    );
  }
}

// A start-up that fails ends the process with 1, its cause logged. Not left to Node's default for
// an unhandled rejection: once the application runs, those are logged and the service goes on
// (UnhandledRejections), which would leave a process that never listens.
bootstrap().catch((error: unknown) => {
  Logger.error(
    `The service could not start: ${error instanceof Error ? error.message : String(error)}`,
    error instanceof Error ? error.stack : undefined,
    'Bootstrap',
  );
  process.exit(1);
});
