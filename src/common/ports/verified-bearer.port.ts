import type { Request } from 'express';
import type { AuthenticatedClient } from '../http/request-context.js';

/**
 * Lets the global auth guard accept, without a trip through passport, a bearer token that was
 * fully verified before. Implemented by the auth module (JwtStrategy).
 */
export const VERIFIED_BEARER = Symbol('VERIFIED_BEARER');

export interface VerifiedBearerPort {
  /**
   * The caller, when the request's bearer token was verified earlier (signature, alg, iss, aud),
   * is within its validity now, and its client is known to be enabled without asking the
   * database. Undefined otherwise: the guard then runs the full passport-jwt verification.
   */
  knownClient(request: Request): AuthenticatedClient | undefined;

  /**
   * The request's bearer token was verified (or issued) by this instance and is within its
   * validity now, whatever its client's state: an address over its bearer-failure limit may still
   * use it.
   */
  verifiedBefore(request: Request): boolean;
}
