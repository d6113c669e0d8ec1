import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Keys generated on first start in embedded/sandbox mode (credential encryption, cursor signing).
 * Production takes them from configuration instead; see AppConfig.
 */
@Entity('instance_secret')
export class InstanceSecretEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'text' })
  value: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
