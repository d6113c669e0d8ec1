import { Audited } from '../../common/decorators/audited.decorator.js';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  UseInterceptors,
} from '@nestjs/common';
import type { Request } from 'express';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { ApiEnvelopedResponse } from '../../common/openapi/api-responses.js';
import { UuidParam } from '../../common/validation/validation.js';
import { toCollectionResult, toIdentityResult, toListItem } from './accounts.mapper.js';
import { AccountsService } from './accounts.service.js';
import { PageQueryDto } from './dto/account-queries.dto.js';
import {
  AccountCollectionDto,
  AccountIdentityDto,
  AccountListDto,
  AccountListItemDto,
} from './dto/account-responses.dto.js';
import { LinkAccountDto, ReconnectCredentialsDto } from './dto/link-account.dto.js';
import {
  ApiImportFileBody,
  IMPORT_FILE_DESCRIPTION,
  ImportQueryDto,
  ImportSummaryDto,
} from './dto/import-file.dto.js';
import { readImportUpload } from '../../common/http/read-text-body.js';
import { partnerLinkExamples } from '../sources/index.js';

const REFUSED_CREDENTIALS =
  'The source refused the credentials (reason `credentials_refused`; `errors` names `credentials`); nothing was stored. Also: an Idempotency-Key reused with another request.';
const SOURCE_UNREACHABLE =
  'The source could not be reached to check the credentials (reason `source_unavailable`; retry after the seconds in Retry-After); nothing was stored. Also: the database is unavailable.';

@ApiTags('Accounts')
@Controller('v1/api')
@Scopes('partner')
@UseInterceptors(EnvelopeInterceptor)
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('account/collection/:collectionId')
  @ApiOperation({
    summary: 'The account of a collection (one connection to one platform)',
    description:
      "The account linked under this collection id in the caller's tenant, with its platform, identity and sync state. A collection of another tenant answers 404, as one that does not exist.",
  })
  @ApiEnvelopedResponse(AccountCollectionDto, { description: 'Envelope with the account in `result`.' })
  @ApiBadRequestResponse({ description: 'collectionId is not a UUID.' })
  @ApiNotFoundResponse({ description: 'Collection not found.' })
  async byCollection(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('collectionId') collectionId: string,
  ): Promise<AccountCollectionDto> {
    return toCollectionResult(await this.accounts.byCollection(client.tenantId, collectionId));
  }

  @Get('account/identity/:identity')
  @ApiOperation({
    summary: "The account behind the partner's identifier",
    description:
      "The account the caller's tenant linked under this identity (URL-encode it: identities may hold `/` and other reserved characters). Another tenant's identity answers 404, as one that does not exist.",
  })
  @ApiEnvelopedResponse(AccountIdentityDto, { description: 'Envelope with the account in `result`.' })
  @ApiNotFoundResponse({ description: 'Identity not found.' })
  async byIdentity(
    @CurrentClient() client: AuthenticatedClient,
    @Param('identity') identity: string,
  ): Promise<AccountIdentityDto> {
    return toIdentityResult(await this.accounts.byIdentity(client.tenantId, identity));
  }

  @Get('accounts')
  @ApiOperation({
    summary: "The caller's accounts with their state (cursor-paginated)",
    description:
      "The tenant's accounts, oldest first, with each one's sync state (`syncing`, `synced`, `reconnect_required`, `error`). `limit` per page; follow `nextCursor` until it is null.",
  })
  @ApiEnvelopedResponse(AccountListDto, {
    description: 'Envelope with `result.accounts` and `result.nextCursor`.',
  })
  @ApiBadRequestResponse({ description: 'limit out of range or cursor invalid.' })
  async list(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: PageQueryDto,
  ): Promise<AccountListDto> {
    const page = await this.accounts.list(client.tenantId, query.limit, query.cursor);
    return { accounts: page.accounts.map(toListItem), nextCursor: page.nextCursor };
  }

  @Post('accounts')
  @Audited('account.linked', { target: { result: 'accountId' } })
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Link an account: exchange credentials, a watched address, a bitcoin xpub, or a csv account for uploaded files',
    description:
      'The source is the one serving `platform`; send exactly one of `credentials`, `address`, `xpub`, as the platform takes them (bitcoin: address or xpub; ethereum: address; exchanges: credentials). Credentials are checked with the source before the answer where it can, encrypted at rest and never returned. Answers 202 with the account in `syncing`: its first refresh has started; read the account (list, identity) until `syncStatus` is `synced` (or `error` / `reconnect_required`). With `source: "csv"` (any platform, none of the three fields) the account takes uploaded files instead (`POST /v1/api/accounts/{accountId}/import`) and stays `syncing` until the first one is stored. An addition to the spec (issue 15); see docs/sources.md "Linking accounts".',
  })
  @ApiBody({ type: LinkAccountDto, examples: linkExamples() })
  @ApiEnvelopedResponse(AccountListItemDto, {
    status: 202,
    description:
      'Envelope with the new account in `result` (`syncStatus: syncing`); its first refresh has started.',
  })
  @ApiBadRequestResponse({
    description:
      'A field is invalid, named in `errors`: an unknown `platform` (the known ones are listed), a `source` other than `csv`, a missing or extra `credentials`/`address`/`xpub` (a csv account takes none), an address or xpub that does not parse (`address`, `xpub`).',
  })
  @ApiConflictResponse({
    description: 'The identity (or collectionId) already has an account in the tenant.',
  })
  @ApiUnprocessableEntityResponse({ description: REFUSED_CREDENTIALS })
  @ApiServiceUnavailableResponse({ description: SOURCE_UNREACHABLE })
  async link(
    @CurrentClient() client: AuthenticatedClient,
    @Body() body: LinkAccountDto,
  ): Promise<AccountListItemDto> {
    const account = await this.accounts.link(client.tenantId, {
      platform: body.platform,
      source: body.source,
      identity: body.identity,
      collectionId: body.collectionId?.toLowerCase(),
      credentials: body.credentials,
      address: body.address,
      xpub: body.xpub,
    });
    return toListItem(account);
  }

  @Put('accounts/:accountId/credentials')
  @Audited('account.credentials_replaced')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Reconnect an account with new credentials',
    description:
      'For an account in `reconnect_required` (or to rotate keys): the credentials are checked with the source where it can, replace the stored ones (encrypted, never returned), and the account is `connected` and `syncing` again with a refresh started. Only for platforms linked with credentials.',
  })
  @ApiEnvelopedResponse(AccountListItemDto, {
    status: 202,
    description: 'Envelope with the account in `result` (`syncStatus: syncing`); a refresh has started.',
  })
  @ApiBadRequestResponse({
    description:
      'accountId is not a UUID, `credentials` is missing or malformed, or the account’s source takes no credentials (named `credentials`).',
  })
  @ApiNotFoundResponse({ description: 'Account not found (or another tenant’s).' })
  @ApiUnprocessableEntityResponse({ description: REFUSED_CREDENTIALS })
  @ApiServiceUnavailableResponse({ description: SOURCE_UNREACHABLE })
  async reconnect(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('accountId') accountId: string,
    @Body() body: ReconnectCredentialsDto,
  ): Promise<AccountListItemDto> {
    return toListItem(await this.accounts.reconnect(client.tenantId, accountId, body.credentials));
  }

  @Post('accounts/:accountId/import')
  @Audited('account.imported')
  @HttpCode(200)
  @ApiOperation({
    summary: "Upload a file into a csv account: an exchange export or the service's CSV",
    description: `For an account linked with \`source: "csv"\`. ${IMPORT_FILE_DESCRIPTION} The account is \`synced\` once a file is stored; webhooks \`account.synced\` (and \`transactions.updated\`, \`balances.updated\` when something changed) follow as after a refresh. An addition to the spec (issue 30); see docs/sources.md "Export files".`,
  })
  @ApiImportFileBody()
  @ApiEnvelopedResponse(ImportSummaryDto, { description: 'Envelope with what was stored in `result`.' })
  @ApiBadRequestResponse({
    description:
      'Nothing imported: bad rows by line number and column (`errors["line 3"]`), a header no layout takes (`errors.csv` names the layouts tried, each `errors["line N"]` what one lacks, closest first), an unknown `format`, a form without its `file`, or accountId not a UUID.',
  })
  @ApiNotFoundResponse({ description: 'Account not found (or another tenant’s).' })
  @ApiConflictResponse({
    description: 'The account is not a csv account, or a refresh or import of it is running (retry).',
  })
  @ApiPayloadTooLargeResponse({ description: 'Over 20 MB.' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Neither text/csv nor multipart/form-data.' })
  @ApiUnprocessableEntityResponse({
    description: 'An Idempotency-Key reused with another request (or another file).',
  })
  async import(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('accountId') accountId: string,
    @Query() query: ImportQueryDto,
    @Req() request: Request,
  ): Promise<ImportSummaryDto> {
    const { text, format } = await readImportUpload(request, query.format);
    return {
      accountId,
      ...(await this.accounts.importCsv(client.tenantId, accountId, text, undefined, format)),
    };
  }

  @Delete('accounts/:accountId')
  @Audited('account.unlinked')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Unlink an account',
    description:
      'Removes the account with its encrypted credentials, transactions and balances at once; accounts it had transfers with get new balances. Nothing is kept: download transactions and tax reports first (docs/sources.md "Linking accounts").',
  })
  @ApiNoContentResponse({ description: 'Unlinked; no body. Reads of the account answer 404 from now on.' })
  @ApiBadRequestResponse({ description: 'accountId is not a UUID.' })
  @ApiNotFoundResponse({ description: 'Account not found (or another tenant’s).' })
  async unlink(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('accountId') accountId: string,
  ): Promise<void> {
    await this.accounts.unlink(client.tenantId, accountId);
  }
}

/**
 * One request body per way of linking (each source's examples as partner bodies), so Swagger UI
 * offers a body that links as it stands instead of one built from every property's example.
 */
function linkExamples(): Record<string, { summary: string; value: Record<string, unknown> }> {
  return Object.fromEntries(
    Object.entries(partnerLinkExamples()).map(([name, { summary, body }]) => [
      name,
      { summary, value: { ...body, identity: `household-1001/${name}` } },
    ]),
  );
}
