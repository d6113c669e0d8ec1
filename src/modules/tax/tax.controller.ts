import { AuditedRead } from '../../common/decorators/audited.decorator.js';
import { ApiHeavyWorkResponses } from './heavy-work-responses.js';
import { Controller, Get, HttpCode, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiPayloadTooLargeResponse,
  ApiUnsupportedMediaTypeResponse,
  ApiOkResponse,
  ApiOperation,
  ApiExtraModels,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readCsvBody } from '../../common/http/csv-body.js';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { Form1099DaQueryDto, Form8949QueryDto, TaxReportQueryDto } from './dto/tax-queries.dto.js';
import { Form1099DaReconciliationDto } from './dto/form-1099-da.dto.js';
import { Form8949Dto, GainsReportDto } from './dto/tax-responses.dto.js';
import { form8949FileName, toForm1099DaDto, toForm8949Dto, toGainsReportDto } from './tax-report.mapper.js';
import { TaxReportService, type TaxReportQuery } from './tax-report.service.js';

/** A broker's 1099-DA is a few thousand lines; 5 MB leaves room for a busy account's year. */
const FORM_1099_DA_LIMIT_BYTES = 5 * 1024 * 1024;

const toQuery = (query: Omit<TaxReportQueryDto, 'asset'> & { asset?: string }): TaxReportQuery => ({
  taxYear: Number(query.tax_year),
  accountId: query.account_id,
  identity: query.identity,
  asset: query.asset,
  method: query.method,
});

@ApiTags('Tax reporting')
@Scopes('partner')
@Controller('taip')
export class TaxController {
  constructor(private readonly reports: TaxReportService) {}

  @Get('gains-report')
  @AuditedRead('account.read.gains', {
    target: { query: 'account_id' },
    query: ['tax_year', 'method', 'asset', 'identity'],
  })
  @ApiOperation({
    summary: 'Realized gains of a tax year, prepared for Form 8949',
    description:
      'Every account of the tenant, or one (`account_id` or `identity`). Same cost-basis engine and ledger as the balances: summed over all years, the FIFO report equals the balances’ realizedGainLoss. Wash-sale rules are not applied. Rules: docs/tax-report.md.',
  })
  @ApiOkResponse({ type: GainsReportDto })
  @ApiBadRequestResponse({
    description:
      'tax_year missing, not four digits, before 2009 or after the current year; a malformed parameter (named in errors).',
  })
  @ApiNotFoundResponse({ description: 'The account (or identity) does not exist for this tenant.' })
  @ApiHeavyWorkResponses()
  async gainsReport(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: TaxReportQueryDto,
  ): Promise<GainsReportDto> {
    return toGainsReportDto(await this.reports.gainsReport(client.tenantId, toQuery(query)));
  }

  @Get('form-8949')
  @AuditedRead('account.read.form8949', {
    target: { query: 'account_id' },
    query: ['tax_year', 'method', 'asset', 'identity', 'format'],
  })
  @ApiOperation({
    summary: 'Form 8949 lines of a tax year, as JSON, CSV or PDF',
    description:
      'One line per lot piece disposed of: description, dates acquired and sold, proceeds, basis and gain in cents, part and box (C/F before 2025; H/K for exchanges and I/L for own wallets from 2025; G/J from 2026 for a lot acquired on or after 2026-01-01 in the exchange account that sells it), totals per box and part. `format=csv` answers an RFC 4180 attachment whose columns sum to the gains report’s totals. `format=pdf` answers the form in the IRS layout (a summary page for Schedule D, then one set of pages per box, 14 lines a page, line 2 totals per page and the box total on its last page, the taxpayer block empty), with the same cents as the JSON and CSV (docs/tax-report.md, "Form 8949 as PDF").',
  })
  @ApiExtraModels(Form8949Dto)
  @ApiOkResponse({
    description:
      'JSON, or with format=csv a text/csv attachment, or with format=pdf an application/pdf attachment.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(Form8949Dto) } },
      'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV, one row per Form 8949 line.' } },
      'application/pdf': {
        schema: {
          type: 'string',
          format: 'binary',
          description: 'Form 8949 in the IRS layout (letter size).',
        },
      },
    },
  })
  @ApiBadRequestResponse({ description: 'A malformed parameter (named in errors).' })
  @ApiNotFoundResponse({ description: 'The account (or identity) does not exist for this tenant.' })
  @ApiHeavyWorkResponses()
  async form8949(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: Form8949QueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Form8949Dto | string | StreamableFile> {
    if (query.format === 'pdf') {
      const report = await this.reports.form8949Pdf(client.tenantId, toQuery(query));
      return new StreamableFile(report.pdf, {
        type: 'application/pdf',
        disposition: `attachment; filename="${form8949FileName(report, 'pdf')}"`,
        length: report.pdf.byteLength,
      });
    }
    if (query.format !== 'csv')
      return toForm8949Dto(await this.reports.form8949Json(client.tenantId, toQuery(query)));
    const report = await this.reports.form8949Csv(client.tenantId, toQuery(query));
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="${form8949FileName(report, 'csv')}"`);
    return report.csv;
  }

  @Post('form-1099-da/reconciliation')
  @HttpCode(200)
  @AuditedRead('account.read.form1099da_reconciliation', {
    target: { query: 'account_id' },
    query: ['tax_year', 'method', 'identity', 'limit'],
  })
  @ApiOperation({
    summary: 'Reconcile a broker’s Form 1099-DA with the service’s disposals of the year',
    description:
      'The body is the broker’s 1099-DA as CSV (Content-Type text/csv, up to 5 MB) in the documented layout of the form’s boxes (docs/tax-report.md, "Form 1099-DA reconciliation"). Each line is matched with the year’s Form 8949 lines of the account (or the tenant): per lot, per sale, or the one sale of the asset that day; the answer lists the matches, the differences (units, date acquired, proceeds, basis, term: both values) and what is unmatched on either side. Paged: each of the four lists holds at most `limit` items (default 100, at most 1,000) while `counts` and the totals cover the whole file; the next page is the same file and parameters with `cursor` = `next_cursor` (null on the last page). Nothing is stored. An addition to the published API.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({
    description: 'The broker’s Form 1099-DA lines as CSV with a header row.',
    schema: {
      type: 'string',
      example:
        'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference\nBTC,0.5,2024-01-02,2025-03-01,32500.00,20005.00,long,A-1\n',
    },
  })
  @ApiOkResponse({ type: Form1099DaReconciliationDto })
  @ApiBadRequestResponse({
    description:
      'A malformed parameter, bad lines of the file by line number ("line 3": [...]), or a cursor that is not this endpoint’s for this file and these parameters, or whose reconciliation changed since (`cursor`).',
  })
  @ApiNotFoundResponse({ description: 'The account (or identity) does not exist for this tenant.' })
  @ApiPayloadTooLargeResponse({ description: 'Over 5 MB.' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Not text/csv.' })
  @ApiHeavyWorkResponses()
  async reconcileForm1099Da(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: Form1099DaQueryDto,
    @Req() request: Request,
  ): Promise<Form1099DaReconciliationDto> {
    const csv = await readCsvBody(request, FORM_1099_DA_LIMIT_BYTES);
    return toForm1099DaDto(
      await this.reports.reconcileForm1099Da(client.tenantId, toQuery(query), csv, {
        limit: query.limit,
        cursor: query.cursor,
      }),
    );
  }
}
