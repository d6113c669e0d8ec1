import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { runSql } from '../../database/sql.js';

/** A snapshot that froze a tax year's report of an account (or of the whole tenant). */
export interface YearSnapshot {
  readonly id: string;
  /** `gains` or `form8949`. */
  readonly kind: string;
  /** null: every account of the tenant. */
  readonly accountId: string | null;
  /** The ticker it was narrowed to, or `ALL`. */
  readonly asset: string;
  readonly createdAt: Date;
}

/**
 * Which tax years are closed by a report snapshot (docs/tax-report.md, "Report snapshots"): the
 * cost-basis module asks before it records a late lot identification, which would flag a year whose
 * report was already frozen (docs/cost-basis.md, "Specific identification"). Read-only.
 */
@Injectable()
export class SnapshottedYears {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The first snapshot (oldest) of the year's gains report or Form 8949 that covers the account's
   * disposals of `symbol`: of that account or of the whole tenant, of every asset or of `symbol`.
   * null: none.
   */
  async covering(
    tenantId: string,
    scope: { readonly accountId: string; readonly symbol: string; readonly taxYear: number },
  ): Promise<YearSnapshot | null> {
    const { rows } = await runSql<{
      id: string;
      kind: string;
      account_id: string | null;
      asset: string;
      created_at: Date | string;
    }>(
      this.dataSource.manager,
      `SELECT "id", "kind", "account_id", "parameters"::jsonb ->> 'asset' AS "asset", "created_at"
         FROM "report_snapshot"
        WHERE "tenant_id" = $1
          AND ("account_id" = $2 OR "account_id" IS NULL)
          AND ("parameters"::jsonb ->> 'taxYear')::int = $3
          AND ("parameters"::jsonb ->> 'asset') IN ('ALL', $4)
        ORDER BY "created_at", "id"
        LIMIT 1`,
      [tenantId, scope.accountId, scope.taxYear, scope.symbol],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      accountId: row.account_id,
      asset: row.asset,
      createdAt: new Date(row.created_at),
    };
  }
}

/**
 * SnapshottedYears alone (it needs only the database), so the cost-basis module can ask without
 * taking on the snapshots' own dependencies (tax reports, checksums, audit).
 */
@Module({ providers: [SnapshottedYears], exports: [SnapshottedYears] })
export class SnapshottedYearsModule {}
