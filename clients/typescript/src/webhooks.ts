/**
 * Receiving the service's webhooks (docs/events.md): Standard Webhooks signatures verified with the
 * `standardwebhooks` package (the one the service signs with), and the events typed by name. The
 * event names come from the OpenAPI document (the enum of `eventTypes`), so a typo does not compile.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './generated/openapi.js';

export { WebhookVerificationError };

/** The events an endpoint can subscribe to (`eventTypes` of POST/PATCH /v1/api/webhooks). */
export type AccountEventType = components['schemas']['CreateWebhookDto']['eventTypes'][number];
/** Every event the service sends: the account events and `webhook.test` (sent only on request). */
export type WebhookEventType = components['schemas']['WebhookDeliveryDto']['eventType'];

/** A before/after pair of `balances.updated`; decimals are strings. */
export interface Change {
  before: string;
  after: string;
}

/** `data` of each event, as docs/events.md publishes it. Decimals are strings, times ISO 8601 UTC. */
export interface WebhookEventData {
  'account.linked': {
    accountId: string;
    collectionId: string;
    identity: string;
    platform: string;
    address?: string | null;
    chain?: string | null;
    syncStatus: string;
    createdOn: string;
  };
  'account.synced': {
    accountId: string;
    syncStatus: string;
    lastSyncedAt: string;
    balanceSource: string;
    transactions: { added: number; changed: number; removed: number };
  };
  'account.sync_failed': {
    accountId: string;
    syncStatus: string;
    reason: 'source_unavailable' | 'refresh_failed' | 'import_interrupted' | (string & {});
    consecutiveFailures: number;
    nextRetryAt: string | null;
    lastSyncedAt: string | null;
  };
  'account.reconnect_required': {
    accountId: string;
    syncStatus: string;
    connectionStatus: string;
    lastSyncedAt: string | null;
  };
  'account.unlinked': {
    accountId: string;
    collectionId: string;
    identity: string;
    platform: string;
    unlinkedAt: string;
  };
  'balances.updated': {
    accountId: string;
    computedAt: string;
    method: string;
    causedBy?: string;
    assets: { symbol: string; quantity: Change; costBasisUsd: Change; realizedGainUsd: Change }[];
  };
  'transactions.updated': {
    accountId: string;
    added: number;
    changed: number;
    removed: number;
    mode: 'full' | 'incremental';
  };
  'webhook.test': { endpointId: string; message: string };
}

/** An event as POSTed to an endpoint; narrow on `type` to type `data`. */
export type WebhookEvent = {
  [T in WebhookEventType]: {
    type: T;
    /** When the change happened (ISO 8601 UTC). */
    timestamp: string;
    data: T extends keyof WebhookEventData ? WebhookEventData[T] : Record<string, unknown>;
  };
}[WebhookEventType];

/** Request headers as Node (`req.headers`), Express, or fetch (`Headers`) give them. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Verifies a delivery and returns its event: the signature (any of the listed ones) by the
 * endpoint's secret, and a `webhook-timestamp` within 5 minutes of this machine's clock. Throws
 * WebhookVerificationError otherwise: answer 400 and do not act on it.
 *
 * - `payload`: the raw body, byte for byte (e.g. `express.raw({ type: 'application/json' })`); a
 *   re-serialised JSON object does not match the signature.
 * - `secret`: the endpoint's `whsec_…` secret; during your own rotation, several (each is tried).
 *
 * Deliveries are at least once: deduplicate by the `webhook-id` header (the same on every retry).
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): WebhookEvent {
  const required = Object.fromEntries(SIGNATURE_HEADERS.map((name) => [name, header(headers, name)]));
  const missing = SIGNATURE_HEADERS.filter((name) => required[name] === undefined);
  if (missing.length > 0)
    throw new WebhookVerificationError(`Missing required headers: ${missing.join(', ')}`);
  // The package signs the UTF-8 text (a Buffer is turned into one too): decode here, which also
  // works outside Node.
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs at least one secret');
  let failure: unknown;
  for (const candidate of secrets) {
    try {
      return new Webhook(candidate).verify(body, required as Record<string, string>) as WebhookEvent;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      failure = error;
    }
  }
  throw failure;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof value === 'string' ? value : Array.isArray(value) ? value.join(' ') : undefined;
}
