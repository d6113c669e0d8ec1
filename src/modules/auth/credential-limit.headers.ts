import { applyDecorators } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import type { CredentialLimitState } from './credential-attempts.js';

/**
 * The token endpoints' `RateLimit-*` headers (design §10: on every response). They count failed
 * credential attempts, not requests: a correct secret uses nothing up (docs/decisions.md).
 */
export function writeCredentialLimitHeaders(response: Response, state: CredentialLimitState): void {
  response.setHeader('RateLimit-Limit', state.limit);
  response.setHeader('RateLimit-Remaining', state.remaining);
  response.setHeader('RateLimit-Reset', state.resetSeconds);
}

export const ApiCredentialLimits = () =>
  applyDecorators(
    ApiTooManyRequestsResponse({
      description:
        'Too many failed credential attempts from this address (for this clientId, or across clientIds), or too many verifications in progress from it; see Retry-After. RateLimit-* headers on every answer count the failed attempts left.',
    }),
  );
