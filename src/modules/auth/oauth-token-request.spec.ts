import { OAuthError } from '../../common/errors/oauth-error.js';
import { parseOAuthTokenRequest } from './oauth-token-request.js';

const FORM = 'application/x-www-form-urlencoded; charset=utf-8';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function error(run: () => unknown): OAuthError {
  try {
    run();
  } catch (e) {
    if (e instanceof OAuthError) return e;
    throw e;
  }
  throw new Error('no OAuthError thrown');
}

describe('parseOAuthTokenRequest', () => {
  it('reads client credentials from the body', () => {
    const request = parseOAuthTokenRequest(
      { grant_type: 'client_credentials', client_id: 'a', client_secret: 'b', scope: 'partner  admin' },
      undefined,
      FORM,
    );
    expect(request).toMatchObject({ clientId: 'a', clientSecret: 'b', usedBasic: false });
    expect(request.requestedScopes()).toEqual(['partner', 'admin']);
  });

  it('reads form-urlencoded HTTP Basic credentials (RFC 6749 §2.3.1)', () => {
    const request = parseOAuthTokenRequest({ grant_type: 'client_credentials' }, basic('a%3Ab', 'c+d'), FORM);
    expect(request).toMatchObject({ clientId: 'a:b', clientSecret: 'c d', usedBasic: true });
    expect(request.requestedScopes()).toBeUndefined();
  });

  it.each([
    ['a JSON body', { grant_type: 'client_credentials' }, undefined, 'application/json', 'invalid_request'],
    [
      'two authentication methods',
      { grant_type: 'client_credentials', client_id: 'a' },
      basic('a', 'b'),
      FORM,
      'invalid_request',
    ],
    ['a missing grant_type', { client_id: 'a' }, undefined, FORM, 'invalid_request'],
    ['a repeated parameter', { grant_type: ['client_credentials', 'x'] }, undefined, FORM, 'invalid_request'],
    ['another grant', { grant_type: 'password' }, undefined, FORM, 'unsupported_grant_type'],
    [
      'Basic without a colon',
      { grant_type: 'client_credentials' },
      `Basic ${Buffer.from('ab').toString('base64')}`,
      FORM,
      'invalid_client',
    ],
  ])('rejects %s', (_name, body, authorization, contentType, code) => {
    expect(error(() => parseOAuthTokenRequest(body, authorization, contentType)).error).toBe(code);
  });

  it('reports a repeated scope only when the scopes are read (after authentication)', () => {
    const request = parseOAuthTokenRequest(
      { grant_type: 'client_credentials', scope: ['a', 'b'] },
      undefined,
      FORM,
    );
    expect(error(() => request.requestedScopes()).error).toBe('invalid_request');
  });
});
