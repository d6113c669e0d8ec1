import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * `partner`: an advisory firm, the owner of partner data. `operator`: the service operator's own
 * tenant (design §3): it holds the admin clients and no partner data.
 */
export type TenantKind = 'partner' | 'operator';

/** An advisory firm (or the operator). Every row of tenant data carries its id; no query runs without it. */
@Entity('tenant')
@Check('CHK_tenant_kind', `"kind" IN ('partner', 'operator')`)
export class TenantEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** Short stable name, e.g. "sandbox". */
  @Column({ type: 'varchar', length: 64, unique: true })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'boolean', default: false })
  isSandbox: boolean;

  /** Only clients of an `operator` tenant hold the admin scope; accounts are never linked to one. */
  @Column({ type: 'varchar', length: 16, default: 'partner' })
  kind: TenantKind;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
