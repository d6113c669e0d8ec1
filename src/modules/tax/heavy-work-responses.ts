import { applyDecorators } from '@nestjs/common';
import { ApiServiceUnavailableResponse, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { HEAVY_WORK_RETRY_AFTER_SECONDS } from '../compute/index.js';

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', example: HEAVY_WORK_RETRY_AFTER_SECONDS },
  },
};

/**
 * The 429/503 of a heavy request (docs/reports.md, "Heavy work"): the tenant's own queue of heavy
 * requests is full, or the instance's; both with Retry-After, as /qsim/simulate declares its own.
 */
export const ApiHeavyWorkResponses = (options: { alsoUnavailable?: string } = {}) =>
  applyDecorators(
    ApiTooManyRequestsResponse({
      description:
        'This tenant already has as many heavy requests (reports, lots, reconciliations) running and waiting as it may (HEAVY_WORK_PER_TENANT, HEAVY_WORK_TENANT_QUEUE), `reason` too_many_heavy_requests; or the client rate limit. Retry-After says when to retry.',
      headers: RETRY_AFTER,
    }),
    ApiServiceUnavailableResponse({
      description:
        'Every heavy-work slot of this instance is taken and its queue is full (HEAVY_WORK_SLOTS, HEAVY_WORK_QUEUE), `reason` heavy_work_busy, Retry-After says when to retry; or the database is unavailable (retry after the seconds in Retry-After), or this instance is shutting down (a plain-text body with Connection: close; retry on another instance).' +
        (options.alsoUnavailable ? ` ${options.alsoUnavailable}` : ''),
      headers: RETRY_AFTER,
    }),
  );
