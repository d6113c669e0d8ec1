import { AuditedRead } from '../../common/decorators/audited.decorator.js';
import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { ApiEnvelopedResponse } from '../../common/openapi/api-responses.js';
import { ChecksumQueryDto, ChecksumResultDto } from './checksum.dto.js';
import { ChecksumService } from './checksum.service.js';

@ApiTags('Integrity')
@Controller('v1/api')
@Scopes('partner')
@UseInterceptors(EnvelopeInterceptor)
export class ChecksumController {
  constructor(private readonly checksums: ChecksumService) {}

  @Get('checksum')
  @AuditedRead('account.read.checksum', { query: ['platform', 'collectionId', 'identity'] })
  @ApiOperation({
    summary: "Checksum of the caller's transactions, for reconciliation",
    description:
      'Algorithm in docs/checksum.md (reference script scripts/verify-checksum.mjs). Filters combine with AND; a collection or identity of another tenant covers no rows (rowCount 0).',
  })
  @ApiEnvelopedResponse(ChecksumResultDto, { description: 'Envelope with the checksum in `result`.' })
  @ApiBadRequestResponse({ description: 'collectionId is not a UUID.' })
  async checksum(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: ChecksumQueryDto,
  ): Promise<ChecksumResultDto> {
    const report = await this.checksums.compute(client.tenantId, {
      platform: query.platform,
      collectionId: query.collectionId?.toLowerCase(),
      identity: query.identity,
    });
    return {
      checksum: report.checksum,
      computedAt: report.computedAt.toISOString(),
      rowCount: report.rowCount,
    };
  }
}
