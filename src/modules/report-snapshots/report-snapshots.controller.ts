import { Body, Controller, Get, HttpCode, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuditedRead, RequestId } from '../../common/decorators/audited.decorator.js';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { ApiEnvelopedResponse } from '../../common/openapi/api-responses.js';
import { UuidParam } from '../../common/validation/validation.js';
import {
  CreateReportSnapshotDto,
  ReportSnapshotDto,
  ReportSnapshotListDto,
  ReportSnapshotsQueryDto,
  type ReportSnapshotSummaryDto,
} from './dto/report-snapshot.dto.js';
import { ApiHeavyWorkResponses } from '../tax/index.js';
import { ReportSnapshotsService, type SnapshotRecord } from './report-snapshots.service.js';

/**
 * Report snapshots (issue 18 item 6; docs/tax-report.md, "Report snapshots"): an addition to the
 * spec. A gains report or Form 8949 frozen as filed, retrievable unchanged with the checksum of
 * the data it came from.
 */
@ApiTags('Tax reporting')
@Controller('v1/api/report-snapshots')
@Scopes('partner')
@UseInterceptors(EnvelopeInterceptor)
export class ReportSnapshotsController {
  constructor(private readonly snapshots: ReportSnapshotsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Freeze a gains report or Form 8949',
    description:
      'Computes the report now, exactly as GET /taip/gains-report or GET /taip/form-8949 (JSON) would, and keeps it with its parameters, who froze it and the integrity checksum of the tenant’s transactions it was computed from. Later imports and refreshes never change it; unlinking the account does not delete it. Recorded in the audit trail.',
  })
  @ApiEnvelopedResponse(ReportSnapshotDto, {
    status: 201,
    description: 'Envelope with the snapshot in `result`.',
  })
  @ApiBadRequestResponse({
    description:
      'A field is invalid (named in errors): kind, taxYear (2009 to the current year), accountId, identity (not both), asset, method.',
  })
  @ApiNotFoundResponse({ description: 'The account (or identity) does not exist for this tenant.' })
  @ApiHeavyWorkResponses({
    alsoUnavailable:
      'Also: the history kept changing while the report was computed (retry after Retry-After).',
  })
  async create(
    @CurrentClient() client: AuthenticatedClient,
    @RequestId() requestId: string | null,
    @Body() body: CreateReportSnapshotDto,
  ): Promise<ReportSnapshotDto> {
    const record = await this.snapshots.create(
      { tenantId: client.tenantId, clientId: client.clientId, requestId },
      {
        kind: body.kind,
        taxYear: body.taxYear,
        accountId: body.accountId,
        identity: body.identity,
        asset: body.asset,
        method: body.method,
      },
    );
    return toSnapshotDto(record);
  }

  @Get()
  @ApiOperation({
    summary: 'Your report snapshots, newest first (without the reports)',
    description:
      "The snapshots your tenant froze: each one's kind, parameters, when and by whom it was frozen and the integrity checksum of the data it was computed from. Fetch one by id for the report itself.",
  })
  @ApiEnvelopedResponse(ReportSnapshotListDto, {
    description: 'Envelope with `result.snapshots` and `result.nextCursor`.',
  })
  @ApiBadRequestResponse({ description: 'A malformed filter, limit or cursor (named in errors).' })
  async list(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: ReportSnapshotsQueryDto,
  ): Promise<ReportSnapshotListDto> {
    const page = await this.snapshots.list(
      client.tenantId,
      { accountId: query.accountId, kind: query.kind },
      query.limit ?? 50,
      query.cursor,
    );
    return { snapshots: page.snapshots.map(toSummaryDto), nextCursor: page.nextCursor };
  }

  @Get(':snapshotId')
  @AuditedRead('account.read.report_snapshot', { target: { result: 'accountId' } })
  @ApiOperation({
    summary: 'One report snapshot, with its report exactly as frozen',
    description:
      '`report` is the report as produced when frozen; `reportSha256` is the SHA-256 of its JSON text (JSON.stringify of `result.report`).',
  })
  @ApiEnvelopedResponse(ReportSnapshotDto, { description: 'Envelope with the snapshot in `result`.' })
  @ApiBadRequestResponse({ description: 'snapshotId is not a UUID.' })
  @ApiNotFoundResponse({ description: 'No such snapshot for this tenant.' })
  async get(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('snapshotId') snapshotId: string,
  ): Promise<ReportSnapshotDto> {
    return toSnapshotDto(await this.snapshots.get(client.tenantId, snapshotId));
  }
}

function toSummaryDto(record: SnapshotRecord): ReportSnapshotSummaryDto {
  return {
    id: record.id,
    kind: record.kind,
    accountId: record.accountId,
    parameters: { ...record.parameters },
    createdAt: record.createdAt.toISOString(),
    createdBy: record.createdBy,
    dataChecksum: record.dataChecksum,
    dataRowCount: record.dataRowCount,
    reportSha256: record.reportSha256,
  };
}

function toSnapshotDto(record: SnapshotRecord): ReportSnapshotDto {
  return {
    ...toSummaryDto(record),
    report: JSON.parse(record.report ?? 'null') as ReportSnapshotDto['report'],
  };
}
