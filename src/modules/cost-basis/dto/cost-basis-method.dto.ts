import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import {
  COST_BASIS_METHODS,
  COST_BASIS_METHODS_MESSAGE,
  type CostBasisMethod,
} from '../../../domain/cost-basis/index.js';

const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;

const METHOD_MESSAGE = COST_BASIS_METHODS_MESSAGE;

export class CostBasisMethodQueryDto {
  @ApiPropertyOptional({
    description:
      'Also the elections of this account (UUID) and the method in force for it. Default: the tenant’s only. Another tenant’s account answers 404.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(lowerCase)
  account_id?: string;
}

export class ElectCostBasisMethodDto {
  @ApiProperty({
    description:
      'Lot-selection method elected: `fifo` (oldest first), `lifo` (newest first), `hifo` (highest basis first), `lofo` (lowest basis first) or `ltfo` (long-term lots at the disposal date first, highest basis first within each term). The standing orders longest_held, shortest_held, highest_basis, lowest_basis and long_term_first_highest_basis are fifo, lifo, hifo, lofo and ltfo.',
    enum: [...COST_BASIS_METHODS],
    example: 'hifo',
  })
  @IsIn([...COST_BASIS_METHODS], { message: METHOD_MESSAGE })
  method: CostBasisMethod;

  @ApiProperty({
    description:
      'First UTC date (YYYY-MM-DD) whose disposals use the method; not before today (UTC): Rev. Proc. 2024-28 wants the method fixed before a sale.',
    example: '2027-01-01',
  })
  @IsString({ message: 'effective_from must be a date, YYYY-MM-DD.' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'effective_from must be a date, YYYY-MM-DD.' })
  effective_from: string;

  @ApiPropertyOptional({
    description:
      'Elect for this account only (UUID); it then takes precedence over the tenant’s election. Absent: tenant-wide. Another tenant’s account answers 404.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(lowerCase)
  account_id?: string;
}

export class CostBasisElectionDto {
  @ApiProperty({ description: 'The election.', format: 'uuid' })
  id: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The account it applies to; null: tenant-wide.',
  })
  account_id: string | null;

  @ApiProperty({ description: 'Lot-selection method elected.', enum: [...COST_BASIS_METHODS] })
  method: CostBasisMethod;

  @ApiProperty({ description: 'First UTC date whose disposals use it (YYYY-MM-DD).', example: '2027-01-01' })
  effective_from: string;

  @ApiProperty({ description: 'When it was recorded (ISO 8601, UTC).', example: '2026-11-24T16:00:00.000Z' })
  recorded_at: string;

  @ApiProperty({ description: 'The API client that recorded it.', example: 'partner-client' })
  recorded_by: string;
}

export class CostBasisMethodDto {
  @ApiProperty({
    description: 'Today (UTC, YYYY-MM-DD): the date `method_in_force` is for.',
    example: '2026-11-24',
  })
  as_of: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The account asked for; null: the tenant.',
  })
  account_id: string | null;

  @ApiProperty({
    description: 'The method a disposal today uses (the account’s election, else the tenant’s, else FIFO).',
    enum: [...COST_BASIS_METHODS],
  })
  method_in_force: CostBasisMethod;

  @ApiProperty({
    description:
      'Where `method_in_force` comes from: an election of the account, of the tenant, or the default (FIFO).',
    enum: ['account', 'tenant', 'default'],
  })
  method_source: 'account' | 'tenant' | 'default';

  @ApiProperty({
    type: [CostBasisElectionDto],
    description: 'The tenant-wide elections, oldest recorded first (the history: nothing is ever changed).',
  })
  tenant_elections: CostBasisElectionDto[];

  @ApiProperty({
    type: [CostBasisElectionDto],
    description: 'The account’s elections, oldest recorded first; empty without `account_id`.',
  })
  account_elections: CostBasisElectionDto[];
}
