/**
 * An import's request and answer, shared by the partner route (POST /v1/api/accounts/{id}/import)
 * and the admin one (POST /admin/accounts/{id}/import): one description of the file, its formats
 * and its limit, so the two routes cannot drift apart.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { UPLOAD_FILE_FIELD, UPLOAD_FORMAT_FIELD } from '../../../common/http/read-text-body.js';
import { ApiBodyByMediaType } from '../../../common/openapi/request-bodies.js';
import { IMPORT_FORMATS } from '../../sources/index.js';

export const IMPORT_FORMAT_DESCRIPTION =
  'The file\'s format: `csv` (the service\'s own, docs/csv-format.md) or an exchange export (docs/sources.md, "Export files"). Absent: detected from the header row.';

/** What the import routes say about the file they take (their operation description starts here). */
export const IMPORT_FILE_DESCRIPTION =
  'The file is the service\'s CSV (docs/csv-format.md) or an exchange\'s transaction export: Coinbase transaction history, Kraken ledgers or trades, Gemini transaction history, Bitstamp transactions (docs/sources.md, "Export files"). Send it as the body (Content-Type text/csv, `format` in the query) or as a multipart/form-data upload (field `file`, optional field `format`); up to 20 MB either way. The format is detected from the header row unless named; a header no layout takes is answered with the columns each layout tried lacks, closest first. All rows or none: every bad row is reported with its line number and column and nothing is imported. Existing transaction ids are updated.';

/** The import's request body: the file as text/csv, or the upload form (Swagger UI shows a file picker). */
export const ApiImportFileBody = () =>
  applyDecorators(
    ApiBodyByMediaType(
      'text/csv: the file itself. multipart/form-data: the file in the field `file` and optionally its format in the field `format`.',
      {
        'text/csv': {
          type: 'string',
          description: 'The file (text/csv).',
          example:
            'transactionId,timestamp,symbol,direction,amount,price,fee,transferId\ntx-1,2024-01-02T03:04:05Z,BTC,buy,0.5,42000.10,12.60,\n',
        },
        // A `binary` string property: Swagger UI offers a file chooser for it.
        'multipart/form-data': {
          type: 'object',
          description: 'The upload form.',
          required: [UPLOAD_FILE_FIELD],
          properties: {
            [UPLOAD_FILE_FIELD]: { type: 'string', format: 'binary', description: 'The file, up to 20 MB.' },
            [UPLOAD_FORMAT_FIELD]: {
              type: 'string',
              enum: [...IMPORT_FORMATS],
              description: IMPORT_FORMAT_DESCRIPTION,
            },
          },
        },
      },
    ),
  );

/** The partner import's query: the format of a file sent as the request body. */
export class ImportQueryDto {
  @ApiPropertyOptional({ description: IMPORT_FORMAT_DESCRIPTION, enum: IMPORT_FORMATS })
  @IsOptional()
  @IsIn(IMPORT_FORMATS, { message: `format must be one of ${IMPORT_FORMATS.join(', ')}.` })
  format?: string;
}

/** What an import stored. */
export class ImportSummaryDto {
  @ApiProperty({ description: 'Account id (UUID).', format: 'uuid' })
  accountId: string;

  @ApiProperty({
    type: 'integer',
    description:
      "Transactions read from the file (an export's trade between two crypto assets gives two; skipped rows none).",
  })
  rows: number;

  @ApiProperty({ type: 'integer', description: 'New transactions stored.' })
  inserted: number;

  @ApiProperty({
    type: 'integer',
    description: 'Existing transactions (same transactionId) whose fields changed.',
  })
  updated: number;

  @ApiProperty({ type: 'integer', description: 'Rows identical to what was stored.' })
  unchanged: number;

  @ApiProperty({
    description: 'The format the file was read as (named, or detected from its header row).',
    enum: IMPORT_FORMATS,
    example: 'csv',
  })
  format: string;
}
