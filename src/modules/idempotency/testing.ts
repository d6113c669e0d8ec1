/**
 * For tests only (the lint rule lets test/ import it, never src/): the stored keys' service, to
 * purge expired keys by hand.
 */
export { IdempotencyService } from './idempotency.service.js';
