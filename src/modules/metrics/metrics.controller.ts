import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Scopes } from '../../common/decorators/auth.decorators.js';
import { MetricsRegistry } from './metrics.registry.js';

/**
 * `GET /metrics`: the Prometheus exposition text, for an admin-scoped token (docs/observability.md
 * shows the scrape configuration; docs/decisions.md, "Metrics endpoint", says why on the main port
 * and why admin). Not in the OpenAPI document: a scraper's endpoint, not part of the API partners
 * or admins integrate with.
 */
@ApiExcludeController()
@Controller('metrics')
@Scopes('admin')
export class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Res({ passthrough: true }) response: Response): Promise<string> {
    response.type(this.metrics.contentType);
    return this.metrics.render();
  }
}
