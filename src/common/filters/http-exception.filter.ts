/**
 * The one place where errors become HTTP responses (design §4):
 * - under /v1/api: the envelope with `responseException.exceptionMessage` (ProblemDetails);
 * - elsewhere: RFC 9457 application/problem+json;
 * - /oauth/token: RFC 6749 §5.2 bodies.
 * Never a stack trace, SQL text or secret in a body; unknown errors are logged and become a
 * generic 500.
 */
import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { DomainError, ErrorCode, type FieldErrors } from '../errors/domain-error.js';
import { isDatabaseUnavailable } from '../errors/database-unavailable.js';
import { OAuthError } from '../errors/oauth-error.js';
import { statusForCode, statusText, statusTypeUrl, type ProblemDetails } from '../errors/problem-details.js';
import { usesEnvelope, type ServiceRequest } from '../http/request-context.js';
import { REPLAYED_HEADER, ReplayedResponse } from '../http/replayed-response.js';

interface Described {
  status: number;
  title: string;
  detail?: string;
  errors?: FieldErrors;
  reason?: string;
  /** A DTO validation failure (the envelope's `message` is then the title, as the spec shows). */
  validation?: boolean;
  /** Retry-After in seconds; 503s default to DEFAULT_RETRY_AFTER_SECONDS. */
  retryAfterSeconds?: number;
}

/** What a 503 without a more specific hint (a database outage) tells the client to wait. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<ServiceRequest>();
    const response = http.getResponse<Response>();
    if (response.headersSent) return;
    const traceId = String(request.id ?? '');

    if (exception instanceof ReplayedResponse) {
      const { status, headers, body } = exception.response;
      response.status(status).set(headers).setHeader(REPLAYED_HEADER, 'true');
      response.send(Buffer.from(body, 'utf8'));
      return;
    }

    if (exception instanceof OAuthError) {
      response.setHeader('Cache-Control', 'no-store');
      response.setHeader('Pragma', 'no-cache');
      if (exception.status === 401 && exception.usedBasicAuth) {
        response.setHeader('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
      }
      request.problem = { detail: exception.description, reason: exception.error };
      response
        .status(exception.status)
        .json({ error: exception.error, error_description: exception.description });
      return;
    }

    const described = this.describe(exception, request);
    // The request's log line says what went wrong, as the answer does (request-log.ts).
    request.problem = {
      detail: described.detail ?? described.title,
      ...(described.reason ? { reason: described.reason } : {}),
    };
    const retryAfter =
      described.retryAfterSeconds ?? (described.status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    if ((request.path ?? request.url) === '/oauth/token') {
      // Generic OAuth2 clients parse only RFC 6749 §5.2 bodies, whatever failed. A 503 uses the
      // code RFC 6749 §4.1.2.1 defines for "try again later" (the token endpoint has none of its own).
      response.setHeader('Cache-Control', 'no-store');
      const error =
        described.status === 401
          ? 'invalid_client'
          : described.status === 503
            ? 'temporarily_unavailable'
            : 'invalid_request';
      response
        .status(described.status)
        .json({ error, error_description: described.detail ?? described.title });
      return;
    }
    if (described.status >= 500) {
      this.logger.error(
        {
          err:
            exception instanceof Error
              ? { name: exception.name, message: exception.message, stack: exception.stack }
              : exception,
          reqId: traceId,
          traceId,
        },
        'request failed',
      );
    }
    if (described.status === 401) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="crypto-asset-service", error="invalid_token"');
    }

    const problem: ProblemDetails = {
      type: statusTypeUrl(described.status),
      title: described.title,
      status: described.status,
      detail: described.detail ?? described.title,
      instance: request.originalUrl?.split('?')[0] ?? request.url,
      ...(described.errors ? { errors: described.errors } : {}),
      ...(described.reason ? { reason: described.reason } : {}),
      traceId,
    };

    if (usesEnvelope(request.path ?? request.url)) {
      response.status(described.status).json({
        isError: true,
        // The spec's validation body says "One or more validation errors occurred." here.
        message: described.validation ? described.title : (described.detail ?? described.title),
        statusCode: described.status,
        result: null,
        responseException: { exceptionMessage: problem },
      });
      return;
    }
    response.status(described.status).type('application/problem+json').send(JSON.stringify(problem));
  }

  private describe(exception: unknown, request: ServiceRequest): Described {
    if (exception instanceof DomainError) {
      const status = statusForCode(exception.code);
      const isValidation = exception.code === ErrorCode.ValidationFailed;
      return {
        status,
        title: isValidation ? 'One or more validation errors occurred.' : statusText(status),
        detail:
          isValidation && exception.fieldErrors
            ? summarizeFieldErrors(exception.fieldErrors)
            : exception.message,
        errors: exception.fieldErrors,
        reason: exception.reason,
        validation: isValidation,
        retryAfterSeconds: exception.retryAfterSeconds,
      };
    }
    // Nest wraps body-parser failures (malformed JSON, too large) in an HttpException with the cause.
    const cause = exception instanceof HttpException ? exception.cause : exception;
    if (isBodyParserError(cause)) return describeBodyParserError(cause);
    if (exception instanceof HttpException && exception.cause instanceof URIError) {
      return {
        status: 400,
        title: statusText(400),
        detail: 'The request path is not validly percent-encoded.',
        errors: { path: ['Invalid percent-encoding.'] },
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
      if (status === 404 && /^Cannot [A-Z]+ /.test(String(message))) {
        return {
          status,
          title: statusText(status),
          detail: `No route for ${request.method} ${request.path}.`,
        };
      }
      if (status === 429) {
        return {
          status,
          title: statusText(status),
          detail: 'Rate limit exceeded; retry after the number of seconds in Retry-After.',
        };
      }
      return { status, title: statusText(status), detail: typeof message === 'string' ? message : undefined };
    }
    if (isDatabaseUnavailable(exception)) {
      return { status: 503, title: statusText(503), detail: 'The database is unavailable; retry shortly.' };
    }
    if (exception instanceof QueryFailedError) {
      return { status: 500, title: statusText(500), detail: 'An unexpected error occurred.' };
    }
    return { status: 500, title: statusText(500), detail: 'An unexpected error occurred.' };
  }
}

/** Validation fields shown in `detail` before "and N more" (every field is in `errors`). */
const DETAIL_MAX_FIELDS = 5;

/**
 * `detail` of a validation failure: the field and what is wrong with it, e.g. "clientId: clientId
 * must be a string.", or "2 fields failed validation: a: ... b: ...". Messages are ours (DTO
 * constraints), never the input's value.
 */
export function summarizeFieldErrors(errors: FieldErrors): string {
  const fields = Object.entries(errors);
  const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
  const describe = ([field, messages]: [string, string[]]) => `${field}: ${messages.map(sentence).join(' ')}`;
  if (fields.length === 1) return describe(fields[0]!);
  const shown = fields.slice(0, DETAIL_MAX_FIELDS).map(describe).join(' ');
  const more = fields.length > DETAIL_MAX_FIELDS ? ` And ${fields.length - DETAIL_MAX_FIELDS} more.` : '';
  return `${fields.length} fields failed validation: ${shown}${more}`;
}

interface BodyParserError extends Error {
  type: string;
  status?: number;
  limit?: number;
}

function describeBodyParserError(error: BodyParserError): Described {
  switch (error.type) {
    case 'entity.too.large':
      return {
        status: 413,
        title: statusText(413),
        detail: `Request body exceeds the limit of ${error.limit} bytes.`,
      };
    case 'entity.parse.failed':
      return {
        status: 400,
        title: 'Malformed JSON body.',
        detail: 'The request body is not valid JSON.',
        errors: { body: ['The request body is not valid JSON.'] },
      };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, title: statusText(415), detail: 'Unsupported body encoding or charset.' };
    default: {
      // Unreadable bodies (bad gzip, aborted upload): say so without the decoder's own message.
      const status = error.status ?? 400;
      return {
        status,
        title: statusText(status),
        detail: 'The request body could not be read.',
        ...(status === 400
          ? {
              errors: {
                body: ['The request body could not be read (check Content-Encoding and Content-Length).'],
              },
            }
          : {}),
      };
    }
  }
}

/** An http-errors error from the body parser: typed, or a decoding failure (bad gzip) it wrapped. */
function isBodyParserError(error: unknown): error is BodyParserError {
  return (
    error instanceof Error &&
    'expose' in error &&
    ('type' in error || 'statusCode' in error || 'status' in error)
  );
}
