import { Audited } from '../../common/decorators/audited.decorator.js';
import { Body, Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { CLIENT_ID_PATTERN, ClientsService } from '../tenancy/index.js';
import { TENANT_SLUG_PATTERN, TenantsService } from '../tenancy/index.js';
import { toClientDto, toIssuedSecretDto, toTenantDto } from './admin-tenancy.mapper.js';
import {
  ClientDto,
  ClientListDto,
  ClientsQueryDto,
  CreateClientDto,
  CreateTenantDto,
  IssuedSecretDto,
  TenantDto,
  TenantListDto,
  TenantQueryDto,
} from './dto/admin-tenancy.dto.js';
import { PatternParam } from './pattern-param.js';

const ClientIdParam = () =>
  PatternParam('clientId', CLIENT_ID_PATTERN, 'clientId must be 3-128 characters of A-Z a-z 0-9 . _ -');

/**
 * Tenants (advisory firms, and the operator's own tenant) for the internal admin team (design §1),
 * through the same TenantsService as the CLI.
 */
@ApiTags('Admin: tenants and clients')
@Controller('admin/tenants')
@Scopes('admin')
export class AdminTenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @Audited('tenant.created')
  @ApiOperation({
    summary: 'Create a tenant',
    description:
      'A partner tenant (an advisory firm) by default; `kind: operator` for a tenant of admin clients, which never holds partner data.',
  })
  @ApiCreatedResponse({ type: TenantDto, description: 'The tenant.' })
  @ApiBadRequestResponse({ description: 'A field is invalid (named in errors).' })
  @ApiConflictResponse({ description: 'The slug is taken (errors.slug).' })
  async create(@Body() body: CreateTenantDto): Promise<TenantDto> {
    return toTenantDto(await this.tenants.createTenant(body.slug, body.name, body.kind));
  }

  @Get()
  @ApiOperation({
    summary: 'List tenants',
    description:
      'Every tenant: slug, name, kind (`partner` holds accounts; `operator` holds the admin clients), whether it is a sandbox tenant, its id and when it was created.',
  })
  @ApiOkResponse({ type: TenantListDto })
  async list(): Promise<TenantListDto> {
    return { tenants: (await this.tenants.list()).map(toTenantDto) };
  }

  @Get(':slug')
  @ApiOperation({
    summary: 'One tenant',
    description: 'The tenant with this slug; 404 when there is none.',
  })
  @ApiOkResponse({ type: TenantDto })
  @ApiNotFoundResponse({ description: 'Tenant not found.' })
  async get(
    @PatternParam('slug', TENANT_SLUG_PATTERN, 'slug must be a tenant slug (a-z 0-9 and -).') slug: string,
  ): Promise<TenantDto> {
    return toTenantDto(await this.tenants.get(slug));
  }
}

/**
 * API clients (credentials) for the internal admin team, through the same ClientsService as the
 * CLI. A secret is in a body only when created or rotated, once (design §3); lists and reads
 * never carry it or its hash. Operations on one client name its tenant (`?tenant=`); a client of
 * another tenant answers 404 as one that does not exist.
 */
@ApiTags('Admin: tenants and clients')
@Controller('admin/clients')
@Scopes('admin')
export class AdminClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Post()
  @Audited('client.created')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Create an API client; the secret is shown once',
    description:
      'Scopes default to `admin` in an operator tenant and `partner` elsewhere; `admin` is refused for a client of a partner tenant. Store `clientSecret` now: only its hash is kept.',
  })
  @ApiCreatedResponse({ type: IssuedSecretDto, description: 'The client with its secret (this once).' })
  @ApiBadRequestResponse({
    description: 'A field is invalid, or the tenant does not exist (named in errors).',
  })
  @ApiConflictResponse({ description: 'The clientId is taken (errors.clientId).' })
  async create(@Body() body: CreateClientDto): Promise<IssuedSecretDto> {
    const issued = await this.clients.createClient(body.tenant, body.scopes, body.clientId);
    return toIssuedSecretDto(issued, body.tenant);
  }

  @Get()
  @ApiOperation({
    summary: 'List API clients (one tenant or all)',
    description: 'Without `tenant`, every tenant’s clients; each row names its tenant. Never a secret.',
  })
  @ApiOkResponse({ type: ClientListDto })
  async list(@Query() query: ClientsQueryDto): Promise<ClientListDto> {
    return { clients: (await this.clients.listClients(query.tenant)).map(toClientDto) };
  }

  @Get(':clientId')
  @ApiOperation({
    summary: 'One API client (never its secret)',
    description:
      "The client's tenant, scopes, whether it is disabled, when it was last used and when its secret was last rotated. The secret is stored only as a hash and never shown again after it was issued.",
  })
  @ApiOkResponse({ type: ClientDto })
  @ApiNotFoundResponse({ description: 'Client not found (in that tenant).' })
  async get(@ClientIdParam() clientId: string, @Query() { tenant }: TenantQueryDto): Promise<ClientDto> {
    return toClientDto(await this.clients.getClient(clientId, { tenant }));
  }

  @Post(':clientId/rotate')
  @Audited('client.secret_rotated')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Rotate a client secret; the new secret is shown once',
    description:
      'The old secret stops working at once, and so do the tokens issued with it (on every instance within 5 seconds).',
  })
  @ApiOkResponse({ type: IssuedSecretDto, description: 'The client with its new secret (this once).' })
  @ApiNotFoundResponse({ description: 'Client not found (in that tenant).' })
  async rotate(
    @ClientIdParam() clientId: string,
    @Query() { tenant }: TenantQueryDto,
  ): Promise<IssuedSecretDto> {
    return toIssuedSecretDto(await this.clients.rotateSecret(clientId, { tenant }), tenant);
  }

  @Post(':clientId/disable')
  @Audited('client.disabled')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Disable a client',
    description:
      'It gets no token, and its live tokens stop working (on every instance within 5 seconds) for good: enabling it again does not revive them. A client cannot disable itself.',
  })
  @ApiOkResponse({ type: ClientDto })
  @ApiNotFoundResponse({ description: 'Client not found (in that tenant).' })
  @ApiConflictResponse({ description: 'The client is the one this request is authenticated with.' })
  async disable(
    @ClientIdParam() clientId: string,
    @Query() { tenant }: TenantQueryDto,
    @CurrentClient() caller: AuthenticatedClient,
  ): Promise<ClientDto> {
    return toClientDto(
      await this.clients.setDisabled(clientId, true, { tenant, actingClientId: caller.clientId }),
    );
  }

  @Post(':clientId/enable')
  @Audited('client.enabled')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Re-enable a disabled client',
    description:
      'Its secret is unchanged; tokens issued before the disable stay revoked (a disable after a leak is not undone): it gets new tokens.',
  })
  @ApiOkResponse({ type: ClientDto })
  @ApiNotFoundResponse({ description: 'Client not found (in that tenant).' })
  async enable(@ClientIdParam() clientId: string, @Query() { tenant }: TenantQueryDto): Promise<ClientDto> {
    return toClientDto(await this.clients.setDisabled(clientId, false, { tenant }));
  }
}
