import { Body, Controller, Headers, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../../common/decorators/auth.decorators.js';
import { DomainError, ErrorCode, type FieldErrors } from '../../common/errors/domain-error.js';
import { RateLimitBucket } from '../../common/guards/rate-limit.guard.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { TokenRequestDto, TokenResultDto } from './dto/token.dto.js';
import { TokenService } from './token.service.js';
import { toTokenResult } from './token.mapper.js';

@ApiTags('Auth')
@Controller('v1/api')
@UseInterceptors(EnvelopeInterceptor)
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @Public()
  @RateLimitBucket('token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a bearer token from client credentials',
    description:
      'Credentials as JSON body fields, or as headers `clientId` and `clientSecret` with `accept: application/json`. The body wins when both are sent.',
  })
  @ApiHeader({ name: 'clientId', required: false })
  @ApiHeader({ name: 'clientSecret', required: false })
  @ApiOkResponse({ type: TokenResultDto, description: 'Envelope with the token in `result`.' })
  @ApiBadRequestResponse({ description: 'A credential is missing (errors.ClientId / errors.ClientSecret).' })
  @ApiUnauthorizedResponse({ description: 'Invalid client credentials.' })
  async issue(
    @Body() body: TokenRequestDto,
    @Headers('clientid') headerClientId?: string,
    @Headers('clientsecret') headerClientSecret?: string,
  ): Promise<TokenResultDto> {
    const clientId = nonEmpty(body.clientId) ?? nonEmpty(headerClientId);
    const clientSecret = nonEmpty(body.clientSecret) ?? nonEmpty(headerClientSecret);
    const errors: FieldErrors = {};
    if (!clientId) errors.ClientId = ['The ClientId field is required.'];
    if (!clientSecret) errors.ClientSecret = ['The ClientSecret field is required.'];
    if (!clientId || !clientSecret) {
      throw new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', errors);
    }
    return toTokenResult(await this.tokens.issueForCredentials(clientId, clientSecret));
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
