import { ApiProperty } from '@nestjs/swagger';
import { COST_BASIS_METHODS, DIRECTIONS } from '../../../domain/cost-basis/index.js';
import {
  SYNC_STATUSES,
  type BalanceSource,
  type ConnectionStatus,
  type SyncStatus,
} from '../entities/account.entity.js';

/** The four account states clients are told to display (design §5), on every account result. */
export class AccountStateDto {
  @ApiProperty({
    enum: SYNC_STATUSES,
    description:
      '`syncing`: initial synchronisation not finished; `synced`: the last refresh succeeded; `reconnect_required`: the source rejected the authorization (the end client must reconnect); `error`: the last refresh failed (cached data, if any, is still served).',
  })
  syncStatus: SyncStatus;

  @ApiProperty({
    enum: ['connected', 'disconnected'],
    description: '`disconnected` when the source no longer accepts the account authorization.',
  })
  connectionStatus: ConnectionStatus;

  @ApiProperty({
    enum: ['source_reported', 'calculated'],
    description:
      '`source_reported`: the source reports the balances itself (checked against the history); `calculated`: computed from the transaction history.',
  })
  balanceSource: BalanceSource;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When data was last synchronised from the source (ISO 8601); null before the first sync.',
    example: '2026-04-01T12:00:00.000Z',
  })
  lastSyncedAt: string | null;
}

export class AccountCollectionDto extends AccountStateDto {
  @ApiProperty({ description: 'Account id (UUID).', format: 'uuid' })
  accountId: string;

  @ApiProperty({
    description: 'Collection id (UUID): the connection the end client made to the platform.',
    format: 'uuid',
  })
  collectionId: string;

  @ApiProperty({
    description: 'Source platform identifier, e.g. coinbase, kraken, bitcoin.',
    example: 'coinbase',
  })
  platform: string;

  @ApiProperty({
    description: 'When the account was linked (ISO 8601).',
    example: '2026-04-01T12:00:00.000Z',
  })
  createdOn: string;
}

export class AccountIdentityDto extends AccountStateDto {
  @ApiProperty({ description: 'Account id (UUID).', format: 'uuid' })
  accountId: string;

  @ApiProperty({
    description: 'Identifier used by the partner system, unique per tenant.',
    example: 'sandbox:coinbase-main',
  })
  identity: string;

  @ApiProperty({ description: 'Source platform identifier.', example: 'coinbase' })
  platform: string;
}

export class AccountListItemDto extends AccountStateDto {
  @ApiProperty({ description: 'Account id (UUID).', format: 'uuid' })
  accountId: string;

  @ApiProperty({ description: 'Collection id (UUID).', format: 'uuid' })
  collectionId: string;

  @ApiProperty({ description: 'Identifier used by the partner system.' })
  identity: string;

  @ApiProperty({ description: 'Source platform identifier.', example: 'bitcoin' })
  platform: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'On-chain address (wallets); null for exchange accounts.',
  })
  address: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Chain of the address (bitcoin, ethereum); null for exchange accounts.',
  })
  chain: string | null;

  @ApiProperty({ description: 'When the account was linked (ISO 8601).' })
  createdOn: string;
}

export class AccountListDto {
  @ApiProperty({ type: [AccountListItemDto], description: 'The page of accounts, oldest first.' })
  accounts: AccountListItemDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Cursor of the next page; null on the last page.',
  })
  nextCursor: string | null;
}

export class TransactionDto {
  @ApiProperty({ description: 'The source transaction id, unique per account.' })
  transactionId: string;

  @ApiProperty({ description: 'Asset ticker, upper-case.', example: 'BTC' })
  symbol: string;

  @ApiProperty({ enum: DIRECTIONS, description: 'Direction of the movement.', example: 'buy' })
  direction: string;

  @ApiProperty({ description: 'Quantity of the asset, > 0, decimal number as text.', example: '0.5' })
  amount: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'USD per unit at the time, decimal number as text; null when the source gives none (transfers, deposits, withdrawals).',
    example: '42000.1',
  })
  price: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'USD fee of a buy or sell, decimal number as text; null when none.',
    example: '12.5',
  })
  fee: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Links a transfer_out to the transfer_in on another own account; null otherwise.',
  })
  transferId: string | null;

  @ApiProperty({
    description: 'ISO 8601 timestamp (UTC, milliseconds).',
    example: '2024-01-02T03:04:05.000Z',
  })
  timestamp: string;
}

export class FreshnessDto extends AccountStateDto {
  @ApiProperty({
    description: 'A refresh from the source completed during this request (forceRefresh on stale data).',
  })
  refreshed: boolean;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Seconds since the data was last synchronised from the source; null when it never was.',
  })
  cacheAgeSeconds: number | null;
}

export class TransactionsResultDto extends FreshnessDto {
  @ApiProperty({ description: 'Account id (UUID).', format: 'uuid' })
  accountId: string;

  @ApiProperty({
    type: [TransactionDto],
    description: 'Transactions in the range, ordered by timestamp, then transactionId.',
  })
  transactions: TransactionDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'With limit/cursor: cursor of the next page; null on the last page or without paging.',
  })
  nextCursor: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When the transactions were last synchronised (ISO 8601); equals lastSyncedAt.',
  })
  lastUpdatedOn: string | null;
}

export class BalanceDto {
  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  symbol: string;

  @ApiProperty({ description: 'Quantity held, decimal as text.', example: '1.25' })
  balance: string;

  @ApiProperty({
    description: 'USD cost basis of the holding with known basis, to the cent.',
    example: '40010.00',
  })
  costBasis: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'USD market value at the latest stored price, to the cent; null when no price is stored.',
  })
  marketValue: string | null;

  @ApiProperty({
    description: 'USD gain realized by all disposals so far, to the cent.',
    example: '24955.00',
  })
  realizedGainLoss: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'USD unrealized gain of the known-basis holding, to the cent; null when no price is stored.',
  })
  unrealizedGainLoss: string | null;

  @ApiProperty({
    description:
      'Unknown cost basis is involved (a deposit from outside, an unmatched transfer): the gains need review.',
  })
  needsReview: boolean;
}

export class BalancesResultDto extends FreshnessDto {
  @ApiProperty({ description: 'Account id (UUID).', format: 'uuid' })
  accountId: string;

  @ApiProperty({ type: [BalanceDto], description: 'One entry per asset held or disposed of, by symbol.' })
  balances: BalanceDto[];

  @ApiProperty({ description: 'When these balances were computed (ISO 8601).' })
  lastUpdatedOn: string;

  @ApiProperty({ description: 'Account total market value in USD (priced assets), to the cent.' })
  marketValue: string;

  @ApiProperty({ description: 'Account total realized gain/loss in USD, to the cent.' })
  realizedGainLoss: string;

  @ApiProperty({ description: 'Account total unrealized gain/loss in USD (priced assets), to the cent.' })
  unrealizedGainLoss: string;

  @ApiProperty({ enum: [...COST_BASIS_METHODS], description: 'Cost-basis method of these figures.' })
  costBasisMethod: string;
}
