import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * ES256 key pairs generated in embedded/sandbox mode, so tokens survive restarts.
 * In production keys come from configuration and this table stays empty.
 */
@Entity('signing_key')
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  @Column({ type: 'text' })
  privateKeyPem: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
