import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Scopes } from '../../common/decorators/auth.decorators.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { TenantsService } from '../tenancy/index.js';
import type { AuditEntryRecord, AuditFilters } from './audit.service.js';
import { AuditService } from './audit.service.js';
import {
  AuditExportQueryDto,
  AuditPageDto,
  AuditQueryDto,
  AuditVerificationDto,
  DEFAULT_AUDIT_PAGE,
  type AuditEntryDto,
  type AuditFiltersDto,
} from './dto/audit.dto.js';

const CSV_COLUMNS = [
  'sequence',
  'id',
  'occurredAt',
  'tenantId',
  'actorKind',
  'actorId',
  'action',
  'targetKind',
  'targetId',
  'requestId',
  'status',
  'details',
  'prevHash',
  'hash',
] as const;

/**
 * The audit trail for the internal admin team (docs/audit.md): query, export, verify. Reading it
 * is not itself recorded (only writes and reads of account data are).
 */
@ApiTags('Admin: audit trail')
@Controller('admin/audit')
@Scopes('admin')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly tenants: TenantsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Query the audit trail',
    description:
      'Entries newest first (`order=asc`: oldest first, the chain’s order), filtered by tenant (`tenant`, its slug, or `tenantId`), actor, account, action and time (`from` inclusive, `to` exclusive); cursor-paginated, up to 1000 a page. Every filter is optional: with none, the latest entries of every tenant.',
  })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiBadRequestResponse({ description: 'A malformed filter, limit or cursor (named in errors).' })
  async list(@Query() query: AuditQueryDto): Promise<AuditPageDto> {
    const limit = query.limit ?? DEFAULT_AUDIT_PAGE;
    const rows = await this.audit.list(
      await this.filtersOf(query),
      limit + 1,
      query.cursor,
      query.order ?? 'desc',
    );
    const page = rows.slice(0, limit);
    return {
      entries: page.map(toDto),
      nextCursor: rows.length > limit ? page[page.length - 1]!.sequence : null,
    };
  }

  @Get('export')
  @ApiOperation({
    summary: 'Export the audit trail as CSV or JSON Lines',
    description:
      'Every entry matching the filters (the same as the query’s), streamed in the chain’s order (oldest first). CSV: a header row, then one RFC 4180 row per entry (`details` is its canonical JSON text). JSONL: one entry a line, as in the query answer. Each row carries its hashes, so an export can be re-verified offline (docs/audit.md).',
  })
  @ApiProduces('text/csv', 'application/x-ndjson')
  @ApiOkResponse({
    description: 'The entries, streamed.',
    content: {
      'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' } },
      'application/x-ndjson': { schema: { type: 'string', description: 'One JSON entry a line.' } },
    },
  })
  @ApiBadRequestResponse({
    description: 'format missing or unknown, or a malformed filter (named in errors).',
  })
  async export(@Query() query: AuditExportQueryDto, @Res() response: Response): Promise<void> {
    const csv = query.format === 'csv';
    const pages = this.audit.pages(await this.filtersOf(query));
    // The first page is read before the headers go out, so a database failure is still a proper error.
    const first = await pages.next();
    response.status(200);
    response.setHeader(
      'Content-Type',
      csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    );
    response.setHeader('Content-Disposition', `attachment; filename="audit.${query.format}"`);
    response.setHeader('Cache-Control', 'no-store');
    if (csv) response.write(`${CSV_COLUMNS.join(',')}\r\n`);
    const write = (entries: AuditEntryRecord[]) =>
      response.write(
        entries.map((entry) => (csv ? csvRow(entry) : `${JSON.stringify(toDto(entry))}\n`)).join(''),
      );
    try {
      if (!first.done) write(first.value);
      for await (const page of pages) {
        if (!write(page)) await new Promise((resolve) => response.once('drain', resolve));
      }
      response.end();
    } catch (error) {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }

  @Get('verify')
  @ApiOperation({
    summary: 'Verify the hash chain',
    description:
      'Walks every entry from the retention anchor to the chain head, recomputing each hash (docs/audit.md) and checking each link; the first entry that does not verify (edited, deleted, reordered) is named.',
  })
  @ApiOkResponse({ type: AuditVerificationDto })
  async verify(): Promise<AuditVerificationDto> {
    const result = await this.audit.verify();
    return {
      valid: result.valid,
      entries: result.entries,
      firstBrokenSequence: result.firstBrokenSequence === null ? null : Number(result.firstBrokenSequence),
      anchorSequence: Number(result.anchorSequence),
    };
  }

  /** `tenant` (a slug) resolved to its id; a slug of no tenant, or both forms at once, is a 400. */
  private async filtersOf(query: AuditFiltersDto): Promise<AuditFilters> {
    if (query.tenant !== undefined && query.tenantId !== undefined)
      throw DomainError.validation('tenant', 'Give tenant (a slug) or tenantId (a UUID), not both.');
    return filtersOf(
      query,
      query.tenant === undefined ? query.tenantId : await this.tenants.idOfSlug(query.tenant),
    );
  }
}

function filtersOf(query: AuditFiltersDto, tenantId: string | undefined): AuditFilters {
  return {
    tenantId,
    actor: query.actor,
    accountId: query.accountId,
    action: query.action,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

export function toDto(entry: AuditEntryRecord): AuditEntryDto {
  return {
    id: entry.id,
    sequence: Number(entry.sequence),
    occurredAt: entry.occurredAt,
    tenantId: entry.tenantId,
    actor: { kind: entry.actorKind, id: entry.actorId },
    action: entry.action,
    target: entry.targetKind && entry.targetId ? { kind: entry.targetKind, id: entry.targetId } : null,
    requestId: entry.requestId,
    status: entry.status,
    details: JSON.parse(entry.details) as Record<string, unknown>,
    prevHash: entry.prevHash,
    hash: entry.hash,
  };
}

function csvRow(entry: AuditEntryRecord): string {
  return `${CSV_COLUMNS.map((column) => {
    const value = column === 'actorKind' ? entry.actorKind : entry[column];
    return csvField(value === null || value === undefined ? '' : String(value));
  }).join(',')}\r\n`;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
