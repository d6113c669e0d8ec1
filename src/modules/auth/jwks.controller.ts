import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/decorators/auth.decorators.js';
import { JwksDto } from './dto/jwks.dto.js';
import { SigningKeysService, type PublicJwk } from './signing-keys.service.js';

@ApiTags('Auth')
@Controller('.well-known')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get('jwks.json')
  @Public()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'Public keys that verify access tokens (JWKS, RFC 7517)',
    description:
      'The public half of every key that signs access tokens (ES256, the only algorithm the service signs and accepts), each with its `kid`. A partner may verify tokens offline with it. No token needed.',
  })
  @ApiOkResponse({ type: JwksDto, description: 'The public keys.' })
  jwks(): { keys: PublicJwk[] } {
    return this.keys.jwks();
  }
}
