import type { components } from './generated/openapi.js';

/** RFC 9457 problem details: the body of errors outside /v1/api, and inside the error envelope. */
export type ProblemDetails = components['schemas']['ProblemDetails'];
/** The error body of /v1/api: `{isError: true, message, statusCode, result: null, responseException}`. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
/** RFC 6749 §5.2 error of /oauth/token. */
export type OAuthErrorBody = components['schemas']['OAuthError'];

/**
 * A non-2xx answer of the service, whichever body it came with: the /v1/api error envelope, an
 * RFC 9457 problem+json body, an RFC 6749 error of /oauth/token, or plain text (a 503 from an
 * instance that is shutting down). `problem` is set for the first two, `oauth` for the third.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The problem details, from the envelope's `responseException.exceptionMessage` or the body. */
  readonly problem: ProblemDetails | undefined;
  /** The envelope itself, when the error came from /v1/api. */
  readonly envelope: ErrorEnvelope | undefined;
  /** The RFC 6749 error, when the error came from /oauth/token. */
  readonly oauth: OAuthErrorBody | undefined;
  /** The body as received (parsed JSON, else text, else undefined). */
  readonly body: unknown;
  /** The request id to quote to support: the problem's traceId, else the X-Request-Id header. */
  readonly traceId: string | undefined;
  /** Seconds from the Retry-After header (429, 503), when present. */
  readonly retryAfterSeconds: number | undefined;
  /** Machine-readable reason where the service gives one (e.g. `inconsistent_history` on 422). */
  readonly reason: string | undefined;

  constructor(response: Response, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body : undefined;
    const problem = envelope?.responseException.exceptionMessage ?? (isProblem(body) ? body : undefined);
    const oauth = isOAuthError(body) ? body : undefined;
    const text =
      problem !== undefined
        ? `${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`
        : oauth !== undefined
          ? `${oauth.error}: ${oauth.error_description}`
          : typeof body === 'string' && body !== ''
            ? body
            : response.statusText || 'request failed';
    super(`${response.status} ${text}`);
    this.status = response.status;
    this.problem = problem;
    this.envelope = envelope;
    this.oauth = oauth;
    this.body = body;
    this.traceId = problem?.traceId ?? response.headers.get('x-request-id') ?? undefined;
    const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    this.retryAfterSeconds = Number.isFinite(retryAfter) ? retryAfter : undefined;
    this.reason = problem?.reason;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** What openapi-fetch resolves to: data on 2xx, error otherwise, and the response. */
interface Settled {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The payload of a success: `result` of the /v1/api envelope, else the body itself. */
export type ResultOf<Data> = Data extends { isError: false; result: infer Result } ? Result : Data;

/** The success variant of an openapi-fetch answer (the one without `error`). */
type SuccessData<T extends Settled> = Exclude<T, { error: unknown }>['data'];

/**
 * Awaits an openapi-fetch call and returns what the caller wants: the `result` of the /v1/api
 * envelope (typed per operation), or the body of operations outside /v1/api. Any non-2xx answer
 * throws an ApiError carrying the typed problem details.
 *
 *     const page = await unwrap(api.GET('/v1/api/accounts', { params: { query: { limit: 50 } } }));
 */
export async function unwrap<T extends Settled>(call: Promise<T> | T): Promise<ResultOf<SuccessData<T>>> {
  const settled = await call;
  if (!settled.response.ok) throw new ApiError(settled.response, settled.error);
  const data = settled.data as SuccessData<T>;
  return (isSuccessEnvelope(data) ? data.result : data) as ResultOf<SuccessData<T>>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isSuccessEnvelope(value: unknown): value is { isError: false; result: unknown } {
  return isObject(value) && value.isError === false && 'result' in value && 'statusCode' in value;
}

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    isObject(value) &&
    value.isError === true &&
    isObject(value.responseException) &&
    isProblem(value.responseException.exceptionMessage)
  );
}

function isProblem(value: unknown): value is ProblemDetails {
  return isObject(value) && typeof value.title === 'string' && typeof value.status === 'number';
}

function isOAuthError(value: unknown): value is OAuthErrorBody {
  return isObject(value) && typeof value.error === 'string' && typeof value.error_description === 'string';
}
