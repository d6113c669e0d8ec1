import { Body, Controller, Delete, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Scopes } from '../../../common/decorators/auth.decorators.js';
import { UuidParam } from '../../../common/validation/validation.js';
import { AppConfig } from '../../../config/app-config.js';
import { toAdminAccount } from '../accounts.mapper.js';
import { AccountsService } from '../accounts.service.js';
import { AdminAccountsQueryDto } from '../dto/account-queries.dto.js';
import {
  AdminAccountDto,
  AdminAccountListDto,
  AdminTenantQueryDto,
  CreateAccountDto,
  ImportResultDto,
  RefreshResultDto,
} from '../dto/admin-accounts.dto.js';
import { sourceOptionsOf } from '../dto/source-options.js';
import { readCsvBody } from './read-text-body.js';

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
  @ApiOperation({
    summary: 'Link an account for a tenant',
    description:
      'Starts in `syncing`; the scheduler fetches it within a minute, or call the refresh endpoint. Credentials are encrypted at rest and never returned.',
  })
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
      'Without `tenant`, lists every tenant’s accounts; each row names its tenant. `syncStatus` keeps the accounts in one state; `counts` gives the number of accounts in every state for the same tenant selection.',
  })
  @ApiOkResponse({ type: AdminAccountListDto })
  async list(@Query() query: AdminAccountsQueryDto): Promise<AdminAccountListDto> {
    const page = await this.accounts.adminList(query.tenant, query.limit, query.cursor, query.syncStatus);
    return {
      accounts: page.accounts.map((a) => toAdminAccount(a, page.tenants.get(a.tenantId) ?? a.tenantId)),
      nextCursor: page.nextCursor,
      counts: page.counts,
    };
  }

  @Get(':accountId')
  @ApiOperation({ summary: 'One account with its state' })
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
  @HttpCode(200)
  @ApiOperation({ summary: 'Refresh an account now (ignores the 30-minute rule)' })
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
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import transactions from CSV (docs/csv-format.md) into a csv account',
    description:
      'Body: the CSV file, Content-Type text/csv, up to 20 MB. All rows or none: every bad row is reported with its line number and nothing is imported. Existing transactionIds are updated.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({
    description: 'The CSV file.',
    schema: {
      type: 'string',
      example:
        'transactionId,timestamp,symbol,direction,amount,price,fee,transferId\ntx-1,2024-01-02T03:04:05Z,BTC,buy,0.5,42000.10,12.60,\n',
    },
  })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiBadRequestResponse({ description: 'Bad rows, by line number ("line 3": [...]); nothing imported.' })
  @ApiConflictResponse({ description: 'The account is not a csv account, or a refresh of it is running.' })
  @ApiPayloadTooLargeResponse({ description: 'Over 20 MB.' })
  async import(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: AdminTenantQueryDto,
    @Req() request: Request,
  ): Promise<ImportResultDto> {
    const account = await this.accounts.adminFind(accountId, tenant);
    const csv = await readCsvBody(request);
    const summary = await this.accounts.importCsv(account.tenantId, accountId, csv);
    return { accountId, tenant, ...summary };
  }

  @Delete(':accountId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an account with its transactions and balances' })
  @ApiNoContentResponse({ description: 'Deleted; accounts it had transfers with get new balances.' })
  @ApiNotFoundResponse({ description: 'Account not found.' })
  async delete(
    @UuidParam('accountId') accountId: string,
    @Query() { tenant }: AdminTenantQueryDto,
  ): Promise<void> {
    await this.accounts.adminDelete(accountId, tenant);
  }
}
