import { ApiProperty } from '@nestjs/swagger';
import { COST_BASIS_METHODS, type CostBasisMethod } from '../../../domain/cost-basis/index.js';

export class ReadinessReasonDto {
  @ApiProperty({
    description:
      '`unknown_basis`: lines dispose of coins of unknown basis; `uncovered_disposal`: lines sell more than the account held; `inconsistent_history`: an earlier shortfall makes the lots suspect; `lot_selection_invalid`: a stored lot selection no longer fits; `identified_late`: a disposal of the year has a lot selection recorded after it (not applied); `account_not_synced`: an account’s data may be incomplete.',
    enum: [
      'unknown_basis',
      'uncovered_disposal',
      'inconsistent_history',
      'account_not_synced',
      'lot_selection_invalid',
      'identified_late',
    ],
  })
  code: string;

  @ApiProperty({
    type: 'integer',
    description: 'How many lines, transactions or accounts the reason applies to.',
    example: 2,
  })
  count: number;

  @ApiProperty({ description: 'What to review, in words.' })
  message: string;
}

export class TermTotalsDto {
  @ApiProperty({ type: 'integer', description: 'Form 8949 lines in this term.', example: 3 })
  lines: number;

  @ApiProperty({
    description: 'Proceeds, currency text (sum of the cent-rounded lines).',
    example: '$59,970.00',
  })
  proceeds: string;

  @ApiProperty({
    description: 'Cost basis, currency text (sum of the cent-rounded lines).',
    example: '$20,010.00',
  })
  cost_basis: string;

  @ApiProperty({
    description: 'Gain (loss negative), currency text: proceeds − cost basis.',
    example: '$39,960.00',
  })
  gains: string;
}

export class AssetGainsDto {
  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  asset: string;

  @ApiProperty({ type: 'integer', description: 'Taxable disposals of this asset in the year.', example: 2 })
  transactions: number;

  @ApiProperty({ description: 'Net gain of the asset, currency text.', example: '$47,467.19' })
  net_gains: string;

  @ApiProperty({ description: 'Short-term gain of the asset, currency text.', example: '$0.00' })
  short_term: string;

  @ApiProperty({ description: 'Long-term gain of the asset, currency text.', example: '$47,467.19' })
  long_term: string;

  @ApiProperty({ description: 'Proceeds of the asset, currency text.', example: '$82,474.20' })
  proceeds: string;

  @ApiProperty({ description: 'Cost basis of the asset, currency text.', example: '$35,007.01' })
  cost_basis: string;
}

export class ExactGainsDto {
  @ApiProperty({
    description:
      'Net gain, unrounded decimal text (USD): sums exactly to the balances’ realizedGainLoss over all years.',
    example: '51455.199',
  })
  net_gains_usd: string;

  @ApiProperty({ description: 'Short-term gain, unrounded decimal text (USD).', example: '3988' })
  short_term_usd: string;

  @ApiProperty({ description: 'Long-term gain, unrounded decimal text (USD).', example: '47467.199' })
  long_term_usd: string;

  @ApiProperty({ description: 'Proceeds, unrounded decimal text (USD).', example: '94962.2' })
  proceeds_usd: string;

  @ApiProperty({ description: 'Cost basis, unrounded decimal text (USD).', example: '43507.001' })
  cost_basis_usd: string;
}

export class GainsReportDto {
  @ApiProperty({ description: 'The asset asked for, or `ALL`.', example: 'ALL' })
  asset: string;

  @ApiProperty({
    description:
      'Net realized gain (loss negative) of the year, currency text: the sum of the Form 8949 lines, each rounded to cents.',
    example: '$51,455.19',
  })
  net_gains: string;

  @ApiProperty({
    type: 'integer',
    description:
      'Taxable disposals in the year (sales and fees paid in an asset), counted as transactions, not lines.',
    example: 4,
  })
  transactions: number;

  @ApiProperty({
    description: 'Form 8949 readiness: `ready`, or `needs_review` (see form_8949_reasons).',
    enum: ['ready', 'needs_review'],
  })
  form_8949: 'ready' | 'needs_review';

  @ApiProperty({ type: [ReadinessReasonDto], description: 'Why the form needs review; empty when ready.' })
  form_8949_reasons: ReadinessReasonDto[];

  @ApiProperty({
    description: 'Short-term gain (held one year or less), currency text.',
    example: '$3,988.00',
  })
  short_term: string;

  @ApiProperty({
    description: 'Long-term gain (held more than one year), currency text.',
    example: '$47,467.19',
  })
  long_term: string;

  @ApiProperty({
    type: TermTotalsDto,
    description: 'Short-term lines, proceeds, basis and gain (Form 8949 part I).',
  })
  short_term_totals: TermTotalsDto;

  @ApiProperty({
    type: TermTotalsDto,
    description: 'Long-term lines, proceeds, basis and gain (Form 8949 part II).',
  })
  long_term_totals: TermTotalsDto;

  @ApiProperty({
    type: [AssetGainsDto],
    description: 'One row per asset with disposals in the year, by ticker.',
  })
  assets: AssetGainsDto[];

  @ApiProperty({
    type: ExactGainsDto,
    description: 'The same totals unrounded, as the engine computes them.',
  })
  exact: ExactGainsDto;

  @ApiProperty({
    description:
      'Income received in the year (e.g. staking rewards), currency text: ordinary income, not on Form 8949.',
    example: '$0.00',
  })
  ordinary_income: string;

  @ApiProperty({ type: 'integer', description: 'Tax year of the report.', example: 2024 })
  tax_year: number;

  @ApiProperty({ description: 'Lot selection method used.', enum: [...COST_BASIS_METHODS] })
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
    description: 'The account reported on; null for every account of the tenant.',
  })
  account_id: string | null;

  @ApiProperty({ type: 'integer', description: 'Accounts covered by the report.', example: 12 })
  accounts: number;

  @ApiProperty({
    description: 'Always false: wash-sale rules (IRC §1091) are not applied to digital assets.',
    example: false,
  })
  wash_sale_rules_applied: boolean;

  @ApiProperty({
    type: [String],
    description: 'How the figures were made (wash sales, rounding, per-account lots).',
  })
  notes: string[];
}

export class Form8949LineDto {
  @ApiProperty({ description: 'Form part: `I` short-term, `II` long-term.', enum: ['I', 'II'] })
  part: string;

  @ApiProperty({
    description:
      'Check box: C/F before 2025; from 2025 H/K (exchange: Form 1099-DA without basis reported) or I/L (own wallet: no 1099-DA); from 2026 G/J for a covered digital asset (sold from an exchange account, acquired in that same account on or after 2026-01-01: the broker reports its basis).',
    enum: ['C', 'F', 'G', 'H', 'I', 'J', 'K', 'L'],
  })
  box: string;

  @ApiProperty({
    description: 'Holding period: `short` (one year or less) or `long`.',
    enum: ['short', 'long'],
  })
  term: string;

  @ApiProperty({ description: '(a) Description of property.', example: '0.5 BTC' })
  description: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: '(b) Date acquired (UTC, YYYY-MM-DD); null when no lot covered the quantity.',
    example: '2022-09-15',
  })
  date_acquired: string | null;

  @ApiProperty({ description: '(c) Date sold or disposed of (UTC, YYYY-MM-DD).', example: '2024-05-01' })
  date_sold: string;

  @ApiProperty({ description: '(d) Proceeds, USD with two decimals.', example: '59970.00' })
  proceeds: string;

  @ApiProperty({ description: '(e) Cost or other basis, USD with two decimals.', example: '20010.00' })
  cost_basis: string;

  @ApiProperty({
    description: '(h) Gain or (loss) = (d) − (e), USD with two decimals, negative for a loss.',
    example: '39960.00',
  })
  gain: string;

  @ApiProperty({ description: 'Asset ticker.', example: 'BTC' })
  asset: string;

  @ApiProperty({ description: 'Quantity disposed of, decimal text.', example: '1' })
  quantity: string;

  @ApiProperty({ description: 'Account that disposed of the asset (UUID).', format: 'uuid' })
  account_id: string;

  @ApiProperty({ description: 'The sale (or fee) transaction.', example: 'a6' })
  transaction_id: string;

  @ApiProperty({ description: 'True when the line must be reviewed before filing.' })
  needs_review: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['unknown_basis', 'uncovered_disposal', 'identified_late', null],
    description:
      '`unknown_basis` or `uncovered_disposal` (the basis or date must be supplied), else `identified_late` (the sale has a lot selection recorded after it, not applied); null when the line is complete.',
  })
  review_reason: string | null;

  @ApiProperty({
    description:
      'The sale has a lot selection recorded after it (a late identification, Treas. Reg. §1.1012-1(j)(3)): the line’s lots are the standing method’s, not the selection’s. docs/cost-basis.md, "Specific identification".',
  })
  identified_late: boolean;
}

export class PartTotalsDto {
  @ApiProperty({ description: 'Form part.', enum: ['I', 'II'] })
  part: string;

  @ApiProperty({ description: 'Holding period.', enum: ['short', 'long'] })
  term: string;

  @ApiProperty({ type: 'integer', description: 'Lines.', example: 2 })
  lines: number;

  @ApiProperty({ description: 'Total (d) proceeds, USD.', example: '19000.00' })
  proceeds: string;

  @ApiProperty({ description: 'Total (e) cost basis, USD.', example: '4002.00' })
  cost_basis: string;

  @ApiProperty({ description: 'Total (h) gain or (loss), USD.', example: '14998.00' })
  gain: string;
}

export class BoxTotalsDto extends PartTotalsDto {
  @ApiProperty({ description: 'Check box of this set of pages.', example: 'K' })
  box: string;
}

export class Form8949Dto {
  @ApiProperty({ type: 'integer', description: 'Tax year of the form.', example: 2024 })
  tax_year: number;

  @ApiProperty({ description: 'The asset asked for, or `ALL`.', example: 'ALL' })
  asset: string;

  @ApiProperty({ description: 'Lot selection method used.', enum: [...COST_BASIS_METHODS] })
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
    description: 'The account reported on; null for every account of the tenant.',
  })
  account_id: string | null;

  @ApiProperty({ description: 'Readiness: `ready` or `needs_review`.', enum: ['ready', 'needs_review'] })
  form_8949: 'ready' | 'needs_review';

  @ApiProperty({ type: [ReadinessReasonDto], description: 'Why the form needs review; empty when ready.' })
  form_8949_reasons: ReadinessReasonDto[];

  @ApiProperty({
    description:
      'Which boxes were chosen and on what rule (from 2026: G/J for covered digital assets, H/K other exchange sales, I/L own wallets).',
  })
  box_assumption: string;

  @ApiProperty({
    type: [Form8949LineDto],
    description: 'The lines: part I before part II, by box, then by date sold.',
  })
  lines: Form8949LineDto[];

  @ApiProperty({ type: [BoxTotalsDto], description: 'Totals per box (each box is its own set of pages).' })
  totals: BoxTotalsDto[];

  @ApiProperty({ type: PartTotalsDto, description: 'Totals of part I (every short-term box).' })
  part_i_totals: PartTotalsDto;

  @ApiProperty({ type: PartTotalsDto, description: 'Totals of part II (every long-term box).' })
  part_ii_totals: PartTotalsDto;
}
