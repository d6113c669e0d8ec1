import { ApiProperty, OmitType } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { TENANT_SLUG_PATTERN } from '../../tenancy/index.js';
import { TENANT_REQUIRED } from '../dto/admin-tenancy.dto.js';
import { TransactionsQueryDto } from './account-reads.js';

const TENANT_DESCRIPTION =
  'Slug of the tenant the account belongs to. Required; an account of another tenant answers 404.';

export class SupportTenantQueryDto {
  @ApiProperty({ description: TENANT_DESCRIPTION, example: 'sandbox' })
  @Matches(TENANT_SLUG_PATTERN, { message: TENANT_REQUIRED })
  tenant: string;
}

/** The partner's transaction query without `forceRefresh`: a support read never refreshes. */
export class SupportTransactionsQueryDto extends OmitType(TransactionsQueryDto, ['forceRefresh'] as const) {
  @ApiProperty({ description: TENANT_DESCRIPTION, example: 'sandbox' })
  @Matches(TENANT_SLUG_PATTERN, { message: TENANT_REQUIRED })
  tenant: string;
}
