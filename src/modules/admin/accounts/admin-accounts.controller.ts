import { Audited } from '../../../common/decorators/audited.decorator.js';
import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Scopes } from '../../../common/decorators/auth.decorators.js';
import { UuidParam } from '../../../common/validation/validation.js';
import { AppConfig } from '../../../config/app-config.js';
import {
  AccountsService,
  AdminAccountDto,
  ApiImportFileBody,
  IMPORT_FILE_DESCRIPTION,
  AdminAccountsQueryDto,
  ReconnectCredentialsDto,
  sourceOptionsOf,
  toAdminAccount,
} from '../../accounts/index.js';
import {
  AdminAccountListDto,
  AdminImportQueryDto,
  AdminTenantQueryDto,
  CreateAccountDto,
  ImportResultDto,
  RefreshResultDto,
} from './admin-accounts.dto.js';
import { sourceLinkExamples } from '../../sources/index.js';
import { readImportUpload } from '../../../common/http/read-text-body.js';

/**
 * The admin API for accounts (design §1: the internal admin team, through Swagger UI). Admin
 * clients belong to the operator tenant, which holds no partner data, so every request names the
 * tenant it acts on (`tenant` in the body or query; design §3) and every answer names it back. Only
 * the list may span all tenants, when it is given no tenant.
 */
@ApiTags('Admin: accounts')
@Controller('admin/accounts')
@Scopes('admin')
export class AdminAccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @Audited('account.linked', { target: { result: 'accountId' } })
  @ApiOperation({
    summary: 'Link an account for a tenant',
    description:
      'Starts in `syncing`; the scheduler fetches it within a minute, or call the refresh endpoint. Credentials are encrypted at rest and never returned.',
  })
  @ApiBody({ type: CreateAccountDto, examples: linkExamples() })
  @ApiCreatedResponse({ type: AdminAccountDto })
  @ApiBadRequestResponse({ description: 'A field is invalid (named in errors).' })
  @ApiConflictResponse({ description: 'The identity or collection already has an account in the tenant.' })
  async create(@Body() body: CreateAccountDto): Promise<AdminAccountDto> {
    const tenantId = await this.accounts.partnerTenantIdOf(body.tenant);
    const account = await this.accounts.create(
      tenantId,
      {
        platform: body.platform,
        identity: body.identity,
        source: body.source,
        collectionId: body.collectionId?.toLowerCase(),
        address: body.address,
        chain: body.chain,
        credentials: body.credentials,
        sourceOptions: sourceOptionsOf(body),
      },
      this.config.sandboxEnabled,
    );
    return toAdminAccount(account, await this.accounts.tenantSlugOf(tenantId));
  }

  @Get()
  @ApiOperation({
    summary: 'List accounts with their state (one tenant or all), filtered by sync state, with counts',
    description:
      'Without `tenant`, lists every tenant’s accounts; each row names its tenant. `syncStatus` keeps the accounts in one state; `counts` gives the number of accounts in every state for the same tenant selection. `review=needs_review` keeps the accounts whose source-reported balances disagree with their transactions; `needsReview` counts them.',
  })
  @ApiOkResponse({ type: AdminAccountListDto })
  async list(@Query() query: AdminAccountsQueryDto): Promise<AdminAccountListDto> {
    const page = await this.accounts.adminList(
      query.tenant,
      query.limit,
      query.cursor,
      query.syncStatus,
      query.review,
    );
    return {
      accounts: page.accounts.map((a) => toAdminAccount(a, page.tenants.get(a.tenantId) ?? a.tenantId)),
      nextCursor: page.nextCursor,
      counts: page.counts,
      needsReview: page.needsReview,
    };
  }

  @Get(':accountId')
  @ApiOperation({
    summary: 'One account with its state',
    description:
      'The account of the tenant named by `tenant`, with its sync state, source, last sync and error (never its credentials). An account of another tenant answers 404, as one that does not exist.',
  })
  @ApiOkResponse({ type: AdminAccountDto })
  @ApiNotFoundResponse({ description: 'Account not found.' })
  async get(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: AdminTenantQueryDto,
  ): Promise<AdminAccountDto> {
    const account = await this.accounts.adminFind(accountId, tenant);
    return toAdminAccount(account, await this.accounts.tenantSlugOf(account.tenantId));
  }

  @Post(':accountId/refresh')
  @Audited('account.refreshed')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Refresh an account now (ignores the 30-minute rule)',
    description:
      'Fetches the account from its source at once and answers what happened: `refreshed` with the rows inserted, updated and deleted; `pending` while the source still prepares the history; `failed` with the reason (the old data stays); `busy` when another refresh of it holds the account (its result will land).',
  })
  @ApiOkResponse({ type: RefreshResultDto })
  @ApiNotFoundResponse({ description: 'Account not found.' })
  async refresh(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: AdminTenantQueryDto,
  ): Promise<RefreshResultDto> {
    const { account, outcome } = await this.accounts.adminRefresh(accountId, tenant);
    return {
      status: outcome.status,
      inserted: outcome.status === 'refreshed' ? outcome.inserted : null,
      updated: outcome.status === 'refreshed' ? outcome.updated : null,
      deleted: outcome.status === 'refreshed' ? outcome.deleted : null,
      message: outcome.status === 'failed' ? outcome.message : null,
      account: toAdminAccount(account, await this.accounts.tenantSlugOf(account.tenantId)),
    };
  }

  @Post(':accountId/import')
  @Audited('account.imported')
  @HttpCode(200)
  @ApiOperation({
    summary: "Import transactions from a file into a csv account: the service's CSV or an exchange export",
    description: IMPORT_FILE_DESCRIPTION,
  })
  @ApiImportFileBody()
  @ApiOkResponse({ type: ImportResultDto })
  @ApiBadRequestResponse({
    description:
      'Bad rows, by line number and column ("line 3": [...]), a header no layout takes (per layout tried, what it lacks), an unknown format, or a form without its file; nothing imported.',
  })
  @ApiConflictResponse({ description: 'The account is not a csv account, or a refresh of it is running.' })
  @ApiPayloadTooLargeResponse({ description: 'Over 20 MB.' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Neither text/csv nor multipart/form-data.' })
  async import(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant, format: queryFormat }: AdminImportQueryDto,
    @Req() request: Request,
  ): Promise<ImportResultDto> {
    const account = await this.accounts.adminFind(accountId, tenant);
    const { text, format } = await readImportUpload(request, queryFormat);
    const summary = await this.accounts.importCsv(account.tenantId, accountId, text, undefined, format);
    return { accountId, tenant, ...summary };
  }

  @Put(':accountId/credentials')
  @Audited('account.credentials_replaced')
  @ApiOperation({
    summary: 'Reconnect an account of a tenant with new credentials',
    description:
      'As the partner route: checked with the source where it can, stored encrypted in place of the old ones, the account `connected` and `syncing` again with a refresh started.',
  })
  @ApiOkResponse({ type: AdminAccountDto })
  @ApiBadRequestResponse({ description: 'credentials missing or malformed, or the source takes none.' })
  @ApiNotFoundResponse({ description: 'Account not found.' })
  @ApiUnprocessableEntityResponse({
    description: 'The source refused the credentials (reason `credentials_refused`); nothing was stored.',
  })
  @ApiServiceUnavailableResponse({
    description: 'The source could not be reached to check them (Retry-After); nothing was stored.',
  })
  async reconnect(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: AdminTenantQueryDto,
    @Body() body: ReconnectCredentialsDto,
  ): Promise<AdminAccountDto> {
    const account = await this.accounts.adminReconnect(accountId, tenant, body.credentials);
    return toAdminAccount(account, await this.accounts.tenantSlugOf(account.tenantId));
  }

  @Delete(':accountId')
  @Audited('account.unlinked')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an account with its transactions and balances',
    description:
      'Removes the account with its transactions and balances; accounts linked to it by own-account transfers get new balances. Report snapshots that froze it are kept. Recorded in the audit trail; 204 without a body.',
  })
  @ApiNoContentResponse({ description: 'Deleted; accounts it had transfers with get new balances.' })
  @ApiNotFoundResponse({ description: 'Account not found.' })
  async delete(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: AdminTenantQueryDto,
  ): Promise<void> {
    await this.accounts.adminDelete(accountId, tenant);
  }
}

/**
 * One request body per way of linking (each source's examples, sources/connectors), each of which
 * Swagger UI's Try it out sends as it stands and gets a 201 (once: a second time the identity is
 * taken, 409). Without them Swagger UI built one body out of every property's example, every
 * alternative at once (address and xpub, credentials), which answers 400.
 */
function linkExamples(): Record<string, { summary: string; value: Record<string, unknown> }> {
  return Object.fromEntries(
    Object.entries(sourceLinkExamples()).map(([name, { summary, body }]) => [
      name,
      { summary, value: { tenant: 'sandbox', identity: `household-1001/${name}`, ...body } },
    ]),
  );
}
