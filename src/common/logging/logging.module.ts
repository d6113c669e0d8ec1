import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { AppConfig } from '../../config/app-config.js';

/**
 * Structured JSON logs (pino) with request id, client id, status and latency.
 * Credentials never reach a log line: Authorization, cookies and client secrets are redacted.
 */
@Module({})
export class LoggingModule {
  /**
   * Lines go to stdout, written synchronously: a line is in the kernel's hands when the call that
   * logged it returns, so neither a crash nor the signal Nest re-raises at the end of a graceful
   * shutdown (which skips 'exit' handlers) can drop lines still buffered. pino's default stdout
   * stream is asynchronous; it is not used. `destination` receives the lines instead (tests).
   */
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
            pinoHttp: [pinoHttpOptions(config), destination ?? pino.destination({ dest: 1, sync: true })],
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
