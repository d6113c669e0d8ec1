import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { ClientsService } from '../tenancy/clients.service.js';
import { SigningKeysService } from './signing-keys.service.js';
import type { AccessTokenClaims } from './token.service.js';

/**
 * Bearer verification, pinned: only ES256, only our issuer and audience, a known `kid`, not expired,
 * not before `nbf`. An `alg: none` token or an HS256 token "signed" with the public key fails the
 * algorithm pin inside jsonwebtoken before any key is used.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    config: AppConfig,
    keys: SigningKeysService,
    private readonly clients: ClientsService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: ['ES256'],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      ignoreExpiration: false,
      jsonWebTokenOptions: { maxAge: config.TOKEN_LIFETIME_SECONDS + 60 },
      secretOrKeyProvider: (
        _request: Request,
        rawJwt: string,
        done: (error: Error | null, key?: string) => void,
      ) => {
        const decoded = jwt.decode(rawJwt, { complete: true });
        const kid = decoded?.header.kid;
        const key = typeof kid === 'string' ? keys.verificationKey(kid) : undefined;
        if (!key || decoded?.header.alg !== 'ES256') return done(new Error('unknown key or algorithm'));
        done(null, key.publicKeyPem);
      },
    });
  }

  async validate(claims: Partial<AccessTokenClaims>): Promise<AuthenticatedClient | false> {
    const { sub, tid, scope, jti } = claims;
    if (
      typeof sub !== 'string' ||
      typeof tid !== 'string' ||
      typeof scope !== 'string' ||
      typeof jti !== 'string'
    )
      return false;
    if (!(await this.clients.isActive(sub))) return false;
    return { clientId: sub, tenantId: tid, scopes: scope.split(' ').filter(Boolean), tokenId: jti };
  }
}
