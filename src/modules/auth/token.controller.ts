import { Body, Controller, HttpCode, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiHeader,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/decorators/auth.decorators.js';
import { DomainError, ErrorCode, type FieldErrors } from '../../common/errors/domain-error.js';
import { EnvelopeInterceptor } from '../../common/interceptors/envelope.interceptor.js';
import { ApiEnvelopedResponse } from '../../common/openapi/api-responses.js';
import { TokenRequestDto, TokenResultDto } from './dto/token.dto.js';
import type { CredentialLimitState } from './credential-attempts.js';
import { ApiCredentialLimits, writeCredentialLimitHeaders } from './credential-limit.headers.js';
import { TokenService } from './token.service.js';
import { toTokenResult } from './token.mapper.js';

@ApiTags('Auth')
@Controller('v1/api')
@UseInterceptors(EnvelopeInterceptor)
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a bearer token from client credentials',
    description:
      'Credentials as JSON body fields, or as headers `clientId` and `clientSecret` with `accept: application/json`. The body wins when both are sent.',
  })
  // Optional in the document: Swagger UI's Execute refuses to send while a required field is empty,
  // and the body form needs no header. The headers are read from the request for that reason:
  // @Headers(name) would make @nestjs/swagger list each as a required parameter.
  @ApiHeader({
    name: 'clientSecret',
    required: false,
    description: 'Alternative to the body field clientSecret.',
  })
  @ApiHeader({ name: 'clientId', required: false, description: 'Alternative to the body field clientId.' })
  @ApiEnvelopedResponse(TokenResultDto, { description: 'Envelope with the token in `result`.' })
  @ApiBadRequestResponse({ description: 'A credential is missing (errors.ClientId / errors.ClientSecret).' })
  @ApiUnauthorizedResponse({ description: 'Invalid client credentials.' })
  @ApiCredentialLimits()
  async issue(
    @Body() body: TokenRequestDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TokenResultDto> {
    const clientId = nonEmpty(body.clientId) ?? nonEmpty(request.header('clientid'));
    const clientSecret = nonEmpty(body.clientSecret) ?? nonEmpty(request.header('clientsecret'));
    const sourceAddress = request.ip ?? '';
    const errors: FieldErrors = {};
    if (!clientId) errors.ClientId = ['The ClientId field is required.'];
    if (!clientSecret) errors.ClientSecret = ['The ClientSecret field is required.'];
    const report = (state: CredentialLimitState) => writeCredentialLimitHeaders(response, state);
    if (!clientId || !clientSecret) {
      report(await this.tokens.limitStateOf(sourceAddress));
      throw new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', errors);
    }
    return toTokenResult(
      await this.tokens.issueForCredentials(clientId, clientSecret, sourceAddress, report),
    );
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
