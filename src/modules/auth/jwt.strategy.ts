import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import type { VerifiedBearerPort } from '../../common/ports/verified-bearer.port.js';
import { ClientsService, type ClientState } from '../tenancy/index.js';
import { SigningKeysService } from './signing-keys.service.js';
import type { AccessTokenClaims } from './token.service.js';
import { VerifiedTokenCache, type VerifiedClaims } from './verified-token.cache.js';

const passportBearer = ExtractJwt.fromAuthHeaderAsBearerToken();
/** The usual Authorization header: "Bearer " and a compact JWS (base64url segments, dots), nothing else. */
const PLAIN_BEARER = /^Bearer [\w.-]+$/;

/**
 * passport-jwt's bearer extractor (the token after a case-insensitive "Bearer" scheme), with the
 * usual header form read by one anchored test instead of its capture-group match and lowercasing
 * (~1.5 % of a cached read): the same token; any other form is left to passport-jwt.
 */
export function extractBearer(request: Request): string | null {
  const header = request.headers.authorization;
  if (header !== undefined && PLAIN_BEARER.test(header)) return header.slice(7);
  return passportBearer(request);
}

/** knownClient's answer for a request (null: not known), kept on the request. */
const KNOWN_CLIENT = Symbol('knownClient');

/**
 * Bearer verification, pinned: only ES256, only our issuer and audience, a known `kid`, not expired,
 * not before `nbf`. An `alg: none` token or an HS256 token "signed" with the public key fails the
 * algorithm pin inside jsonwebtoken before any key is used. A token verified once is remembered
 * (VerifiedTokenCache); the client-enabled check runs on every request either way.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') implements VerifiedBearerPort {
  constructor(
    config: AppConfig,
    keys: SigningKeysService,
    private readonly clients: ClientsService,
    private readonly verified: VerifiedTokenCache,
  ) {
    super({
      jwtFromRequest: extractBearer,
      algorithms: ['ES256'],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      ignoreExpiration: false,
      passReqToCallback: true,
      jsonWebTokenOptions: { maxAge: config.TOKEN_LIFETIME_SECONDS + 60 },
      secretOrKeyProvider: (
        _request: Request,
        rawJwt: string,
        done: (error: Error | null, key?: string | Buffer) => void,
      ) => {
        const decoded = decodeUnverified(rawJwt);
        const kid = decoded?.header.kid;
        const key = typeof kid === 'string' ? keys.verificationKey(kid) : undefined;
        if (!key || decoded?.header.alg !== 'ES256') return done(new Error('unknown key or algorithm'));
        // jsonwebtoken takes a KeyObject as well as PEM; passing the parsed key saves parsing per request.
        done(null, key.publicKey as KeyObject as unknown as Buffer);
      },
    });
  }

  /**
   * The guard's shortcut: a remembered token (expiry and not-before checked now) whose client is
   * known to be enabled. Anything else (first use, unknown client state) goes through passport.
   */
  knownClient(request: Request): AuthenticatedClient | undefined {
    // May be asked twice of one request (a handler ahead of the router, then the route's guard): answered once.
    const memo = request as Request & { [KNOWN_CLIENT]?: AuthenticatedClient | null };
    const known = memo[KNOWN_CLIENT];
    if (known !== undefined) return known ?? undefined;
    const token = extractBearer(request);
    const claims = token ? this.verified.get(token, Date.now()) : undefined;
    const state = claims && this.clients.knownState(claims.sub);
    const client = state && admits(state, claims) ? clientOf(claims) : undefined;
    memo[KNOWN_CLIENT] = client ?? null;
    return client;
  }

  verifiedBefore(request: Request): boolean {
    const token = extractBearer(request);
    return !!token && this.verified.get(token, Date.now()) !== undefined;
  }

  /** Passport entry point: a remembered token skips signature verification, nothing else. */
  override authenticate(request: Request, options?: object): void {
    const token = extractBearer(request);
    const claims = token ? this.verified.get(token, Date.now()) : undefined;
    if (!claims) {
      super.authenticate(request, options);
      return;
    }
    // `this` here is passport's per-request copy of the strategy, with success/fail/error attached.
    const self = this as unknown as {
      success(user: unknown): void;
      fail(status: number): void;
      error(e: unknown): void;
    };
    this.toClient(claims).then(
      (client) => (client ? self.success(client) : self.fail(401)),
      (error: unknown) => self.error(error),
    );
  }

  async validate(request: Request, claims: Partial<AccessTokenClaims>): Promise<AuthenticatedClient | false> {
    const { sub, tid, scope, jti, nbf, exp, sgen } = claims;
    if (
      typeof sub !== 'string' ||
      typeof tid !== 'string' ||
      typeof scope !== 'string' ||
      typeof jti !== 'string'
    )
      return false;
    if (typeof exp !== 'number') return false;
    if (sgen !== undefined && !(Number.isSafeInteger(sgen) && sgen >= 0)) return false;
    const verified: VerifiedClaims = {
      sub,
      tid,
      scope,
      jti,
      exp,
      nbf: typeof nbf === 'number' ? nbf : 0,
      sgen: sgen ?? 0,
    };
    const token = extractBearer(request);
    if (token) this.verified.set(token, verified);
    return this.toClient(verified);
  }

  private async toClient(claims: VerifiedClaims): Promise<AuthenticatedClient | false> {
    return admits(await this.clients.state(claims.sub), claims) ? clientOf(claims) : false;
  }
}

/**
 * The client is enabled and the token was issued under its current secret generation. A later
 * generation than the memo's is a token issued after a rotation this instance has not heard of
 * yet: its signature proves it, so it is accepted.
 */
function admits(state: ClientState, claims: VerifiedClaims): boolean {
  return state.active && claims.sgen >= state.secretGeneration;
}

/**
 * The token's header without verifying it, or null when it is not a JWT. jsonwebtoken's decode
 * throws (rather than returning null) when the header says `typ: JWT` and the payload is not JSON:
 * that escaped passport as a 500 for `<valid header>.AAAA.<signature>`.
 */
function decodeUnverified(rawJwt: string): jwt.Jwt | null {
  try {
    return jwt.decode(rawJwt, { complete: true });
  } catch {
    return null;
  }
}

function clientOf(claims: VerifiedClaims): AuthenticatedClient {
  return {
    clientId: claims.sub,
    tenantId: claims.tid,
    scopes: claims.scope.split(' ').filter(Boolean),
    tokenId: claims.jti,
  };
}
