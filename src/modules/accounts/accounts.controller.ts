import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { ApiEnvelopedResponse } from '../../common/openapi/api-responses.js';
import { UuidParam } from '../../common/validation/validation.js';
import { toCollectionResult, toIdentityResult, toListItem } from './accounts.mapper.js';
import { AccountsService } from './accounts.service.js';
import { PageQueryDto } from './dto/account-queries.dto.js';
import { AccountCollectionDto, AccountIdentityDto, AccountListDto } from './dto/account-responses.dto.js';

@ApiTags('Accounts')
@Controller('v1/api')
@Scopes('partner')
@UseInterceptors(EnvelopeInterceptor)
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('account/collection/:collectionId')
  @ApiOperation({ summary: 'The account of a collection (one connection to one platform)' })
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
  @ApiOperation({ summary: "The account behind the partner's identifier" })
  @ApiEnvelopedResponse(AccountIdentityDto, { description: 'Envelope with the account in `result`.' })
  @ApiNotFoundResponse({ description: 'Identity not found.' })
  async byIdentity(
    @CurrentClient() client: AuthenticatedClient,
    @Param('identity') identity: string,
  ): Promise<AccountIdentityDto> {
    return toIdentityResult(await this.accounts.byIdentity(client.tenantId, identity));
  }

  @Get('accounts')
  @ApiOperation({ summary: "The caller's accounts with their state (cursor-paginated)" })
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
}
