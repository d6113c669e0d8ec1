/**
 * Services throw DomainError with a code; they never import HTTP exceptions.
 * HttpExceptionFilter maps each code to a status and to the two body shapes (design §4).
 */
export enum ErrorCode {
  ValidationFailed = 'validation_failed',
  Unauthenticated = 'unauthenticated',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  Conflict = 'conflict',
  Unprocessable = 'unprocessable',
  RateLimited = 'rate_limited',
  PayloadTooLarge = 'payload_too_large',
  ServiceUnavailable = 'service_unavailable',
  UpstreamUnavailable = 'upstream_unavailable',
  Internal = 'internal',
}

/** Field name → messages, as in ProblemDetails `errors`. */
export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
    /** Machine-readable reason for clients, e.g. "initial_sync_pending" on a 422. */
    readonly reason?: string,
    /** Seconds the client should wait (429, 503): sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static validation(field: string, message: string): DomainError {
    return new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', {
      [field]: [message],
    });
  }

  /** A refusal the client should retry after `retryAfterSeconds` (429 or 503 with Retry-After). */
  static retryLater(
    code: ErrorCode.RateLimited | ErrorCode.ServiceUnavailable,
    message: string,
    retryAfterSeconds: number,
  ): DomainError {
    return new DomainError(code, message, undefined, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
  }

  static notFound(what: string): DomainError {
    return new DomainError(ErrorCode.NotFound, `${what} not found.`);
  }
}
