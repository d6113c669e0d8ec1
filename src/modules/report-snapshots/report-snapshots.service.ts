import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { runSql } from '../../database/sql.js';
import type { CostBasisMethod } from '../../domain/cost-basis/index.js';
import { AccountsService } from '../accounts/index.js';
import { AuditService } from '../audit/index.js';
import { HeavyWorkAdmission } from '../compute/index.js';
import { ChecksumService } from '../integrity/index.js';
import { FIRST_TAX_YEAR, TaxReportService, toForm8949Dto, toGainsReportDto } from '../tax/index.js';
import type { SnapshotKind } from './dto/report-snapshot.dto.js';

export interface SnapshotRequest {
  readonly kind: SnapshotKind;
  readonly taxYear: number;
  readonly accountId?: string;
  readonly identity?: string;
  readonly asset?: string;
  /** undefined: the tenant's elections, as the live report (the method recorded is the report's). */
  readonly method?: CostBasisMethod;
}

export interface SnapshotCaller {
  readonly tenantId: string;
  readonly clientId: string;
  readonly requestId: string | null;
}

export interface SnapshotParameters {
  readonly taxYear: number;
  readonly method: string;
  readonly asset: string;
  readonly accountId: string | null;
  readonly identity: string | null;
}

export interface SnapshotRecord {
  readonly id: string;
  readonly kind: string;
  readonly accountId: string | null;
  readonly parameters: SnapshotParameters;
  readonly createdAt: Date;
  readonly createdBy: string;
  readonly dataChecksum: string;
  readonly dataRowCount: number;
  readonly reportSha256: string;
  /** The report's JSON text, exactly as stored. */
  readonly report?: string;
}

interface SnapshotRow {
  id: string;
  kind: string;
  account_id: string | null;
  parameters: string;
  created_at: Date | string;
  created_by: string;
  data_checksum: string;
  data_row_count: number;
  report_sha256: string;
  report?: string;
}

/** Tries to compute the report between two equal checksums before giving up with 503. */
const ATTEMPTS = 3;
const CURSOR_PURPOSE = 'report-snapshots';

/**
 * Report snapshots (issue 18 item 6, docs/tax-report.md "Report snapshots"): a gains report or
 * Form 8949 frozen as produced, with the checksum of the data it came from.
 *
 * The report is computed between two integrity checksums of the tenant's transactions; equal
 * checksums prove no import or refresh committed in between, so the checksum describes the very
 * data the report was computed from (else it retries). The checksum covers every account of the
 * tenant, not only the one reported on: a transfer carries basis across accounts. The snapshot
 * row and its audit entry are written in one transaction.
 */
@Injectable()
export class ReportSnapshotsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reports: TaxReportService,
    private readonly checksums: ChecksumService,
    private readonly accounts: AccountsService,
    private readonly audit: AuditService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly admission: HeavyWorkAdmission,
  ) {}

  async create(caller: SnapshotCaller, request: SnapshotRequest): Promise<SnapshotRecord> {
    const currentYear = this.clock.now().getUTCFullYear();
    if (request.taxYear < FIRST_TAX_YEAR || request.taxYear > currentYear) {
      throw DomainError.validation('taxYear', `taxYear must be from ${FIRST_TAX_YEAR} to ${currentYear}.`);
    }
    if (request.accountId !== undefined && request.identity !== undefined) {
      throw DomainError.validation('accountId', 'Name the account by accountId or identity, not both.');
    }
    const accountId =
      request.identity !== undefined
        ? (await this.accounts.byIdentity(caller.tenantId, request.identity)).id
        : request.accountId;
    if (accountId !== undefined && !(await this.accounts.findById(caller.tenantId, accountId))) {
      throw DomainError.notFound('Account');
    }
    const query = { taxYear: request.taxYear, accountId, asset: request.asset, method: request.method };
    // One heavy-work slot of the tenant for the whole snapshot (two checksums and the report, whose
    // own admission runs inside this slot); the report is computed in the compute pool.
    return this.admission.run(caller.tenantId, () => this.freeze(caller, request, accountId, query));
  }

  private async freeze(
    caller: SnapshotCaller,
    request: SnapshotRequest,
    accountId: string | undefined,
    query: { taxYear: number; accountId?: string; asset?: string; method?: CostBasisMethod },
  ): Promise<SnapshotRecord> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = await this.checksums.compute(caller.tenantId, {});
      const report =
        request.kind === 'gains'
          ? toGainsReportDto(await this.reports.gainsReport(caller.tenantId, query))
          : toForm8949Dto(await this.reports.form8949Json(caller.tenantId, query));
      const after = await this.checksums.compute(caller.tenantId, {});
      if (before.checksum !== after.checksum) continue;
      const text = JSON.stringify(report);
      const record: SnapshotRecord = {
        id: randomUUID(),
        kind: request.kind,
        accountId: accountId ?? null,
        parameters: {
          taxYear: request.taxYear,
          method: report.method,
          asset: request.asset ?? 'ALL',
          accountId: accountId ?? null,
          identity: request.identity ?? null,
        },
        createdAt: this.clock.now(),
        createdBy: caller.clientId,
        dataChecksum: after.checksum,
        dataRowCount: after.rowCount,
        reportSha256: createHash('sha256').update(text, 'utf8').digest('hex'),
        report: text,
      };
      await this.dataSource.transaction(async (manager) => {
        await runSql(
          manager,
          `INSERT INTO "report_snapshot" ("id", "tenant_id", "kind", "account_id", "parameters", "report",
             "report_sha256", "data_checksum", "data_row_count", "created_by", "created_at")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            record.id,
            caller.tenantId,
            record.kind,
            record.accountId,
            JSON.stringify(record.parameters),
            text,
            record.reportSha256,
            record.dataChecksum,
            record.dataRowCount,
            record.createdBy,
            record.createdAt,
          ],
        );
        await this.audit.append(
          {
            tenantId: caller.tenantId,
            actor: { kind: 'client', id: caller.clientId },
            action: 'report_snapshot.created',
            target: record.accountId ? { kind: 'account', id: record.accountId } : null,
            requestId: caller.requestId,
            status: 201,
            details: {
              snapshotId: record.id,
              kind: record.kind,
              taxYear: record.parameters.taxYear,
              method: record.parameters.method,
              asset: record.parameters.asset,
              dataChecksum: record.dataChecksum,
              reportSha256: record.reportSha256,
            },
          },
          manager,
        );
      });
      return record;
    }
    throw new DomainError(
      ErrorCode.ServiceUnavailable,
      'The history changed while the report was computed (an import or refresh); try again.',
      undefined,
      undefined,
      1,
    );
  }

  async get(tenantId: string, id: string): Promise<SnapshotRecord> {
    const { rows } = await runSql<SnapshotRow>(
      this.dataSource.manager,
      `SELECT "id", "kind", "account_id", "parameters", "created_at", "created_by", "data_checksum",
              "data_row_count", "report_sha256", "report"
         FROM "report_snapshot" WHERE "tenant_id" = $1 AND "id" = $2`,
      [tenantId, id],
    );
    const row = rows[0];
    if (!row) throw DomainError.notFound('Report snapshot');
    return toRecord(row);
  }

  async list(
    tenantId: string,
    filters: { accountId?: string; kind?: string },
    limit: number,
    cursor?: string,
  ): Promise<{ snapshots: SnapshotRecord[]; nextCursor: string | null }> {
    const after = cursor ? await this.cursors.decode(tenantId, CURSOR_PURPOSE, cursor, isPosition) : null;
    const params: unknown[] = [tenantId];
    const conditions = [`"tenant_id" = $1`];
    if (filters.accountId) {
      params.push(filters.accountId);
      conditions.push(`"account_id" = $${params.length}`);
    }
    if (filters.kind) {
      params.push(filters.kind);
      conditions.push(`"kind" = $${params.length}`);
    }
    if (after) {
      params.push(new Date(after.c), after.id);
      conditions.push(`("created_at", "id") < ($${params.length - 1}, $${params.length})`);
    }
    params.push(limit + 1);
    const { rows } = await runSql<SnapshotRow>(
      this.dataSource.manager,
      `SELECT "id", "kind", "account_id", "parameters", "created_at", "created_by", "data_checksum",
              "data_row_count", "report_sha256"
         FROM "report_snapshot" WHERE ${conditions.join(' AND ')}
        ORDER BY "created_at" DESC, "id" DESC LIMIT $${params.length}`,
      params,
    );
    const page = rows.slice(0, limit).map(toRecord);
    const last = page[page.length - 1];
    return {
      snapshots: page,
      nextCursor:
        rows.length > limit && last
          ? await this.cursors.encode(tenantId, CURSOR_PURPOSE, { c: last.createdAt.getTime(), id: last.id })
          : null,
    };
  }
}

function isPosition(value: unknown): value is { c: number; id: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { c?: unknown }).c === 'number' &&
    typeof (value as { id?: unknown }).id === 'string' &&
    /^[0-9a-f-]{36}$/.test((value as { id: string }).id)
  );
}

function toRecord(row: SnapshotRow): SnapshotRecord {
  return {
    id: row.id,
    kind: row.kind,
    accountId: row.account_id,
    parameters: JSON.parse(row.parameters) as SnapshotParameters,
    createdAt: new Date(row.created_at),
    createdBy: row.created_by,
    dataChecksum: row.data_checksum,
    dataRowCount: Number(row.data_row_count),
    reportSha256: row.report_sha256,
    ...(row.report !== undefined ? { report: row.report } : {}),
  };
}
