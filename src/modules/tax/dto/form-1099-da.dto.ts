import { ApiProperty } from '@nestjs/swagger';
import { COST_BASIS_METHODS, type CostBasisMethod } from '../../../domain/cost-basis/index.js';

const nullableString = (description: string, example?: string) => ({
  type: String,
  nullable: true,
  description,
  ...(example === undefined ? {} : { example }),
});

export class BrokerLineDto {
  @ApiProperty({ type: 'integer', description: 'The line of the CSV the row starts on.', example: 2 })
  line: number;

  @ApiProperty({ description: 'Box 1a/1b: the asset (upper-case ticker).', example: 'BTC' })
  asset: string;

  @ApiProperty({ description: 'Box 1c: units, decimal text.', example: '0.5' })
  units: string;

  @ApiProperty(
    nullableString('Box 1d: date acquired (YYYY-MM-DD); null when blank or VARIOUS.', '2024-01-02'),
  )
  date_acquired: string | null;

  @ApiProperty({ description: 'Box 1e: date sold (YYYY-MM-DD).', example: '2025-03-01' })
  date_sold: string;

  @ApiProperty({ description: 'Box 1f: proceeds, USD decimal text.', example: '32500' })
  proceeds: string;

  @ApiProperty(nullableString('Box 1g: cost basis, USD decimal text; null when not reported.', '20005'))
  cost_basis: string | null;

  @ApiProperty({
    enum: ['short', 'long', null],
    nullable: true,
    description: 'Box 2: the term; null when not reported.',
  })
  term: 'short' | 'long' | null;

  @ApiProperty(nullableString('The broker’s own reference for the line, if the file has one.'))
  reference: string | null;
}

export class ServiceSideDto {
  @ApiProperty({ description: 'The sale (or fee) transaction of the service’s lines.' })
  transaction_id: string;

  @ApiProperty({ description: 'Its account.', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'Units disposed of, decimal text.', example: '0.5' })
  units: string;

  @ApiProperty(nullableString('Date acquired (YYYY-MM-DD); null when the lines have several (VARIOUS).'))
  date_acquired: string | null;

  @ApiProperty({ description: 'Date sold (YYYY-MM-DD).' })
  date_sold: string;

  @ApiProperty({ description: 'Proceeds: the sum of the Form 8949 lines’ cents.', example: '32500.00' })
  proceeds: string;

  @ApiProperty({ description: 'Cost basis: the sum of the Form 8949 lines’ cents.', example: '20005.00' })
  cost_basis: string;

  @ApiProperty({
    enum: ['short', 'long', null],
    nullable: true,
    description: 'The term; null when the lines mix terms.',
  })
  term: 'short' | 'long' | null;

  @ApiProperty({ type: 'integer', description: 'Form 8949 lines (lot pieces) on this side.', example: 1 })
  lines: number;
}

export class FieldDifferenceDto {
  @ApiProperty({
    enum: ['units', 'date_acquired', 'proceeds', 'cost_basis', 'term'],
    description: 'The field that differs.',
  })
  field: string;

  @ApiProperty({ description: 'The broker’s value (amounts in cents).', example: '20000.00' })
  broker: string;

  @ApiProperty({
    description: 'The service’s value (`VARIOUS` or `mixed` for several dates or terms).',
    example: '20005.00',
  })
  service: string;

  @ApiProperty(nullableString('broker − service for units and amounts; null for dates and terms.', '-5'))
  difference: string | null;
}

export class PairingDto {
  @ApiProperty({ type: BrokerLineDto, description: 'The broker’s line.' })
  broker: BrokerLineDto;

  @ApiProperty({ type: ServiceSideDto, description: 'The service’s line, or the lines of one sale.' })
  service: ServiceSideDto;

  @ApiProperty({
    enum: ['lot', 'sale', 'same_day'],
    description:
      '`lot`: same asset, dates and units as one Form 8949 line; `sale`: the units of one sale’s lines add up; `same_day`: the one sale of the asset left on that date (fields differ).',
  })
  matched_by: string;

  @ApiProperty({ type: [FieldDifferenceDto], description: 'What differs; empty when the two agree.' })
  differences: FieldDifferenceDto[];
}

export class Form1099DaCountsDto {
  @ApiProperty({ type: 'integer', description: 'Pairs that agree.' })
  matched: number;

  @ApiProperty({ type: 'integer', description: 'Pairs with differences.' })
  different: number;

  @ApiProperty({ type: 'integer', description: 'Broker lines with no service counterpart.' })
  unmatched_broker: number;

  @ApiProperty({ type: 'integer', description: 'Service sales with no broker line.' })
  unmatched_service: number;
}

export class Form1099DaReconciliationDto {
  @ApiProperty({ type: 'integer', description: 'The tax year.', example: 2025 })
  tax_year: number;

  @ApiProperty({ enum: [...COST_BASIS_METHODS], description: 'Lot selection of the service’s lines.' })
  method: CostBasisMethod;
  @ApiProperty({
    description:
      'Where the lots were selected from: `query` (the `method` asked for, a what-if over the whole history), `elected` (each disposal by the method elected for its account on its date; `method` is the one in force for the scope at the end), `default` (no election: FIFO).',
    enum: ['query', 'elected', 'default'],
  })
  method_source: 'query' | 'elected' | 'default';

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The account asked for; null: the tenant.',
  })
  account_id: string | null;

  @ApiProperty({ type: 'integer', description: 'Accounts covered.' })
  accounts: number;

  @ApiProperty({ type: 'integer', description: 'Lines in the broker’s file.' })
  broker_lines: number;

  @ApiProperty({ type: 'integer', description: 'The service’s Form 8949 lines of the year.' })
  service_lines: number;

  @ApiProperty({ type: Form1099DaCountsDto, description: 'How many of each outcome, over the whole file.' })
  counts: Form1099DaCountsDto;

  @ApiProperty({ description: 'Sum of the broker’s proceeds (cents).', example: '136250.00' })
  broker_proceeds: string;

  @ApiProperty({ description: 'Sum of the service’s proceeds of the year (cents).', example: '127650.00' })
  service_proceeds: string;

  @ApiProperty({
    type: [PairingDto],
    description: 'Pairs that agree, in file order: this page’s (at most `limit`; `counts.matched` in all).',
  })
  matched: PairingDto[];

  @ApiProperty({
    type: [PairingDto],
    description: 'Pairs with differences, in file order: this page’s (at most `limit`).',
  })
  different: PairingDto[];

  @ApiProperty({
    type: [BrokerLineDto],
    description: 'Broker lines the service has nothing for, in file order: this page’s (at most `limit`).',
  })
  unmatched_broker: BrokerLineDto[];

  @ApiProperty({
    type: [ServiceSideDto],
    description: 'The service’s sales the broker did not report: this page’s (at most `limit`).',
  })
  unmatched_service: ServiceSideDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Send the same file and parameters with `cursor` set to this for the next page of every list; null when no list has more.',
  })
  next_cursor: string | null;
}
