import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A frozen gains report or Form 8949 (docs/tax-report.md, "Report snapshots"): the report's JSON
 * exactly as produced, the integrity checksum of the transactions it was computed from, the
 * parameters, who froze it and when. A record: no foreign key to `account`, so unlinking the
 * account (which deletes its data) leaves its snapshots in place.
 */
@Entity('report_snapshot')
@Index('idx_report_snapshot_tenant_created', ['tenantId', 'createdAt', 'id'])
export class ReportSnapshotEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  /** `gains` or `form8949`. */
  @Column({ type: 'varchar', length: 16 })
  kind: string;

  /** The account reported on (null: every account of the tenant). Not a foreign key. */
  @Column({ type: 'uuid', nullable: true })
  accountId: string | null;

  /** The report's parameters (tax year, method, asset, account), as JSON text. */
  @Column({ type: 'text' })
  parameters: string;

  /** The report body exactly as the live endpoint's `result` was produced, as JSON text. */
  @Column({ type: 'text' })
  report: string;

  /** SHA-256 (hex) of `report`'s UTF-8 bytes. */
  @Column({ type: 'char', length: 64 })
  reportSha256: string;

  /** The integrity checksum (docs/checksum.md) of the transactions the report was computed from. */
  @Column({ type: 'char', length: 64 })
  dataChecksum: string;

  @Column({ type: 'integer' })
  dataRowCount: number;

  /** The API client that froze it. */
  @Column({ type: 'varchar', length: 128 })
  createdBy: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
