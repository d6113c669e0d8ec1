/**
 * The outbox: implements the AccountEventsPort (common/ports). An event becomes an
 * `outbox_event` row inside the caller's transaction (so it exists exactly when the change does);
 * the delivery worker fans it out later. The row holds the body as it will be sent and signed:
 * `{"type", "timestamp", "data"}` (docs/events.md).
 */
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AccountEvent, AccountEventsPort } from '../../common/ports/account-events.port.js';
import { WebhooksRepository } from './webhooks.repository.js';

export const TEST_EVENT_TYPE = 'webhook.test';

export function eventBody(type: string, occurredAt: Date, data: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}

@Injectable()
export class OutboxRecorder implements AccountEventsPort {
  constructor(private readonly repository: WebhooksRepository) {}

  async record(events: readonly AccountEvent[], manager: EntityManager): Promise<void> {
    if (events.length === 0) return;
    await this.repository.insertOutbox(
      events.map((event) => ({
        id: randomUUID(),
        tenantId: event.tenantId,
        accountId: event.accountId,
        endpointId: null,
        type: event.type,
        body: eventBody(event.type, event.occurredAt, event.data),
        createdAt: event.occurredAt,
      })),
      manager,
    );
  }

  /** A `webhook.test` event for one endpoint (whatever it subscribes to); its id. */
  async recordTest(tenantId: string, endpointId: string, now: Date): Promise<string> {
    const id = randomUUID();
    await this.repository.transaction((manager) =>
      this.repository.insertOutbox(
        [
          {
            id,
            tenantId,
            accountId: null,
            endpointId,
            type: TEST_EVENT_TYPE,
            body: eventBody(TEST_EVENT_TYPE, now, {
              endpointId,
              message: 'A test event sent on request (POST /v1/api/webhooks/{id}/test).',
            }),
            createdAt: now,
          },
        ],
        manager,
      ),
    );
    return id;
  }
}
