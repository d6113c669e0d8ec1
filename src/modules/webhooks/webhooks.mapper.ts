import type { WebhookDeliveryDto, WebhookEndpointDto } from './dto/webhooks.dto.js';
import type { DeliveryRow, EndpointRow } from './webhooks.repository.js';

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

export function toEndpoint(row: EndpointRow, now: Date): WebhookEndpointDto {
  const overlap = row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
    previousSecretExpiresAt: overlap ? iso(row.previous_secret_expires_at) : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toDelivery(row: DeliveryRow): WebhookDeliveryDto {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    accountId: row.account_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastAttemptAt: iso(row.last_attempt_at),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    responseExcerpt: row.response_excerpt,
    deliveredAt: iso(row.delivered_at),
    replayOf: row.replay_of,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
