import type { Request } from 'express';

/** What the bearer token proved about the caller; attached by JwtStrategy. */
export interface AuthenticatedClient {
  clientId: string;
  tenantId: string;
  scopes: string[];
  tokenId: string;
}

export interface ServiceRequest extends Request {
  id: string;
  user?: AuthenticatedClient;
  /** The error answer's detail (and reason), set by the exception filter for the request's log line. */
  problem?: { detail: string; reason?: string };
}

export const ENVELOPE_PREFIX = '/v1/api';

export function usesEnvelope(path: string): boolean {
  return path === ENVELOPE_PREFIX || path.startsWith(`${ENVELOPE_PREFIX}/`);
}
