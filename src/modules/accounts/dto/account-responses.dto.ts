import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
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
      '`source_reported`: the source reports the balances itself (reconciled with the history: `reconciliation` and `review` on the balances); `calculated`: computed from the transaction history.',
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
    description:
      'Chain of the address (bitcoin, ethereum, base, arbitrum, optimism, polygon, solana); null for exchange accounts.',
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

/**
 * Reconciliation review (docs/sources.md, "Reconciliation"): the account's source-reported
 * balances disagree with its transactions beyond dust. A field of its own, beside `syncStatus`,
 * whose published values stay as they are: the sync worked, its data needs a look.
 */
export class AccountReviewDto {
  @ApiProperty({
    enum: ['needs_review'],
    description: 'Always `needs_review` (the field is null otherwise).',
  })
  status: 'needs_review';

  @ApiProperty({
    description: 'Which assets disagree and by how much (source-reported, calculated, difference).',
    example:
      'Source-reported balances disagree with the transactions beyond dust: BTC: the source reports 1.5, the transactions account for 1.25 (difference 0.25).',
  })
  reason: string;

  @ApiProperty({
    description: 'When the disagreement was first seen (ISO 8601); cleared by a refresh that agrees.',
    example: '2026-04-01T12:00:00.000Z',
  })
  since: string;
}

/**
 * The OpenAPI property of a nullable `review` field: inline (OpenAPI 3.0 cannot make a `$ref`
 * nullable), the same properties as AccountReviewDto.
 */
export function reviewProperty(description: string): ApiPropertyOptions {
  return {
    type: 'object',
    nullable: true,
    required: ['status', 'reason', 'since'],
    properties: {
      status: {
        type: 'string',
        enum: ['needs_review'],
        description: 'Always `needs_review` (the field is null otherwise).',
      },
      reason: {
        type: 'string',
        description: 'Which assets disagree and by how much (source-reported, calculated, difference).',
        example:
          'Source-reported balances disagree with the transactions beyond dust: BTC: the source reports 1.5, the transactions account for 1.25 (difference 0.25).',
      },
      since: {
        type: 'string',
        description: 'When the disagreement was first seen (ISO 8601); cleared by a refresh that agrees.',
        example: '2026-04-01T12:00:00.000Z',
      },
    },
    description,
  };
}
