/** The idempotency module's public face: what other modules may import (docs/modules.md). */
export { IdempotencyModule } from './idempotency.module.js';
export { IdempotencyInterceptor } from './idempotency.interceptor.js';
