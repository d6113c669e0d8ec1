import { STATUS_CODES } from 'node:http';
import { ErrorCode, type FieldErrors } from './domain-error.js';

/** RFC 9457 problem details, plus `errors` on validation and `traceId` for support. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: FieldErrors;
  reason?: string;
  traceId: string;
}

/** Where each status is defined (RFC 9110 §15, RFC 6585 for 429). */
const STATUS_DEFINITIONS: Record<number, string> = {
  400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  401: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
  403: 'https://tools.ietf.org/html/rfc9110#section-15.5.4',
  404: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
  405: 'https://tools.ietf.org/html/rfc9110#section-15.5.6',
  409: 'https://tools.ietf.org/html/rfc9110#section-15.5.10',
  413: 'https://tools.ietf.org/html/rfc9110#section-15.5.14',
  415: 'https://tools.ietf.org/html/rfc9110#section-15.5.16',
  422: 'https://tools.ietf.org/html/rfc9110#section-15.5.21',
  429: 'https://tools.ietf.org/html/rfc6585#section-4',
  500: 'https://tools.ietf.org/html/rfc9110#section-15.6.1',
  502: 'https://tools.ietf.org/html/rfc9110#section-15.6.3',
  503: 'https://tools.ietf.org/html/rfc9110#section-15.6.4',
};

export function statusTypeUrl(status: number): string {
  return STATUS_DEFINITIONS[status] ?? 'about:blank';
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/** Exhaustive: adding a code without a status is a compile error. */
export function statusForCode(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.ValidationFailed:
      return 400;
    case ErrorCode.Unauthenticated:
      return 401;
    case ErrorCode.Forbidden:
      return 403;
    case ErrorCode.NotFound:
      return 404;
    case ErrorCode.Conflict:
      return 409;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.Unprocessable:
      return 422;
    case ErrorCode.RateLimited:
      return 429;
    case ErrorCode.Internal:
      return 500;
    case ErrorCode.UpstreamUnavailable:
      return 502;
    case ErrorCode.ServiceUnavailable:
      return 503;
  }
}
