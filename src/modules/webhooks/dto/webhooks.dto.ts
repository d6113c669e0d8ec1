/** Bodies and answers of the partner webhook API (docs/events.md). */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { toInteger } from '../../../common/validation/query-transforms.js';
import { ACCOUNT_EVENT_TYPES } from '../../../common/ports/account-events.port.js';
import { MAX_DELIVERIES_PAGE_SIZE } from '../webhooks.service.js';
import { TEST_EVENT_TYPE } from '../outbox.recorder.js';

const URL_DESCRIPTION =
  'Where events are POSTed. http(s); in production https only, and a host resolving to a loopback, link-local, private or unique-local address is refused (checked now and before every delivery). At most 2048 characters.';
/**
 * The event names as enums of the document, so generated clients type them (the SDK's
 * `eventTypes` is a union: a typo does not compile). Inline, not named schemas: the Postman
 * converter cannot merge a named enum inside the envelope's allOf. Validation stays in the service
 * (an unknown type is a 400 naming `eventTypes`).
 */
const ACCOUNT_EVENT_ENUM = { enum: [...ACCOUNT_EVENT_TYPES] };
const WEBHOOK_EVENT_ENUM = { enum: [...ACCOUNT_EVENT_TYPES, TEST_EVENT_TYPE] };
const EVENT_TYPES_DESCRIPTION = `Event types the endpoint receives, at least one of: ${ACCOUNT_EVENT_TYPES.join(', ')} (docs/events.md). \`webhook.test\` is sent only on request.`;

export class CreateWebhookDto {
  @ApiProperty({ description: URL_DESCRIPTION, example: 'https://partner.example.com/hooks/crypto-accounts' })
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url: string;

  @ApiProperty({
    description: EVENT_TYPES_DESCRIPTION,
    ...ACCOUNT_EVENT_ENUM,
    isArray: true,
    example: ['account.synced', 'balances.updated'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  eventTypes: string[];

  @ApiPropertyOptional({ description: 'A note for the partner’s own use.', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ description: URL_DESCRIPTION })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ description: EVENT_TYPES_DESCRIPTION, ...ACCOUNT_EVENT_ENUM, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  eventTypes?: string[];

  @ApiPropertyOptional({
    description: 'A note for the partner’s own use; null removes it.',
    maxLength: 500,
    nullable: true,
    type: String,
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({
    enum: ['enabled', 'disabled'],
    description:
      '`disabled` stops deliveries (pending ones wait); `enabled` resumes them and clears a disabling after continuous failures.',
  })
  @IsOptional()
  @IsIn(['enabled', 'disabled'])
  status?: 'enabled' | 'disabled';
}

export class DeliveriesQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: `Page size, default 50, at most ${MAX_DELIVERIES_PAGE_SIZE}.`,
    minimum: 1,
    maximum: MAX_DELIVERIES_PAGE_SIZE,
    default: 50,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer.' })
  @Min(1)
  @Max(MAX_DELIVERIES_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page (opaque, tamper-evident).' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @ApiPropertyOptional({
    enum: ['pending', 'delivered', 'failed'],
    description: 'Only deliveries in this state.',
  })
  @IsOptional()
  @IsIn(['pending', 'delivered', 'failed'])
  status?: 'pending' | 'delivered' | 'failed';
}

export class WebhookEndpointDto {
  @ApiProperty({ description: 'Endpoint id.', format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'Where events are POSTed.' })
  url: string;

  @ApiProperty({ description: 'The partner’s note.', nullable: true, type: String })
  description: string | null;

  @ApiProperty({ description: 'Event types the endpoint receives.', ...ACCOUNT_EVENT_ENUM, isArray: true })
  eventTypes: string[];

  @ApiProperty({
    enum: ['enabled', 'disabled'],
    description:
      '`disabled`: by the partner, or by the service after continuous failures (see `disabledReason`).',
  })
  status: 'enabled' | 'disabled';

  @ApiProperty({
    description: 'Why the endpoint is disabled; null when enabled.',
    nullable: true,
    type: String,
  })
  disabledReason: string | null;

  @ApiProperty({
    description: 'When it was disabled (ISO 8601); null when enabled.',
    nullable: true,
    type: String,
    format: 'date-time',
  })
  disabledAt: string | null;

  @ApiProperty({
    description:
      'Until when the previous secret still signs alongside the current one after a rotation (ISO 8601); null outside an overlap.',
    nullable: true,
    type: String,
    format: 'date-time',
  })
  previousSecretExpiresAt: string | null;

  @ApiProperty({ description: 'Created (ISO 8601).', format: 'date-time' })
  createdAt: string;

  @ApiProperty({ description: 'Last changed (ISO 8601).', format: 'date-time' })
  updatedAt: string;
}

export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({
    description:
      'The signing secret (Standard Webhooks, `whsec_` + base64). Shown ONLY in this answer (and on rotation): store it now. Encrypted at rest, never logged.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class WebhookEndpointListDto {
  @ApiProperty({ description: 'The tenant’s endpoints, oldest first.', type: [WebhookEndpointDto] })
  endpoints: WebhookEndpointDto[];
}

export class WebhookTestDto {
  @ApiProperty({
    description: 'The `webhook.test` event queued for the endpoint (its `webhook-id`).',
    format: 'uuid',
  })
  eventId: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ description: 'Delivery id.', format: 'uuid' })
  id: string;

  @ApiProperty({
    description: 'The event (`webhook-id` header; the same on every retry and replay).',
    format: 'uuid',
  })
  eventId: string;

  @ApiProperty({ description: 'The event type.', ...WEBHOOK_EVENT_ENUM, example: 'account.synced' })
  eventType: string;

  @ApiProperty({
    description: 'The account the event is about; null for `webhook.test`.',
    nullable: true,
    type: String,
    format: 'uuid',
  })
  accountId: string | null;

  @ApiProperty({
    enum: ['pending', 'delivered', 'failed'],
    description:
      '`pending` (due or waiting for a retry), `delivered` (a 2xx came back), `failed` (retried for 24 h without success).',
  })
  status: 'pending' | 'delivered' | 'failed';

  @ApiProperty({ type: 'integer', description: 'Attempts made so far.' })
  attempts: number;

  @ApiProperty({
    description: 'When the next attempt is due (ISO 8601); null unless pending.',
    nullable: true,
    type: String,
    format: 'date-time',
  })
  nextAttemptAt: string | null;

  @ApiProperty({
    description: 'The last attempt (ISO 8601).',
    nullable: true,
    type: String,
    format: 'date-time',
  })
  lastAttemptAt: string | null;

  @ApiProperty({
    type: 'integer',
    description: 'HTTP status of the last answer; null when none came (timeout, refused).',
    nullable: true,
  })
  lastStatusCode: number | null;

  @ApiProperty({
    description: 'Why the last attempt failed (e.g. `HTTP 500`, `timeout after 10000 ms`).',
    nullable: true,
    type: String,
  })
  lastError: string | null;

  @ApiProperty({
    description: 'The first 200 characters of the last answer’s body, at most.',
    nullable: true,
    type: String,
  })
  responseExcerpt: string | null;

  @ApiProperty({
    description: 'When it was delivered (ISO 8601).',
    nullable: true,
    type: String,
    format: 'date-time',
  })
  deliveredAt: string | null;

  @ApiProperty({
    description: 'The delivery this one replays; null for an original delivery.',
    nullable: true,
    type: String,
    format: 'uuid',
  })
  replayOf: string | null;

  @ApiProperty({ description: 'Created (ISO 8601).', format: 'date-time' })
  createdAt: string;
}

export class WebhookDeliveryListDto {
  @ApiProperty({ description: 'Deliveries, newest first.', type: [WebhookDeliveryDto] })
  deliveries: WebhookDeliveryDto[];

  @ApiProperty({
    description: 'Cursor of the next page; null on the last page.',
    nullable: true,
    type: String,
  })
  nextCursor: string | null;
}
