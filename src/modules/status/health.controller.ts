import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
} from '@nestjs/terminus';
import { Public } from '../../common/decorators/auth.decorators.js';
import { AppConfig } from '../../config/app-config.js';
import { databasePingTimeoutMs } from './database-health.service.js';
import { LifecycleService } from './lifecycle.service.js';

/** Liveness (the process answers) and readiness (it can serve: database reachable, not draining). */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  private readonly pingTimeoutMs: number;

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly lifecycle: LifecycleService,
    config: AppConfig,
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
    return this.health.check([() => this.database.pingCheck('database', { timeout: this.pingTimeoutMs })]);
  }
}
