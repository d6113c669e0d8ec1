/**
 * TypeScript SDK of the Cryptoasset Accounts, Scoring and Reporting Service: openapi-fetch over
 * types generated from the service's OpenAPI document (src/generated, `npm run sdk:generate` in
 * the service's repository), with a client-credentials token helper, retries, idempotency keys,
 * auto-pagination, typed errors and webhook verification.
 */
import type { components } from './generated/openapi.js';

export { createServiceClient, type ServiceClient, type ServiceClientOptions } from './client.js';
export { TokenProvider, type AccessToken, type TokenProviderOptions } from './token.js';
export {
  ApiError,
  isApiError,
  unwrap,
  type ErrorEnvelope,
  type OAuthErrorBody,
  type ProblemDetails,
  type ResultOf,
} from './errors.js';
export {
  paginate,
  type ListItem,
  type ListPage,
  type ListParams,
  type ListPath,
  type Paginated,
} from './pagination.js';
export { parseRetryAfter, withRetries, type RetryOptions } from './retry.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type AccountEventType,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookHeaders,
} from './webhooks.js';
export type { components, operations, paths } from './generated/openapi.js';
export { CURSOR_LISTS, IDEMPOTENT_WRITES } from './generated/operations.js';
export { API_VERSION } from './generated/version.js';

/** A schema of the document by name, e.g. `Schema<'BalancesResultDto'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
