import { Body, Controller, Headers, HttpCode, Ip, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/decorators/auth.decorators.js';
import { OAuthError } from '../../common/errors/oauth-error.js';
import { OAuthTokenRequestDto, OAuthTokenResponseDto } from './dto/token.dto.js';
import { ApiCredentialLimits, writeCredentialLimitHeaders } from './credential-limit.headers.js';
import { parseOAuthTokenRequest } from './oauth-token-request.js';
import { TokenService } from './token.service.js';

/**
 * RFC 6749 §4.4 client credentials grant, so generic OAuth2 client libraries work unchanged.
 * Errors follow §5.2 ({error, error_description}), not problem+json.
 */
@ApiTags('Auth')
@Controller('oauth')
export class OAuthController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'OAuth 2.0 token endpoint (client credentials, RFC 6749 §4.4)',
    description:
      "The standard form of `POST /v1/api/token`: `grant_type=client_credentials` as application/x-www-form-urlencoded, the client authenticated by HTTP Basic or `client_id`/`client_secret` in the body (not both), optional `scope`. Answers `{access_token, token_type, expires_in, scope}`; errors follow RFC 6749 §5.2. Swagger UI's Authorize uses it.",
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: OAuthTokenRequestDto })
  @ApiOkResponse({ type: OAuthTokenResponseDto })
  @ApiBadRequestResponse({
    description: '`invalid_request`, `unsupported_grant_type` or `invalid_scope` (RFC 6749 §5.2).',
  })
  @ApiUnauthorizedResponse({ description: '`invalid_client`: client authentication failed.' })
  @ApiCredentialLimits()
  async token(
    @Body() body: Record<string, unknown>,
    @Headers('authorization') authorization: string | undefined,
    @Headers('content-type') contentType: string | undefined,
    @Res({ passthrough: true }) response: Response,
    @Ip() sourceAddress: string,
  ): Promise<OAuthTokenResponseDto> {
    const request = parseOAuthTokenRequest(body, authorization, contentType);
    const { clientId, clientSecret } = request;
    if (!clientId || !clientSecret) {
      writeCredentialLimitHeaders(response, await this.tokens.limitStateOf(sourceAddress));
      throw new OAuthError('invalid_client', 'Client authentication is required.', request.usedBasic);
    }
    const client = await this.tokens.authenticate(clientId, clientSecret, sourceAddress, (state) =>
      writeCredentialLimitHeaders(response, state),
    );
    if (!client) throw new OAuthError('invalid_client', 'Client authentication failed.', request.usedBasic);

    const requested = request.requestedScopes();
    const scopes = requested ?? client.scopes;
    if (scopes.length === 0 || scopes.some((scope) => !(client.scopes as string[]).includes(scope))) {
      throw new OAuthError('invalid_scope', `Allowed scopes: ${client.scopes.join(' ')}.`);
    }
    const issued = this.tokens.issue(client, scopes);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Pragma', 'no-cache');
    return {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      scope: issued.scope,
    };
  }
}
