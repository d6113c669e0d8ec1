import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An advisory firm. Every row of tenant data carries its id; no query runs without it. */
@Entity('tenant')
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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
