import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One Idempotency-Key a client sent with a write, and (once the first request finished) the
 * response it got. Keys are per API client: two clients may use the same key.
 */
@Entity('idempotency_key')
@Index('idx_idempotency_key_created_at', ['createdAt'])
export class IdempotencyKeyEntity {
  /** The API client's public clientId (unique across tenants). */
  @PrimaryColumn({ type: 'varchar', length: 128 })
  clientId: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  idempotencyKey: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  /** sha256 (hex) of method, path with query, and the canonical body. */
  @Column({ type: 'char', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 16 })
  state: 'in_progress' | 'completed';

  /** Until when an in-progress request holds the key; a crash frees it after this. */
  @Column({ type: 'timestamptz' })
  lockedUntil: Date;

  @Column({ type: 'smallint', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'jsonb', nullable: true })
  responseHeaders: Record<string, string> | null;

  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
