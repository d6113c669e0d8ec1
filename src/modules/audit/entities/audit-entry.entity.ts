import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One entry of the audit trail (docs/audit.md): append-only (a database trigger refuses UPDATE and
 * DELETE, except the retention prune), chained by hash in `sequence` order. Written only by
 * AuditService; read raw (sequence as text) so no driver turns a bigint into a float.
 */
@Entity('audit_entry')
@Index('idx_audit_entry_tenant', ['tenantId', 'sequence'])
@Index('idx_audit_entry_actor', ['actorId', 'sequence'])
@Index('idx_audit_entry_target', ['targetId', 'sequence'])
@Index('idx_audit_entry_occurred_at', ['occurredAt'])
export class AuditEntryEntity {
  /** The position in the chain; the key (appends are in this order, so the index only grows at its end). */
  @PrimaryColumn({ type: 'bigint' })
  sequence: string;

  /** A stable id for the entry (not indexed: entries are found by sequence and the filters). */
  @Column({ type: 'uuid' })
  id: string;

  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  /** The tenant whose data or credentials the action concerned (null: none, e.g. a market refresh). */
  @Column({ type: 'uuid', nullable: true })
  tenantId: string | null;

  /** `client` (a partner API client), `admin` (an admin API client), `system`. */
  @Column({ type: 'varchar', length: 16 })
  actorKind: string;

  /** The API client's clientId, or the system job's name. */
  @Column({ type: 'varchar', length: 128 })
  actorId: string;

  /** Dotted name, e.g. `account.linked`, `account.read.balances`. */
  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  targetKind: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  targetId: string | null;

  /** The service's request id (the `X-Request-Id` answer header, the log lines' `req.id`). */
  @Column({ type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  /** The HTTP status answered (null for an action outside a request). */
  @Column({ type: 'smallint', nullable: true })
  status: number | null;

  /** Canonical JSON text (keys sorted); never secrets or credentials. */
  @Column({ type: 'text' })
  details: string;

  @Column({ type: 'char', length: 64 })
  prevHash: string;

  @Column({ type: 'char', length: 64 })
  hash: string;
}
