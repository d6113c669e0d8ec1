/**
 * How the OpenAPI document describes the bodies the service really sends (design §4): the success
 * envelope of /v1/api (EnvelopeInterceptor), and the three error bodies of HttpExceptionFilter.
 * Controllers declare which statuses an operation answers; `describeErrorBodies` gives every error
 * response its body by the same rule the filter uses (the request path), so the two cannot drift.
 * The schema classes here describe JSON only: nothing constructs them.
 */
import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiSchema,
  getSchemaPath,
  type ContentObject,
  type OpenAPIObject,
} from '@nestjs/swagger';
import { statusText, statusTypeUrl } from '../errors/problem-details.js';
import { usesEnvelope } from '../http/request-context.js';

@ApiSchema({
  name: 'ProblemDetails',
  description: 'RFC 9457 problem details (design §4); inside the envelope under /v1/api.',
})
export class ProblemDetailsSchema {
  @ApiProperty({
    description: 'URL of the section of the standard that defines the status (RFC 9110, RFC 6585 for 429).',
    example: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  })
  type: string;

  @ApiProperty({ description: 'Summary of the problem.', example: 'One or more validation errors occurred.' })
  title: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status.', example: 400 })
  status: number;

  @ApiPropertyOptional({ description: 'What went wrong in this request, in words.' })
  detail?: string;

  @ApiProperty({ description: 'The request path (without the query string).', example: '/v1/api/token' })
  instance: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'On validation failures: field (or parameter) name to messages.',
    example: { ClientId: ['The ClientId field is required.'] },
  })
  errors?: Record<string, string[]>;

  @ApiPropertyOptional({
    description: 'Machine-readable reason where one helps (e.g. on 422: `inconsistent_history`).',
  })
  reason?: string;

  @ApiProperty({ description: 'Request id: the X-Request-Id header and the id in the logs.' })
  traceId: string;
}

@ApiSchema({ name: 'ResponseException', description: 'Holder of the problem details in the error envelope.' })
export class ResponseExceptionSchema {
  @ApiProperty({ type: ProblemDetailsSchema, description: 'The problem details.' })
  exceptionMessage: ProblemDetailsSchema;
}

@ApiSchema({ name: 'ErrorEnvelope', description: 'An error under /v1/api.' })
export class ErrorEnvelopeSchema {
  @ApiProperty({ type: 'boolean', enum: [true], description: 'Always true on errors.' })
  isError: true;

  @ApiProperty({ description: 'What went wrong (the problem detail, else its title).' })
  message: string;

  @ApiProperty({ type: 'integer', description: 'Mirrors the HTTP status.', example: 400 })
  statusCode: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: false,
    nullable: true,
    enum: [null],
    description: 'Always null on errors.',
  })
  result: null;

  @ApiProperty({ type: ResponseExceptionSchema, description: 'The problem details.' })
  responseException: ResponseExceptionSchema;
}

@ApiSchema({
  name: 'Envelope',
  description: 'The envelope of every /v1/api success; `result` per operation.',
})
export class EnvelopeSchema {
  @ApiProperty({ type: 'boolean', enum: [false], description: 'Always false on success.' })
  isError: false;

  @ApiProperty({ description: 'Status text.', example: 'OK' })
  message: string;

  @ApiProperty({ type: 'integer', description: 'Mirrors the HTTP status.', example: 200 })
  statusCode: number;
}

@ApiSchema({ name: 'OAuthError', description: 'RFC 6749 §5.2 error of /oauth/token.' })
export class OAuthErrorSchema {
  @ApiProperty({
    enum: ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope'],
    description: 'RFC 6749 §5.2 error code.',
  })
  error: string;

  @ApiProperty({ description: 'What went wrong, in words.' })
  error_description: string;
}

/**
 * A success of an enveloped (/v1/api) operation: `{isError: false, message, statusCode, result}`
 * with `result` of the given type (the interceptor wraps what the handler returns).
 */
export function ApiEnvelopedResponse(
  result: Type<unknown>,
  options: { status?: number; description: string },
): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(EnvelopeSchema, result),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description,
      schema: {
        allOf: [
          { $ref: getSchemaPath(EnvelopeSchema) },
          {
            type: 'object',
            required: ['result'],
            properties: { result: { $ref: getSchemaPath(result) } },
          },
        ],
      },
    }),
  );
}

/** Schemas the document needs whether or not a controller names them. */
export const ERROR_BODY_MODELS = [
  ProblemDetailsSchema,
  ErrorEnvelopeSchema,
  OAuthErrorSchema,
  EnvelopeSchema,
];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const OAUTH_TOKEN_PATH = '/oauth/token';
const WRITE_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch', 'delete']);

/** Accepted by every authenticated write (IdempotencyInterceptor; docs/idempotency.md). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Makes a retry safe: the first request with a key executes and its successful response is kept 24 hours; a retry with the same key and request gets that response again (header `Idempotent-Replayed: true`) without executing twice. The same key with another method, path or body is 422. Errors are not kept: a retry after an error executes again. Keys are per API client.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const DEFAULT_DESCRIPTIONS: Record<string, string> = {
  '400':
    'Malformed input, named in `errors` (a NUL character in the path or query counts on every route; so do unknown query parameters where the operation takes some).',
  '401': 'Bearer token missing, malformed, expired, revoked or of a disabled client.',
  '403': 'The token lacks the scope the operation needs.',
  '409':
    'A request with the same Idempotency-Key is still being processed (reason `idempotency_request_in_progress`; retry after the seconds in Retry-After).',
  '413': 'Request body over the limit.',
  '422':
    'The Idempotency-Key was already used with a different request (reason `idempotency_key_reused`; `errors` names `Idempotency-Key`).',
  '429': 'Rate limit exceeded; retry after the seconds in Retry-After.',
  '500': 'Unexpected error (logged with the traceId; never details in the body).',
  '503':
    'The database is unavailable (retry after the seconds in Retry-After), or this instance is shutting down (a plain-text body with Connection: close; retry on another instance). On an audited read also: the audit trail records reads more slowly than they arrive (reason `audit_backlog`, Retry-After).',
};

/**
 * What each error status's body says, as HttpExceptionFilter words it (issue 31: every status
 * showed the same 400 example). `detail` is the message of the commonest cause; 400 names a field.
 */
const PROBLEM_EXAMPLES: Record<
  string,
  { title?: string; detail: string; errors?: Record<string, string[]>; reason?: string }
> = {
  '400': {
    title: 'One or more validation errors occurred.',
    detail: 'limit: limit must be from 1 to 1000.',
    errors: { limit: ['limit must be from 1 to 1000.'] },
  },
  '401': { detail: 'Bearer token missing or invalid.' },
  '403': { detail: 'This operation needs the scope: admin.' },
  '404': { detail: 'Account not found.' },
  '409': {
    detail:
      'A request with this Idempotency-Key is still being processed; retry after the seconds in Retry-After.',
    reason: 'idempotency_request_in_progress',
  },
  '413': { detail: 'Request body exceeds the limit of 102400 bytes.' },
  '415': { detail: 'Unsupported body encoding or charset.' },
  '422': {
    detail: 'The account needs its owner to reconnect it before its data can be served.',
    reason: 'reconnect_required',
  },
  '429': { detail: 'Rate limit exceeded; retry after the number of seconds in Retry-After.' },
  '500': { detail: 'An unexpected error occurred.' },
  '503': { detail: 'The database is unavailable; retry shortly.' },
};

/** RFC 6749 §5.2 errors of /oauth/token, by status. */
const OAUTH_EXAMPLES: Record<string, { error: string; error_description: string }> = {
  '400': { error: 'invalid_request', error_description: 'Missing grant_type.' },
  '401': { error: 'invalid_client', error_description: 'Client authentication failed.' },
};

/** The body `status` answers on `path`, in the shape the path's errors take. */
function errorExample(path: string, status: string): object | undefined {
  if (path === OAUTH_TOKEN_PATH) return OAUTH_EXAMPLES[status];
  const described = PROBLEM_EXAMPLES[status];
  if (!described) return undefined;
  const code = Number(status);
  const problem = {
    type: statusTypeUrl(code),
    title: described.title ?? statusText(code),
    status: code,
    detail: described.detail,
    instance: path,
    ...(described.errors ? { errors: described.errors } : {}),
    ...(described.reason ? { reason: described.reason } : {}),
    traceId: '5f0c6c1e-9a51-4c86-9b5e-2d7f3f0f1a2b',
  };
  if (!usesEnvelope(path)) return problem;
  return {
    isError: true,
    message: described.detail,
    statusCode: code,
    result: null,
    responseException: { exceptionMessage: problem },
  };
}

const HEADERS: Record<string, Record<string, { description: string; schema: object }>> = {
  '401': {
    'WWW-Authenticate': { description: 'RFC 6750 challenge.', schema: { type: 'string' } },
  },
  '429': {
    'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  },
  '503': {
    'Retry-After': {
      description: 'Seconds to wait before retrying (database outages, an audit backlog).',
      schema: { type: 'integer' },
    },
  },
};

/**
 * Adds the statuses every operation can answer (400, 500, 503; 413 with a body; 401, 403 and 429
 * when secured) and gives every error response the body HttpExceptionFilter sends on that path:
 * the error envelope under /v1/api, RFC 6749 errors on /oauth/token, problem+json elsewhere.
 */
export function describeErrorBodies(document: OpenAPIObject): OpenAPIObject {
  const ref = (model: Type<unknown>) => ({ $ref: getSchemaPath(model) });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      // An operation without security is public (the token endpoints, the JWKS): say so, rather
      // than leave a reader (or a linter) to guess.
      operation.security ??= [];
      const statuses = ['400', '500', '503'];
      if (operation.requestBody) statuses.push('413');
      if ((operation.security ?? []).length > 0) {
        statuses.push('401', '403', '429');
        if (WRITE_METHODS.has(method)) {
          statuses.push('409', '422');
          operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
        }
      }
      for (const status of statuses) {
        operation.responses[status] ??= { description: DEFAULT_DESCRIPTIONS[status] };
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || !response || !('description' in response)) continue;
        const example = errorExample(path, status);
        const body = (schema: Type<unknown>) => ({ schema: ref(schema), ...(example ? { example } : {}) });
        const content: ContentObject =
          path === OAUTH_TOKEN_PATH
            ? { 'application/json': body(OAuthErrorSchema) }
            : usesEnvelope(path)
              ? { 'application/json': body(ErrorEnvelopeSchema) }
              : { 'application/problem+json': body(ProblemDetailsSchema) };
        // A copy: one response object may be shared by several operations' decorators, and each
        // operation's example names its own path.
        operation.responses[status] = {
          ...response,
          content: {
            ...content,
            ...(status === '503'
              ? { 'text/plain': { schema: { type: 'string', example: 'Service Unavailable' } } }
              : {}),
          },
          ...(HEADERS[status] ? { headers: { ...HEADERS[status], ...response.headers } } : {}),
        };
      }
      operation.responses = Object.fromEntries(
        Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
  return document;
}
