import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsString,
  IsUUID,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';

const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;

/** Decimal text > 0 (no sign, no exponent); zero is refused by the service. */
const DECIMAL = /^\d{1,30}(\.\d{1,30})?$/;

export const MAX_LOT_PICKS = 1000;

export class LotPickDto {
  @ApiProperty({
    description:
      'The lot, as `GET /taip/lots` names it: the id of the transaction that opened it, `<id>#2` for a second lot of one origin in the account.',
    example: 'cb-buy-2',
  })
  @IsString({ message: 'lot_id must be text.' })
  @Length(1, 210, { message: 'lot_id must be 1 to 210 characters.' })
  lot_id: string;

  @ApiProperty({
    description: 'How much of the lot the disposal consumes: decimal text > 0.',
    example: '0.5',
  })
  @IsString({ message: 'quantity must be decimal text.' })
  @Matches(DECIMAL, { message: 'quantity must be decimal text > 0.' })
  quantity: string;
}

export class CreateLotSelectionDto {
  @ApiProperty({ description: 'The account of the disposal (UUID).', format: 'uuid' })
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(lowerCase)
  account_id: string;

  @ApiProperty({
    description:
      'The disposal: a `sell`, `fee`, `withdrawal` or `transfer_out` transaction of the account (its transaction id).',
    example: 'cb-sell-1',
  })
  @IsString({ message: 'transaction_id must be text.' })
  @Length(1, 200, { message: 'transaction_id must be 1 to 200 characters.' })
  transaction_id: string;

  @ApiProperty({
    type: [LotPickDto],
    description:
      'The lots it consumes, in this order; the quantities add up to the disposal’s amount exactly, each lot open in the account just before the disposal and holding at least what is asked of it.',
  })
  @IsDefined({ message: 'lots is required.' })
  @IsArray({ message: 'lots must be an array of { lot_id, quantity }.' })
  @ArrayNotEmpty({ message: 'lots must not be empty.' })
  @ArrayMaxSize(MAX_LOT_PICKS, { message: `lots may name at most ${MAX_LOT_PICKS} lots.` })
  @ValidateNested({ each: true })
  @Type(() => LotPickDto)
  lots: LotPickDto[];
}

export class LotSelectionsQueryDto {
  @ApiProperty({ description: 'The account (UUID). Another tenant’s account answers 404.', format: 'uuid' })
  @IsUUID('all', { message: 'account_id must be a UUID.' })
  @Transform(lowerCase)
  account_id: string;
}

export class LotSelectionDto {
  @ApiProperty({ description: 'The selection.', format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The account of the disposal.', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'The disposal (transaction id).', example: 'cb-sell-1' })
  transaction_id: string;

  @ApiProperty({ type: [LotPickDto], description: 'The lots it consumes, in order.' })
  lots: LotPickDto[];

  @ApiProperty({ description: 'When it was recorded (ISO 8601, UTC).', example: '2026-11-24T16:00:00.000Z' })
  recorded_at: string;

  @ApiProperty({ description: 'The API client that recorded it.', example: 'partner-client' })
  recorded_by: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'When the disposal took place (ISO 8601, UTC), as the history has it now; null when the disposal is no longer in the history (the selection then applies to nothing).',
    example: '2026-03-10T10:00:00.000Z',
  })
  disposed_at: string | null;

  @ApiProperty({
    description:
      'Recorded after the disposal: a late identification (Treas. Reg. §1.1012-1(j)(3) wants the units identified by the time of the sale). It is kept as a record but not applied: the standing method (the elected method, FIFO without one) chooses the lots, and the Form 8949 lines and readiness of the year say `identified_late`. docs/cost-basis.md, "Specific identification".',
    example: true,
  })
  identified_late: boolean;
}

export class LotSelectionListDto {
  @ApiProperty({ description: 'The account.', format: 'uuid' })
  account_id: string;

  @ApiProperty({ type: [LotSelectionDto], description: 'Its selections, oldest recorded first.' })
  selections: LotSelectionDto[];
}
