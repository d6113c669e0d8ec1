import { Module, type DynamicModule } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { AppConfig } from '../../config/app-config.js';
import type { ServiceRequest } from '../http/request-context.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honour a caller's X-Request-Id when it is safe to echo; otherwise mint one. Always echoed back. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const assigned = (req as { id?: unknown }).id;
  if (typeof assigned === 'string') return assigned;
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

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
          useFactory: (config: AppConfig) => ({
            pinoHttp: destination ? [pinoHttpOptions(config), destination] : pinoHttpOptions(config),
          }),
        }),
      ],
    };
  }
}

function pinoHttpOptions(config: AppConfig): Options {
  return {
    level: config.LOG_LEVEL,
    genReqId: requestIdFor,
    customProps: (req: IncomingMessage) => {
      const user = (req as ServiceRequest).user;
      return user ? { clientId: user.clientId, tenantId: user.tenantId } : {};
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url?.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
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
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    quietReqLogger: true,
  };
}
