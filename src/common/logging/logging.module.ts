import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { AppConfig } from '../../config/app-config.js';

/**
 * Structured JSON logs (pino) with request id, client id, status and latency.
 * Credentials never reach a log line: Authorization, cookies and client secrets are redacted.
 */
@Module({})
export class LoggingModule {
  /** `destination` receives the JSON lines instead of stdout (tests read them). */
  static forRoot(destination?: DestinationStream): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [AppConfig],
          // The root logger comes from these options; the per-request line is written by
          // requestLogger (mounted in createApp). nestjs-pino's own middleware is mounted on no
          // route: it would run every request in an AsyncLocalStorage scope, which on Node 20
          // puts a promise hook on every promise in the process (docs/decisions.md,
          // "No AsyncLocalStorage per request").
          useFactory: (config: AppConfig) => ({
            pinoHttp: destination ? [pinoHttpOptions(config), destination] : pinoHttpOptions(config),
            useExisting: true as const,
            forRoutes: [],
          }),
        }),
      ],
    };
  }
}

/** Options of the root logger (pino-http builds it; its own middleware is not mounted). */
function pinoHttpOptions(config: AppConfig): Options {
  return {
    level: config.LOG_LEVEL,
    // Request and response lines are plain objects built by requestLogger; these paths guard
    // every other log call against credentials.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers.clientsecret',
        'req.body.clientSecret',
        'req.body.client_secret',
        'res.headers["set-cookie"]',
        '*.clientSecret',
        '*.client_secret',
        '*.password',
      ],
      censor: '[redacted]',
    },
  };
}
