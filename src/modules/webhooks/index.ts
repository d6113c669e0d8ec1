/**
 * The webhooks module's public face. Other modules never call it: they emit through the ACCOUNT_EVENTS
 * port (src/common/ports/account-events.port.ts), which this module implements.
 */
export { WebhooksModule } from './webhooks.module.js';
export { WebhookDeliveryWorker, retryDelayMs, type RunSummary } from './webhook-delivery.worker.js';
export { TEST_EVENT_TYPE } from './outbox.recorder.js';
export { isPrivateAddress, checkWebhookTarget, parseWebhookUrl, WebhookUrlError } from './webhook-url.js';
