import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Clock } from '../../common/clock/clock.js';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { ApiEnvelopedResponse } from '../../common/openapi/api-responses.js';
import { UuidParam } from '../../common/validation/validation.js';
import {
  CreateWebhookDto,
  DeliveriesQueryDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
  WebhookTestDto,
} from './dto/webhooks.dto.js';
import { toDelivery, toEndpoint } from './webhooks.mapper.js';
import { WebhooksService } from './webhooks.service.js';

const ADDITION = 'An addition to the spec (issue 18); see docs/events.md.';
const NOT_FOUND = 'Webhook endpoint not found (or another tenant’s).';

@ApiTags('Webhooks')
@Controller('v1/api/webhooks')
@Scopes('partner')
@UseInterceptors(EnvelopeInterceptor)
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description: `Events of the caller’s tenant of the chosen types are POSTed to \`url\`, signed per Standard Webhooks (headers \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`). The answer carries the signing \`secret\`: it is shown only here and on rotation. ${ADDITION}`,
  })
  @ApiEnvelopedResponse(WebhookEndpointWithSecretDto, {
    status: 201,
    description: 'Envelope with the endpoint and its secret in `result`.',
  })
  @ApiBadRequestResponse({
    description:
      'A field is invalid, named in `errors`: `url` (not http(s), or refused by the SSRF rule in production), `eventTypes` (empty or an unknown type), `description`.',
  })
  async create(
    @CurrentClient() client: AuthenticatedClient,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookEndpointWithSecretDto> {
    const { endpoint, secret } = await this.webhooks.create(client.tenantId, body);
    return { ...toEndpoint(endpoint, this.clock.now()), secret };
  }

  @Get()
  @ApiOperation({ summary: 'The tenant’s webhook endpoints', description: ADDITION })
  @ApiEnvelopedResponse(WebhookEndpointListDto, {
    description: 'Envelope with `result.endpoints` (no secrets).',
  })
  async list(@CurrentClient() client: AuthenticatedClient): Promise<WebhookEndpointListDto> {
    const now = this.clock.now();
    return { endpoints: (await this.webhooks.list(client.tenantId)).map((e) => toEndpoint(e, now)) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint', description: ADDITION })
  @ApiEnvelopedResponse(WebhookEndpointDto, {
    description: 'Envelope with the endpoint in `result` (no secret).',
  })
  @ApiBadRequestResponse({ description: 'id is not a UUID.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async get(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
  ): Promise<WebhookEndpointDto> {
    return toEndpoint(await this.webhooks.get(client.tenantId, id), this.clock.now());
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a webhook endpoint',
    description: `Any of \`url\`, \`eventTypes\`, \`description\`, \`status\`. \`status: enabled\` re-enables an endpoint the service disabled after continuous failures. ${ADDITION}`,
  })
  @ApiEnvelopedResponse(WebhookEndpointDto, {
    description: 'Envelope with the changed endpoint in `result`.',
  })
  @ApiBadRequestResponse({
    description:
      'id is not a UUID, or a field is invalid (named in `errors`: `url`, `eventTypes`, `status`, `description`).',
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async update(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookEndpointDto> {
    const updated = await this.webhooks.update(client.tenantId, id, {
      url: body.url,
      eventTypes: body.eventTypes,
      description: body.description,
      status: body.status,
    });
    return toEndpoint(updated, this.clock.now());
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a webhook endpoint',
    description: `Its pending deliveries are dropped with it. ${ADDITION}`,
  })
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiBadRequestResponse({ description: 'id is not a UUID.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async remove(@CurrentClient() client: AuthenticatedClient, @UuidParam('id') id: string): Promise<void> {
    await this.webhooks.remove(client.tenantId, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: `A new secret is returned (shown only here). The previous one keeps signing alongside it until \`previousSecretExpiresAt\` (24 hours by default): \`webhook-signature\` then carries both signatures. ${ADDITION}`,
  })
  @ApiEnvelopedResponse(WebhookEndpointWithSecretDto, {
    description: 'Envelope with the endpoint and its new secret in `result`.',
  })
  @ApiBadRequestResponse({ description: 'id is not a UUID.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async rotate(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
  ): Promise<WebhookEndpointWithSecretDto> {
    const { endpoint, secret } = await this.webhooks.rotateSecret(client.tenantId, id);
    return { ...toEndpoint(endpoint, this.clock.now()), secret };
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a test event',
    description: `Queues a \`webhook.test\` event for this endpoint (whatever types it receives); it is delivered, signed and retried like any event. ${ADDITION}`,
  })
  @ApiEnvelopedResponse(WebhookTestDto, {
    status: 202,
    description: 'Envelope with the queued event’s id in `result`.',
  })
  @ApiBadRequestResponse({ description: 'id is not a UUID.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async test(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
  ): Promise<WebhookTestDto> {
    return this.webhooks.sendTest(client.tenantId, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'Deliveries to an endpoint, newest first (cursor-paginated)',
    description: ADDITION,
  })
  @ApiEnvelopedResponse(WebhookDeliveryListDto, {
    description: 'Envelope with `result.deliveries` and `result.nextCursor`.',
  })
  @ApiBadRequestResponse({
    description: 'id is not a UUID, limit out of range, status unknown or cursor invalid.',
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async deliveries(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
    @Query() query: DeliveriesQueryDto,
  ): Promise<WebhookDeliveryListDto> {
    const page = await this.webhooks.deliveries(client.tenantId, id, query.limit, query.cursor, query.status);
    return { deliveries: page.deliveries.map(toDelivery), nextCursor: page.nextCursor };
  }

  @Post(':id/deliveries/:deliveryId/replay')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Replay a delivery',
    description: `Sends the delivery’s event again, as a new delivery due now, with the same \`webhook-id\` (a receiver that deduplicates by it ignores it). ${ADDITION}`,
  })
  @ApiEnvelopedResponse(WebhookDeliveryDto, {
    status: 202,
    description: 'Envelope with the new (pending) delivery in `result`.',
  })
  @ApiBadRequestResponse({ description: 'id or deliveryId is not a UUID.' })
  @ApiNotFoundResponse({ description: 'Endpoint or delivery not found (or another tenant’s).' })
  async replay(
    @CurrentClient() client: AuthenticatedClient,
    @UuidParam('id') id: string,
    @UuidParam('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return toDelivery(await this.webhooks.replay(client.tenantId, id, deliveryId));
  }
}
