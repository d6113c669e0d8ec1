import { ApiProperty } from '@nestjs/swagger';
import { COST_BASIS_METHODS, DIRECTIONS } from '../../../domain/cost-basis/index.js';
import { reviewProperty, type AccountReviewDto, AccountStateDto } from '../../accounts/index.js';

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
    description:
      'Links a transfer_out to the transfer_in on another own account (e.g. `chain:<hash>`); `wrap:<hash>` links the two legs of a wrap or unwrap on one account (ETH ↔ WETH, POL ↔ WPOL), which keeps basis and acquisition date; null otherwise.',
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

/** One asset's reconciliation: the source's own balance against the transactions' (docs/sources.md). */
export class ReconciliationDto {
  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  symbol: string;

  @ApiProperty({
    description:
      'Quantity the source reports itself, exact decimal as text ("0" when it reports none of the asset).',
    example: '1.5',
  })
  reported: string;

  @ApiProperty({
    description: 'Quantity the transactions account for, exact decimal as text (the `balance` of the asset).',
    example: '1.25',
  })
  calculated: string;

  @ApiProperty({
    description: '`reported` − `calculated`, exact decimal as text (positive: the source holds more).',
    example: '0.25',
  })
  difference: string;

  @ApiProperty({
    description:
      'The difference is within the asset’s dust threshold (0.00000001; 0.01 for USD-pegged assets): no review.',
  })
  withinDust: boolean;
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

  @ApiProperty({
    type: [ReconciliationDto],
    nullable: true,
    description:
      'Where the source reports balances itself (balanceSource `source_reported`): per asset, reported vs calculated quantity and the difference, by symbol; null when the balances are calculated only.',
  })
  reconciliation: ReconciliationDto[] | null;

  @ApiProperty(
    reviewProperty(
      'Set when a difference in `reconciliation` exceeds dust: the account needs review (the reason names the assets and amounts); null otherwise.',
    ),
  )
  review: AccountReviewDto | null;
}
