import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { toInteger } from '../../../common/validation/query-transforms.js';
import {
  COST_BASIS_METHODS,
  COST_BASIS_METHODS_MESSAGE,
  type CostBasisMethod,
} from '../../../domain/cost-basis/index.js';
import { Form8949Dto, GainsReportDto } from '../../tax/index.js';

export const SNAPSHOT_KINDS = ['gains', 'form8949'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];
export const MAX_SNAPSHOT_PAGE = 100;

const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;
const upperCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toUpperCase() : value;

export class CreateReportSnapshotDto {
  @ApiProperty({
    description:
      '`gains`: the gains report (GET /taip/gains-report); `form8949`: Form 8949 as JSON (GET /taip/form-8949).',
    enum: SNAPSHOT_KINDS,
  })
  @IsIn([...SNAPSHOT_KINDS], { message: 'kind must be gains or form8949.' })
  kind: SnapshotKind;

  @ApiProperty({
    description: 'Tax year: from 2009 up to the current year (UTC).',
    type: 'integer',
    minimum: 2009,
    maximum: 9999,
    example: 2024,
  })
  @IsInt({ message: 'taxYear must be a four-digit year, e.g. 2024.' })
  @Min(1000, { message: 'taxYear must be a four-digit year, e.g. 2024.' })
  @Max(9999, { message: 'taxYear must be a four-digit year, e.g. 2024.' })
  taxYear: number;

  @ApiPropertyOptional({
    description: 'Freeze the report of this account only (UUID). Default: every account of the tenant.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'accountId must be a UUID.' })
  @Transform(lowerCase)
  accountId?: string;

  @ApiPropertyOptional({
    description: 'Or the account with this partner identity (not together with accountId).',
    example: 'sandbox:coinbase-main',
  })
  @IsOptional()
  @IsString({ message: 'identity must be a string.' })
  @MinLength(1)
  @MaxLength(200)
  identity?: string;

  @ApiPropertyOptional({
    description: 'Only this asset (ticker, case-insensitive). Default: every asset.',
    example: 'BTC',
  })
  @IsOptional()
  @IsString({ message: 'asset must be a ticker.' })
  @Matches(/^[A-Za-z0-9]{1,20}$/, { message: 'asset must be a ticker of 1-20 letters or digits, e.g. BTC.' })
  @Transform(upperCase)
  asset?: string;

  @ApiPropertyOptional({
    description:
      'Lot selection: `fifo`, `hifo`, `lifo`, `lofo` or `ltfo` over the whole history; absent: the elected methods, as the live report (FIFO without an election).',
    enum: [...COST_BASIS_METHODS],
  })
  @IsOptional()
  @IsIn([...COST_BASIS_METHODS], { message: COST_BASIS_METHODS_MESSAGE })
  method?: CostBasisMethod;
}

export class ReportSnapshotsQueryDto {
  @ApiPropertyOptional({ description: 'Only snapshots of this account.', format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'accountId must be a UUID.' })
  @Transform(lowerCase)
  accountId?: string;

  @ApiPropertyOptional({ description: 'Only snapshots of this kind.', enum: SNAPSHOT_KINDS })
  @IsOptional()
  @IsIn([...SNAPSHOT_KINDS], { message: 'kind must be gains or form8949.' })
  kind?: SnapshotKind;

  @ApiPropertyOptional({
    description: `Snapshots per page, 1-${MAX_SNAPSHOT_PAGE}.`,
    default: 50,
    minimum: 1,
    maximum: MAX_SNAPSHOT_PAGE,
    type: 'integer',
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer.' })
  @Min(1, { message: `limit must be from 1 to ${MAX_SNAPSHOT_PAGE}.` })
  @Max(MAX_SNAPSHOT_PAGE, { message: `limit must be from 1 to ${MAX_SNAPSHOT_PAGE}.` })
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page (opaque, tamper-evident).' })
  @IsOptional()
  @IsString({ message: 'cursor must be a string.' })
  @MaxLength(1000, { message: 'cursor is not a cursor this service issued.' })
  cursor?: string;
}

export class ReportSnapshotParametersDto {
  @ApiProperty({ description: 'Tax year.', type: 'integer', example: 2024 })
  taxYear: number;

  @ApiProperty({ description: 'Lot selection method.', enum: [...COST_BASIS_METHODS] })
  method: string;

  @ApiProperty({ description: 'The asset asked for, or `ALL`.', example: 'ALL' })
  asset: string;

  @ApiProperty({
    description: 'The account asked for (resolved from identity when given); null: every account.',
    format: 'uuid',
    nullable: true,
    type: String,
  })
  accountId: string | null;

  @ApiProperty({
    description: 'The identity asked for, when the account was named by it.',
    nullable: true,
    type: String,
  })
  identity: string | null;
}

export class ReportSnapshotSummaryDto {
  @ApiProperty({ description: 'Snapshot id.', format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'Which report.', enum: SNAPSHOT_KINDS })
  kind: string;

  @ApiProperty({
    description:
      'The account reported on; null: every account of the tenant. Kept after the account is unlinked.',
    format: 'uuid',
    nullable: true,
    type: String,
  })
  accountId: string | null;

  @ApiProperty({
    description: 'The parameters the report was computed with.',
    type: ReportSnapshotParametersDto,
  })
  parameters: ReportSnapshotParametersDto;

  @ApiProperty({ description: 'When it was frozen.', format: 'date-time' })
  createdAt: string;

  @ApiProperty({ description: 'The API client that froze it.' })
  createdBy: string;

  @ApiProperty({
    description:
      'The integrity checksum (docs/checksum.md) of every transaction of the tenant when the report was computed: GET /v1/api/checksum without filters gave this then.',
    example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  })
  dataChecksum: string;

  @ApiProperty({ description: 'Transactions that checksum covered.', type: 'integer' })
  dataRowCount: number;

  @ApiProperty({ description: 'SHA-256 (hex) of `report` serialized as JSON (JSON.stringify, no spaces).' })
  reportSha256: string;
}

@ApiExtraModels(GainsReportDto, Form8949Dto)
export class ReportSnapshotDto extends ReportSnapshotSummaryDto {
  @ApiProperty({
    description:
      'The report exactly as the live endpoint produced it when frozen (GET /taip/gains-report, or GET /taip/form-8949 as JSON).',
    oneOf: [{ $ref: getSchemaPath(GainsReportDto) }, { $ref: getSchemaPath(Form8949Dto) }],
  })
  report: GainsReportDto | Form8949Dto;
}

export class ReportSnapshotListDto {
  @ApiProperty({
    description: 'Newest first; without the reports (GET one for its report).',
    type: [ReportSnapshotSummaryDto],
  })
  snapshots: ReportSnapshotSummaryDto[];

  @ApiProperty({ description: 'Cursor of the next page; null on the last.', nullable: true, type: String })
  nextCursor: string | null;
}
