import {
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Response } from 'express';
import { from, switchMap, type Observable } from 'rxjs';
import { DomainError } from '../../common/errors/domain-error.js';
import type { ServiceRequest } from '../../common/http/request-context.js';
import { bufferStreamedBody, hasStreamedBody } from '../../common/http/csv-body.js';
import { ReplayedResponse, type StoredResponse } from '../../common/http/replayed-response.js';
import { IdempotencyService, type IdempotentCaller } from './idempotency.service.js';
import { IDEMPOTENCY_KEY_PATTERN, requestFingerprint } from './request-fingerprint.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Response headers a replay repeats (besides the status and body). */
const KEPT_HEADERS = ['content-type', 'location', 'content-disposition', 'cache-control'];
/** Larger responses are not kept; their key is freed, so a retry executes again. */
const MAX_STORED_BODY_BYTES = 1024 * 1024;

/**
 * Idempotency-Key on every authenticated write (see IdempotencyService for the semantics). Runs
 * after the guards, so a retry is still authenticated, scope-checked and rate-limited; without
 * the header a request is untouched. The response is captured as it is written (success bodies,
 * and error bodies from the exception filter alike) and stored before it is sent, so a retry that
 * arrives after the first response always finds it.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<ServiceRequest>();
    const header = request.headers['idempotency-key'];
    if (header === undefined || !WRITE_METHODS.has(request.method) || !request.user) return next.handle();
    const key = Array.isArray(header) ? header.join(',') : header;
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw DomainError.validation('Idempotency-Key', 'Must be 1 to 255 visible ASCII characters.');
    }
    const caller: IdempotentCaller = { tenantId: request.user.tenantId, clientId: request.user.clientId };
    const response = context.switchToHttp().getResponse<Response>();
    let fingerprint = '';
    const admit = async () => {
      // An upload (a CSV, a multipart form) is read first, so the fingerprint covers the file.
      if (hasStreamedBody(request)) await bufferStreamedBody(request);
      fingerprint = requestFingerprint(request.method, request.originalUrl, request.body);
      return this.idempotency.admit(caller, key, fingerprint);
    };
    return from(admit()).pipe(
      switchMap((admission) => {
        if (admission.kind === 'replay') throw new ReplayedResponse(admission.response);
        this.captureResponse(response, (stored) => this.idempotency.settle(caller, key, fingerprint, stored));
        return next.handle();
      }),
    );
  }

  /**
   * Holds back the end of the response until `settle` has stored it (or freed the key). Express
   * sends a JSON or text body with one end(); a response written in pieces is not kept.
   */
  private captureResponse(
    response: Response,
    settle: (stored: StoredResponse | null) => Promise<void>,
  ): void {
    let streamed = false;
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    response.write = ((...args: unknown[]) => {
      streamed = true;
      return write(...args);
    }) as Response['write'];
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    response.end = ((...args: unknown[]) => {
      response.end = end as Response['end'];
      const [chunk, encoding] = args;
      const body =
        chunk === undefined || typeof chunk === 'function'
          ? Buffer.alloc(0)
          : Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(
                String(chunk),
                typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
              );
      const stored =
        streamed || body.length > MAX_STORED_BODY_BYTES
          ? null
          : { status: response.statusCode, headers: keptHeaders(response), body: body.toString('utf8') };
      settle(stored)
        .catch((error: unknown) =>
          // The response still goes out; the key stays claimed until its lock lapses (then a retry executes).
          this.logger.error(
            { err: error instanceof Error ? error.message : String(error) },
            'could not settle idempotency key',
          ),
        )
        .finally(() => end(...args));
      return response;
    }) as Response['end'];
  }
}

function keptHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.getHeader(name);
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
