import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Direction } from '../../../domain/cost-basis/index.js';

/**
 * One transaction leg of an account. The key (tenant, account, transactionId) makes a refresh an
 * upsert, never a duplicate; transaction_id is COLLATE "C" so the key index is already in the
 * byte order the integrity checksum is defined over (docs/checksum.md). Decimals are `numeric`,
 * read and written as text: never a JS float.
 */
@Entity('transaction')
@Index('IDX_transaction_account_time', ['tenantId', 'accountId', 'occurredAt', 'transactionId'])
// Transfer links (own-account transfers), both ways: account → its transferIds → other accounts.
@Index('IDX_transaction_transfer', ['tenantId', 'transferId', 'accountId'], {
  where: 'transfer_id IS NOT NULL',
})
@Index('IDX_transaction_account_transfer', ['tenantId', 'accountId', 'transferId'], {
  where: 'transfer_id IS NOT NULL',
})
export class TransactionEntity {
  @PrimaryColumn('uuid')
  tenantId: string;

  @PrimaryColumn('uuid')
  accountId: string;

  // The account row (accounts module), named not imported: the ledger sits below accounts.
  @ManyToOne('AccountEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: unknown;

  @PrimaryColumn({ type: 'varchar', length: 200, collation: 'C' })
  transactionId: string;

  /** Upper-case ticker. */
  @Column({ type: 'varchar', length: 20 })
  symbol: string;

  @Column({ type: 'varchar', length: 16 })
  direction: Direction;

  /** > 0; the direction says which way it moved. */
  @Column({ type: 'numeric' })
  amount: string;

  /** USD per unit; null when the source gives none (transfers, deposits, withdrawals). */
  @Column({ type: 'numeric', nullable: true })
  priceUsd: string | null;

  /** USD fee charged on the trade; null when none. */
  @Column({ type: 'numeric', nullable: true })
  feeUsd: string | null;

  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  /** Links a transfer_out to the transfer_in on another of the tenant's own accounts. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  transferId: string | null;
}
