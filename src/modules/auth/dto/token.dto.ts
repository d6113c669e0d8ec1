import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class TokenRequestDto {
  @ApiPropertyOptional({
    description: 'Client identifier. May instead be sent as header `clientId`.',
    example: 'sandbox-client',
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  clientId?: string;

  @ApiPropertyOptional({
    description: 'Client secret. May instead be sent as header `clientSecret`.',
    example: 'sandbox-secret',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  clientSecret?: string;
}

/** Both published result shapes at once (design §3): accessToken+tokenType and token+expiresOn. */
export class TokenResultDto {
  @ApiProperty({ description: 'The bearer token (JWT, ES256).' })
  accessToken: string;

  @ApiProperty({ description: 'The same JWT as accessToken (second published shape).' })
  token: string;

  @ApiProperty({
    example: 'Bearer',
    description: 'Always `Bearer`: send the token as `Authorization: Bearer <accessToken>`.',
  })
  tokenType: 'Bearer';

  @ApiProperty({ type: 'integer', example: 3600, description: 'Seconds until the token expires.' })
  expiresIn: number;

  @ApiProperty({ example: '2026-04-01T13:00:00+00:00', description: 'Expiry, ISO 8601 with offset.' })
  expiresOn: string;
}

export class OAuthTokenResponseDto {
  @ApiProperty({ description: 'The bearer token (JWT, ES256).' })
  access_token: string;

  @ApiProperty({ example: 'Bearer', description: 'Always `Bearer` (RFC 6750).' })
  token_type: 'Bearer';

  @ApiProperty({ type: 'integer', example: 3600, description: 'Seconds until the token expires.' })
  expires_in: number;

  @ApiProperty({ example: 'partner', description: 'Space-delimited scopes granted to the token.' })
  scope: string;
}

export class OAuthTokenRequestDto {
  @ApiProperty({
    example: 'client_credentials',
    description: 'Must be `client_credentials` (the only grant supported).',
  })
  grant_type: string;

  @ApiPropertyOptional({ description: 'When not using HTTP Basic authentication.' })
  client_id?: string;

  @ApiPropertyOptional({ description: 'When not using HTTP Basic authentication.' })
  client_secret?: string;

  @ApiPropertyOptional({ description: "Space-delimited subset of the client's scopes." })
  scope?: string;
}
