import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
} from '@nestjs/terminus';
import { Public } from '../../common/decorators/auth.decorators.js';
import { LifecycleService } from './lifecycle.service.js';

/** Liveness (the process answers) and readiness (it can serve: database reachable, not draining). */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly lifecycle: LifecycleService,
  ) {}

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
    return this.health.check([() => this.database.pingCheck('database', { timeout: 1500 })]);
  }
}
