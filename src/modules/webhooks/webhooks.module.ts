/**
 * Webhooks (issue 18, docs/events.md): partner endpoints, the outbox and the delivery worker.
 *
 * Owns: the tables `webhook_endpoint`, `outbox_event`, `webhook_delivery`. Implements the
 * ACCOUNT_EVENTS port (src/common/ports) (OutboxRecorder), which the refresh engine and the accounts module
 * call inside their write transactions; global, so those modules need not import this one (the
 * layering of docs/modules.md holds: nothing below imports webhooks).
 * Never: sends HTTP inside a database transaction, logs or returns a secret except on creation
 * and rotation, or calls a non-public address in production.
 */
import { Global, Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { JobsModule } from '../jobs/index.js';
import { ACCOUNT_EVENTS } from '../../common/ports/account-events.port.js';
import { OutboxRecorder } from './outbox.recorder.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhookScheduler } from './webhook.scheduler.js';
import { WebhookSecretCipher } from './webhook-secrets.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

@Global()
@Module({
  imports: [JobsModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhookSecretCipher,
    OutboxRecorder,
    { provide: ACCOUNT_EVENTS, useExisting: OutboxRecorder },
    CursorCodec,
    WebhooksService,
    WebhookDeliveryWorker,
    WebhookScheduler,
  ],
  exports: [ACCOUNT_EVENTS],
})
export class WebhooksModule {}
