/**
 * Reads an RFC 6749 §4.4 token request (form body, optional HTTP Basic client authentication)
 * into what the token endpoint decides on, raising the §5.2 errors a malformed request gets. The
 * controller keeps what needs services (rate-limit headers, authentication, the allowed scopes).
 */
import { OAuthError } from '../../common/errors/oauth-error.js';

export interface OAuthTokenRequest {
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** The client authenticated with HTTP Basic (a failure then answers with WWW-Authenticate). */
  readonly usedBasic: boolean;
  /**
   * The scopes asked for; undefined: all the client's. Read only once the client is
   * authenticated, so a bad client is told so before a malformed scope.
   */
  requestedScopes(): string[] | undefined;
}

export function parseOAuthTokenRequest(
  body: Record<string, unknown> | undefined,
  authorization: string | undefined,
  contentType: string | undefined,
): OAuthTokenRequest {
  if (!contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'The request must be application/x-www-form-urlencoded.');
  }
  const field = (name: string): string | undefined => {
    const value = body?.[name];
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `Parameter ${name} is repeated.`);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const basic = parseBasic(authorization);
  const bodyId = field('client_id');
  const bodySecret = field('client_secret');
  if (basic && (bodyId || bodySecret)) {
    throw new OAuthError('invalid_request', 'Use one client authentication method, not both.');
  }
  const grantType = field('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'Missing grant_type.');
  if (grantType !== 'client_credentials') {
    throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
  }
  return {
    clientId: basic?.clientId ?? bodyId,
    clientSecret: basic?.clientSecret ?? bodySecret,
    usedBasic: !!basic,
    requestedScopes: () => field('scope')?.split(' ').filter(Boolean),
  };
}

function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (!header?.toLowerCase().startsWith('basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.', true);
  // RFC 6749 §2.3.1: both parts are form-urlencoded before Basic encoding.
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.', true);
    }
  };
  return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
}
