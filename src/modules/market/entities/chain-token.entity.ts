import { Column, Entity, PrimaryColumn } from 'typeorm';

/** `priced`: the provider knows the contract and its daily prices are stored; `unpriceable`: it does not. */
export type ChainTokenStatus = 'priced' | 'unpriceable';

/**
 * A token a chain account brought (issue 30 item 4), by the ledger symbol its connector gave it,
 * with where it lives (CoinGecko asset platform and contract or mint) and what the market provider
 * said of it. Tokens of the market catalog never get a row: their prices are the catalog's.
 */
@Entity('chain_token')
export class ChainTokenEntity {
  /** The ledger symbol (a known ticker, or one derived from the contract/mint). */
  @PrimaryColumn({ type: 'varchar', length: 20, primaryKeyConstraintName: 'PK_chain_token' })
  symbol: string;

  /** CoinGecko's asset platform id: ethereum, base, arbitrum-one, optimistic-ethereum, polygon-pos, solana. */
  @Column({ type: 'varchar', length: 40 })
  platform: string;

  /** The token contract (EVM, lower case) or mint (Solana, as written). */
  @Column({ type: 'varchar', length: 64 })
  contract: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  coingeckoId: string | null;

  @Column({ type: 'varchar', length: 12 })
  status: ChainTokenStatus;

  /** First and last UTC day whose prices were asked for (null when unpriceable). */
  @Column({ type: 'date', nullable: true })
  pricedFrom: string | null;

  @Column({ type: 'date', nullable: true })
  pricedTo: string | null;

  /** When the provider was last asked. */
  @Column({ type: 'timestamptz' })
  checkedAt: Date;
}

/** One UTC day's USD price of a chain token (the provider's last point of that day). */
@Entity('chain_token_price')
export class ChainTokenPriceEntity {
  @PrimaryColumn({ type: 'varchar', length: 20, primaryKeyConstraintName: 'PK_chain_token_price' })
  symbol: string;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'PK_chain_token_price' })
  date: string;

  @Column({ type: 'numeric' })
  priceUsd: string;
}
