/**
 * Partner webhook endpoints (docs/events.md): register, list, change, delete, rotate the secret,
 * send a test event, list deliveries, replay one. Everything is scoped to the caller's tenant:
 * another tenant's endpoint or delivery answers 404 exactly as one that does not exist.
 */
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { AppConfig } from '../../config/app-config.js';
import { ACCOUNT_EVENT_TYPES } from '../../common/ports/account-events.port.js';
import { OutboxRecorder } from './outbox.recorder.js';
import { newWebhookSecret, WebhookSecretCipher } from './webhook-secrets.js';
import { checkWebhookTarget, WebhookUrlError } from './webhook-url.js';
import {
  WebhooksRepository,
  type DeliveryRow,
  type DeliveryStatus,
  type EndpointChange,
  type EndpointRow,
} from './webhooks.repository.js';

export const DELIVERIES_PAGE_SIZE = 50;
export const MAX_DELIVERIES_PAGE_SIZE = 200;

export interface NewEndpoint {
  readonly url: string;
  readonly eventTypes: readonly string[];
  readonly description?: string;
}

export interface DeliveryPage {
  readonly deliveries: readonly DeliveryRow[];
  readonly nextCursor: string | null;
}

const isSeqCursor = (value: unknown): value is { s: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { s: unknown }).s === 'string' &&
  /^\d{1,19}$/.test((value as { s: string }).s);

@Injectable()
export class WebhooksService {
  constructor(
    private readonly repository: WebhooksRepository,
    private readonly cipher: WebhookSecretCipher,
    private readonly outbox: OutboxRecorder,
    private readonly cursors: CursorCodec,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(tenantId: string, input: NewEndpoint): Promise<{ endpoint: EndpointRow; secret: string }> {
    const url = await this.checkUrl(input.url);
    const eventTypes = checkEventTypes(input.eventTypes);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const now = this.clock.now();
    await this.repository.insertEndpoint({
      id,
      tenant_id: tenantId,
      url,
      description: input.description ?? null,
      event_types: eventTypes,
      secret_encrypted: await this.cipher.encrypt(id, secret),
      created_at: now,
      updated_at: now,
    });
    return { endpoint: await this.get(tenantId, id), secret };
  }

  list(tenantId: string): Promise<EndpointRow[]> {
    return this.repository.listEndpoints(tenantId);
  }

  async get(tenantId: string, id: string): Promise<EndpointRow> {
    const endpoint = await this.repository.findEndpoint(tenantId, id);
    if (!endpoint) throw DomainError.notFound('Webhook endpoint');
    return endpoint;
  }

  async update(tenantId: string, id: string, change: EndpointChange): Promise<EndpointRow> {
    await this.get(tenantId, id);
    const checked: EndpointChange = {
      ...change,
      ...(change.url !== undefined ? { url: await this.checkUrl(change.url) } : {}),
      ...(change.eventTypes !== undefined ? { eventTypes: checkEventTypes(change.eventTypes) } : {}),
    };
    const updated = await this.repository.updateEndpoint(tenantId, id, checked, this.clock.now());
    if (!updated) throw DomainError.notFound('Webhook endpoint');
    return updated;
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!(await this.repository.deleteEndpoint(tenantId, id))) throw DomainError.notFound('Webhook endpoint');
  }

  /**
   * A new secret; the old one keeps signing alongside it for WEBHOOK_SECRET_OVERLAP_HOURS (both
   * signatures go in `webhook-signature`), so the receiver can switch without losing a delivery.
   */
  async rotateSecret(tenantId: string, id: string): Promise<{ endpoint: EndpointRow; secret: string }> {
    const endpoint = await this.get(tenantId, id);
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const rotated = await this.repository.rotateSecret(
      tenantId,
      id,
      await this.cipher.encrypt(id, secret),
      endpoint.secret_encrypted,
      new Date(now.getTime() + this.config.WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000),
      now,
    );
    if (!rotated) throw DomainError.notFound('Webhook endpoint');
    return { endpoint: rotated, secret };
  }

  /** Queues a `webhook.test` event for the endpoint (delivered by the worker like any event). */
  async sendTest(tenantId: string, id: string): Promise<{ eventId: string }> {
    await this.get(tenantId, id);
    return { eventId: await this.outbox.recordTest(tenantId, id, this.clock.now()) };
  }

  async deliveries(
    tenantId: string,
    endpointId: string,
    limit = DELIVERIES_PAGE_SIZE,
    cursor?: string,
    status?: DeliveryStatus,
  ): Promise<DeliveryPage> {
    await this.get(tenantId, endpointId);
    const binding = `${tenantId}:${endpointId}:${status ?? '*'}`;
    const position = cursor
      ? await this.cursors.decode(binding, 'webhook-deliveries', cursor, isSeqCursor)
      : null;
    const rows = await this.repository.listDeliveries(
      tenantId,
      endpointId,
      position?.s ?? null,
      limit + 1,
      status ?? null,
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    return {
      deliveries: page,
      nextCursor: more
        ? await this.cursors.encode(binding, 'webhook-deliveries', { s: page[page.length - 1]!.seq })
        : null,
    };
  }

  /** Sends a delivery's event again (same `webhook-id`) as a new delivery, due now. */
  async replay(tenantId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow> {
    await this.get(tenantId, endpointId);
    const original = await this.repository.findDelivery(tenantId, endpointId, deliveryId);
    if (!original) throw DomainError.notFound('Webhook delivery');
    return this.repository.insertReplay(original, randomUUID(), this.clock.now());
  }

  private async checkUrl(url: string): Promise<string> {
    try {
      return (await checkWebhookTarget(url, this.config.isProduction)).toString();
    } catch (error) {
      if (error instanceof WebhookUrlError) throw DomainError.validation('url', error.message);
      throw error;
    }
  }
}

function checkEventTypes(types: readonly string[]): string[] {
  const known: readonly string[] = ACCOUNT_EVENT_TYPES;
  const unknown = types.filter((type) => !known.includes(type));
  if (unknown.length > 0)
    throw DomainError.validation(
      'eventTypes',
      `Unknown event type(s): ${unknown.join(', ')}. Known: ${ACCOUNT_EVENT_TYPES.join(', ')}.`,
    );
  if (types.length === 0)
    throw DomainError.validation('eventTypes', 'eventTypes must name at least one event type.');
  return [...new Set(types)];
}
