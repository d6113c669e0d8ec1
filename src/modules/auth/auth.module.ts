import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VERIFIED_BEARER } from '../../common/ports/verified-bearer.port.js';
import { TenancyModule } from '../tenancy/index.js';
import { SigningKeyEntity } from './entities/signing-key.entity.js';
import { CredentialAttempts } from './credential-attempts.js';
import { JwksController } from './jwks.controller.js';
import { JwtStrategy } from './jwt.strategy.js';
import { OAuthController } from './oauth.controller.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokenController } from './token.controller.js';
import { TokenService } from './token.service.js';
import { VerifiedTokenCache } from './verified-token.cache.js';

/** Owns token issuance and verification keys. Never logs or returns a secret. */
@Module({
  imports: [PassportModule, TenancyModule, TypeOrmModule.forFeature([SigningKeyEntity])],
  controllers: [TokenController, OAuthController, JwksController],
  providers: [
    SigningKeysService,
    TokenService,
    CredentialAttempts,
    { provide: VerifiedTokenCache, useFactory: () => new VerifiedTokenCache() },
    JwtStrategy,
    { provide: VERIFIED_BEARER, useExisting: JwtStrategy },
  ],
  exports: [TokenService, SigningKeysService, VERIFIED_BEARER],
})
export class AuthModule {}
