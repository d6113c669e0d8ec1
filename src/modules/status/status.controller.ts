import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Scopes } from '../../common/decorators/auth.decorators.js';
import { rateLimitStateOf } from '../../common/guards/rate-limit.guard.js';
import { DatabaseHealthService } from './database-health.service.js';
import { LifecycleService } from './lifecycle.service.js';
import { StatusDto } from './status.dto.js';

import { API_VERSION } from '../../version.js';

export { API_VERSION };

@ApiTags('Status')
@Controller('api/status')
export class StatusController {
  constructor(
    private readonly lifecycle: LifecycleService,
    private readonly database: DatabaseHealthService,
  ) {}

  @Get()
  @Scopes('partner')
  @ApiOperation({
    summary: 'Health, uptime, remaining rate-limit count and interface version',
    description:
      "For a partner's integration check: the service's state, its uptime, how many requests the calling client has left in the current rate-limit window, and the API's interface version (`2026.04.1`). Liveness and readiness for orchestrators are `/health/live` and `/health/ready`, without a token.",
  })
  @ApiOkResponse({ type: StatusDto })
  async status(@Res({ passthrough: true }) response: Response): Promise<StatusDto> {
    const healthy = await this.database.isHealthy();
    return {
      status: healthy && !this.lifecycle.isDraining ? 'ok' : 'degraded',
      uptimeSeconds: this.lifecycle.uptimeSeconds(),
      rateLimitRemaining: rateLimitStateOf(response)?.remaining ?? 0,
      version: API_VERSION,
    };
  }
}
