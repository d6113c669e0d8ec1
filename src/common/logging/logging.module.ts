import { Module, type DynamicModule } from '@nestjs/common';
import { Logger, LoggerModule, PinoLogger, type Params } from 'nestjs-pino';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { AppConfig } from '../../config/app-config.js';
import { RenderedLines } from './rendered-lines.js';
import { TurnBatchedStream } from './turn-batched.stream.js';

/**
 * Structured logs (pino) with request id, client id, status and latency: one JSON object a line,
 * or readable lines (pino-pretty) on a terminal (LOG_FORMAT). Levels are named ("level":"info").
 * Credentials never reach a log line: Authorization, cookies and client secrets are redacted.
 */
@Module({})
export class LoggingModule {
  /** `params` from loggerParams(): the same ones createServiceLogger() wrote the start-up with. */
  static forRoot(params: Params): DynamicModule {
    return { module: LoggingModule, imports: [LoggerModule.forRoot(params)] };
  }
}

/**
 * nestjs-pino's parameters: the root logger (pino-http builds it from these options; its own
 * middleware is mounted on no route — the per-request line is written by RequestLog, part of
 * createApp's request edge — since it would run every request in an AsyncLocalStorage scope, which on Node 20
 * puts a promise hook on every promise in the process: docs/decisions.md, "No AsyncLocalStorage
 * per request").
 *
 * Lines go to stdout, written synchronously in both formats: a line is in the kernel's hands when
 * the call that logged it returns, so neither a crash nor the signal Nest re-raises at the end of
 * a graceful shutdown (which skips 'exit' handlers) can drop lines still buffered. pino's default
 * stdout stream is asynchronous; it is not used. `destination` receives JSON lines instead (tests).
 */
export function loggerParams(config: AppConfig, destination?: DestinationStream): Params {
  const stream =
    destination ??
    (config.logFormat(process.stdout.isTTY === true) === 'pretty'
      ? prettyStdout()
      : pino.destination({ dest: 1, sync: true }));
  return { pinoHttp: [rootLoggerOptions(config), stream], useExisting: true, forRoutes: [] };
}

/**
 * Where the request lines (RequestLog) go: a logger with the root logger's options and
 * destination, lines handed to it once per turn of the event loop (TurnBatchedStream: one write
 * for every request answered in a turn; at ~15k requests/s one system call per line was a tenth
 * of a cached read's cost), each line's members rendered by RequestLog itself (RenderedLines).
 * Request lines carry only the method, the path, the status and ids, never headers, query or
 * body, so they skip the root's redaction paths (its wildcard paths made each line walk every
 * field: ~5 µs a request) and its serializers of raw Node objects.
 */
export function requestLines(config: AppConfig, params: Params): RenderedLines {
  const [, destination] = params.pinoHttp as [LoggerOptions, DestinationStream];
  return new RenderedLines(
    pino({ ...rootLoggerOptions(config), redact: undefined }, new TurnBatchedStream(destination)),
  );
}

/**
 * Nest's lines that only say a module was instantiated or a route mapped (about 100 at each
 * start): debug, so that at info the start-up reads as what the service did.
 */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** nestjs-pino's Logger, with Nest's module-loading and route-mapping lines at debug. */
export class ServiceLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context))
      this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}

/**
 * The logger Nest writes through from its first line on, given to NestFactory.create. Nest's usual
 * `bufferLogs` + `useLogger(app.get(Logger))` held every start-up line until the application was
 * built and then wrote them all at once, each stamped with the time of that write (~100 lines
 * within 16 ms, 3 s late). This one writes each line when it is logged, through the same root
 * logger nestjs-pino's PinoLogger uses (nestjs-pino builds that once per process, from the first
 * parameters it sees: these).
 */
export function createServiceLogger(params: Params): ServiceLogger {
  return new ServiceLogger(new PinoLogger(params), params);
}

function rootLoggerOptions(config: AppConfig): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    formatters: { level: (label) => ({ level: label }) },
    // Request lines are rendered by RequestLog itself (requestLines); these paths guard
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

/** The fields of a request line (RequestLog) that pretty lines summarise. */
interface RequestFields {
  req?: { method?: unknown; url?: unknown };
  res?: { statusCode?: unknown };
  responseTime?: unknown;
}

/**
 * One line an event, for a person at a terminal:
 *
 *   [07:21:03.412] INFO: [Bootstrap] Listening on http://localhost:3000 in 2874 ms (…)
 *   [07:21:09.020] WARN: GET /v1/api/account/…/balances 401 2 ms {"reqId":"…"}
 *
 * Local time of day, the level's name, the context, the message (a request's method, path, status
 * and latency); other fields follow as JSON on the same line, an error's stack below it.
 */
function prettyStdout(): DestinationStream {
  return pretty({
    destination: 1,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    // Only `err` holds an Error; RefreshService's `error` is the error's name, a plain field.
    errorLikeObjectKeys: ['err'],
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: (log, messageKey) => {
      const context = typeof log.context === 'string' ? `[${log.context}] ` : '';
      const { req, res, responseTime } = log as RequestFields;
      if (req && res && typeof responseTime === 'number')
        return `${context}${String(req.method)} ${String(req.url)} ${String(res.statusCode)} ${responseTime} ms`;
      return `${context}${String(log[messageKey] ?? '')}`;
    },
  });
}
