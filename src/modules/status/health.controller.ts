import { Controller, Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { RedisLink } from '../../common/guards/redis-link.js';
import { Public } from '../../common/decorators/auth.decorators.js';
import { AppConfig } from '../../config/app-config.js';
import { databasePingTimeoutMs } from './database-health.service.js';
import { LifecycleService } from './lifecycle.service.js';

/**
 * Liveness (the process answers) and readiness (it can serve: database reachable, not draining).
 * Readiness also says where the rate limits are kept (`rateLimits`), always `up`: with Redis
 * unreachable the instance serves with its limits in memory (design §12), so taking it out of the
 * load balancer would only move its traffic onto instances in the same state.
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  private readonly pingTimeoutMs: number;

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly lifecycle: LifecycleService,
    config: AppConfig,
    @Optional() @Inject(RedisLink) private readonly redis?: RedisLink | null,
  ) {
    this.pingTimeoutMs = databasePingTimeoutMs(config);
  }

  @Get('live')
  @Public()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    if (this.lifecycle.isDraining) throw new ServiceUnavailableException('Shutting down.');
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: this.pingTimeoutMs }),
      () => this.rateLimits(),
    ]);
  }

  private rateLimits(): HealthIndicatorResult {
    return rateLimitsReadiness(this.redis);
  }
}

/** `store`: `redis` or `memory`; `redis` (with REDIS_URL): `up` or `unreachable`. */
export function rateLimitsReadiness(
  redis: Pick<RedisLink, 'store' | 'available'> | null | undefined,
): HealthIndicatorResult {
  return {
    rateLimits: {
      status: 'up',
      store: redis?.store ?? 'memory',
      ...(redis ? { redis: redis.available ? 'up' : 'unreachable' } : {}),
    },
  };
}
