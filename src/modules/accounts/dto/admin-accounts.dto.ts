import { ApiProperty } from '@nestjs/swagger';
import { ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { BUILT_IN_SOURCES } from '../../sources/index.js';
import { reviewProperty, AccountListItemDto, type AccountReviewDto } from './account-responses.dto.js';

@ValidatorConstraint({ name: 'credentials' })
export class CredentialsShape implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const entries = Object.entries(value);
    return (
      entries.length <= 10 &&
      entries.every(
        ([k, v]) => /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(k) && typeof v === 'string' && v.length <= 4_000,
      )
    );
  }

  defaultMessage(): string {
    return 'credentials must be an object of at most 10 string fields (names of letters, digits and _; values up to 4000 characters).';
  }
}

export class AdminAccountDto extends AccountListItemDto {
  @ApiProperty({ description: 'Tenant slug.', example: 'sandbox' })
  tenant: string;

  @ApiProperty({ enum: BUILT_IN_SOURCES, description: 'Connector feeding the account.', example: 'sandbox' })
  source: string;

  @ApiProperty({ description: 'Whether encrypted connector credentials are stored (they are never shown).' })
  hasCredentials: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'When the scheduler will next refresh the account; null: not on its own (reconnect required).',
  })
  nextRefreshAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'When a refresh was last attempted.' })
  lastRefreshAttemptAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last refresh failed, if it did.' })
  lastError: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Consecutive failed refreshes: the scheduler backs off exponentially (per source, with jitter and a cap); 0 after a successful refresh.',
  })
  refreshFailures: number;

  @ApiProperty(
    reviewProperty(
      'Set when the source-reported balances disagree with the transactions beyond dust; null otherwise.',
    ),
  )
  review: AccountReviewDto | null;
}
