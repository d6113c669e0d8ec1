/**
 * What readiness says of the rate limits (design §12): always `up`; where they are kept, and with
 * REDIS_URL whether Redis answers (test/services/rate-limit-redis.service.spec.ts drives a real
 * RedisLink into `memory`/unreachable).
 */
import { rateLimitsReadiness } from './health.controller.js';

describe('rateLimitsReadiness', () => {
  it('without REDIS_URL: in memory, no redis member', () => {
    expect(rateLimitsReadiness(undefined)).toEqual({ rateLimits: { status: 'up', store: 'memory' } });
  });

  it('with Redis answering: in Redis, up', () => {
    expect(rateLimitsReadiness({ store: 'redis', available: true })).toEqual({
      rateLimits: { status: 'up', store: 'redis', redis: 'up' },
    });
  });

  it('with Redis unreachable: still up, in memory, unreachable', () => {
    expect(rateLimitsReadiness({ store: 'memory', available: false })).toEqual({
      rateLimits: { status: 'up', store: 'memory', redis: 'unreachable' },
    });
  });
});
