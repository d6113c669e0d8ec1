import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppConfig } from '../../config/app-config.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { ClientsService, type VerifiedClient } from '../tenancy/index.js';
import {
  CredentialAttempts,
  type CredentialLimitReport,
  type CredentialLimitState,
} from './credential-attempts.js';
import { SigningKeysService } from './signing-keys.service.js';
import { VerifiedTokenCache } from './verified-token.cache.js';

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
  /** The client's secret generation at issuance; a later rotation or disable revokes the token. */
  sgen: number;
}

@Injectable()
export class TokenService {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: SigningKeysService,
    private readonly config: AppConfig,
    private readonly attempts: CredentialAttempts,
    private readonly verified: VerifiedTokenCache,
  ) {}

  /**
   * Verifies client credentials; null when they are wrong, unknown or disabled. Refused (429/503)
   * when `sourceAddress` is over its failure limits or the instance verifies too many at once.
   */
  authenticate(
    clientId: string,
    clientSecret: string,
    sourceAddress: string,
    report?: CredentialLimitReport,
  ): Promise<VerifiedClient | null> {
    return this.attempts.verify(
      sourceAddress,
      clientId,
      () => this.clients.verifyCredentials(clientId, clientSecret),
      report,
    );
  }

  /** The failed-attempt budget of an address that sent no complete credentials (RateLimit-* headers). */
  limitStateOf(sourceAddress: string): Promise<CredentialLimitState> {
    return this.attempts.addressState(sourceAddress);
  }

  async issueForCredentials(
    clientId: string,
    clientSecret: string,
    sourceAddress: string,
    report?: CredentialLimitReport,
  ): Promise<IssuedToken> {
    const client = await this.authenticate(clientId, clientSecret, sourceAddress, report);
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
      sgen: client.secretGeneration,
    };
    const key = this.keys.signingKey;
    const accessToken = jwt.sign(claims, key.privateKey, { algorithm: 'ES256', keyid: key.kid });
    // Signed here, so known valid: its first use needs no signature check, and an address over
    // its bearer-failure limit can still use it.
    this.verified.set(accessToken, {
      sub: claims.sub,
      tid: claims.tid,
      scope: claims.scope,
      jti: claims.jti,
      nbf: claims.nbf,
      exp: claims.exp,
      sgen: claims.sgen,
    });
    return {
      accessToken,
      expiresIn: lifetime,
      expiresAt: new Date((iat + lifetime) * 1000),
      scope: claims.scope,
    };
  }
}
