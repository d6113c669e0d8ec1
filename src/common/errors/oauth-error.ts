/** RFC 6749 §5.2 error of the /oauth/token endpoint; rendered as {error, error_description}. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** invalid_client after HTTP Basic: 401 with WWW-Authenticate (RFC 6749 §5.2). */
    readonly usedBasicAuth = false,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}
