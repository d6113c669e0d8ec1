import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppConfig } from '../../config/app-config.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { ClientsService, type VerifiedClient } from '../tenancy/clients.service.js';
import { SigningKeysService } from './signing-keys.service.js';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  expiresAt: Date;
  scope: string;
}

/** JWT claims of an access token (design §3). */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  tid: string;
  scope: string;
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
}

@Injectable()
export class TokenService {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: SigningKeysService,
    private readonly config: AppConfig,
  ) {}

  /** Verifies client credentials; null when they are wrong, unknown or disabled. */
  authenticate(clientId: string, clientSecret: string): Promise<VerifiedClient | null> {
    return this.clients.verifyCredentials(clientId, clientSecret);
  }

  async issueForCredentials(clientId: string, clientSecret: string): Promise<IssuedToken> {
    const client = await this.authenticate(clientId, clientSecret);
    if (!client) throw new DomainError(ErrorCode.Unauthenticated, 'Invalid client credentials.');
    return this.issue(client, client.scopes);
  }

  issue(client: VerifiedClient, scopes: readonly string[], now = new Date()): IssuedToken {
    const lifetime = this.config.TOKEN_LIFETIME_SECONDS;
    const iat = Math.floor(now.getTime() / 1000);
    const claims: AccessTokenClaims = {
      iss: this.config.JWT_ISSUER,
      aud: this.config.JWT_AUDIENCE,
      sub: client.clientId,
      tid: client.tenantId,
      scope: scopes.join(' '),
      iat,
      nbf: iat,
      exp: iat + lifetime,
      jti: randomUUID(),
    };
    const key = this.keys.signingKey;
    const accessToken = jwt.sign(claims, key.privateKey, { algorithm: 'ES256', keyid: key.kid });
    return {
      accessToken,
      expiresIn: lifetime,
      expiresAt: new Date((iat + lifetime) * 1000),
      scope: claims.scope,
    };
  }
}
