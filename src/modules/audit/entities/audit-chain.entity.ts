import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The head of the audit chain: one row (id 1), locked FOR UPDATE by every append so appends from
 * any number of instances are serialized. `anchor*`: the last pruned entry (retention), from which
 * a verification starts.
 */
@Entity('audit_chain')
export class AuditChainEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ type: 'bigint' })
  lastSequence: string;

  @Column({ type: 'char', length: 64 })
  lastHash: string;

  @Column({ type: 'bigint' })
  anchorSequence: string;

  @Column({ type: 'char', length: 64 })
  anchorHash: string;

  @Column({ type: 'timestamptz', nullable: true })
  prunedAt: Date | null;
}
