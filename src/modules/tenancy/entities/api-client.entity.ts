import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from './tenant.entity.js';

export type ClientScope = 'partner' | 'admin';

/** Client credentials of one integration. The secret is stored only as an argon2id hash. */
@Entity('api_client')
export class ApiClientEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Index()
  @Column('uuid')
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  /** The public identifier sent as clientId. */
  @Column({ type: 'varchar', length: 128, unique: true })
  clientId: string;

  @Column({ type: 'text' })
  secretHash: string;

  @Column({ type: 'text', array: true })
  scopes: ClientScope[];

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  secretRotatedAt: Date | null;

  /**
   * Incremented by every secret rotation and every disable; tokens carry the generation they were
   * issued under (claim `sgen`) and earlier generations are refused, so a rotation revokes them,
   * and a disable revokes them for good (re-enabling the client does not revive them). A counter
   * rather than comparing `iat` with secretRotatedAt: `iat` has whole seconds, and a token issued
   * in the same second as the rotation (or re-enable), after it, must stay valid, and one issued
   * in the same second before a disable must not.
   */
  @Column({ type: 'integer', default: 0 })
  secretGeneration: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
