import { SigningKeysService } from '../../../src/modules/auth/testing.js';
import { ClientsService } from '../../../src/modules/tenancy/index.js';
import { sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';
import { claims, freshEcKey, hs256WithKey, signEs256, unsignedToken } from '../../support/tokens.js';

describe('auth (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startSuite();
  });
  afterAll(() => t.close());

  describe('POST /v1/api/token', () => {
    it('issues a token from JSON body credentials, with both published shapes at once', async () => {
      const before = Date.now();
      const res = await t.http
        .post('/v1/api/token')
        .send({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' })
        .expect(200);
      expect(res.body).toMatchObject({ isError: false, message: 'OK', statusCode: 200 });
      const r = res.body.result;
      expect(Object.keys(r).sort()).toEqual(['accessToken', 'expiresIn', 'expiresOn', 'token', 'tokenType']);
      expect(r.token).toBe(r.accessToken);
      expect(r.tokenType).toBe('Bearer');
      expect(r.expiresIn).toBe(3600);
      expect(r.expiresOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      const expiresOn = Date.parse(r.expiresOn);
      expect(expiresOn).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
      expect(expiresOn).toBeLessThanOrEqual(Date.now() + 3600_000);
      const header = JSON.parse(Buffer.from(r.accessToken.split('.')[0], 'base64url').toString());
      expect(header.alg).toBe('ES256');
      expect(typeof header.kid).toBe('string');
      const payload = JSON.parse(Buffer.from(r.accessToken.split('.')[1], 'base64url').toString());
      expect(payload).toMatchObject({
        sub: 'sandbox-client',
        tid: sandboxTenantId('sandbox'),
        scope: 'partner',
        iss: t.config.JWT_ISSUER,
        aud: t.config.JWT_AUDIENCE,
      });
      expect(payload.exp - payload.iat).toBe(3600);
    });

    it('issues a token from header credentials with accept: application/json', async () => {
      const res = await t.http
        .post('/v1/api/token')
        .set('clientId', 'sandbox-client')
        .set('clientSecret', 'sandbox-secret')
        .set('accept', 'application/json')
        .expect(200);
      expect(res.body.result.accessToken).toEqual(expect.any(String));
      await t.http.get('/api/status').set('Authorization', `Bearer ${res.body.result.token}`).expect(200);
    });

    it('lets the body win when both forms are present', async () => {
      await t.http
        .post('/v1/api/token')
        .set('clientId', 'sandbox-client')
        .set('clientSecret', 'wrong')
        .send({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' })
        .expect(200);
    });

    const validationBody = (errors: Record<string, string[]>, traceId: string) => ({
      statusCode: 400,
      isError: true,
      message: 'One or more validation errors occurred.',
      result: null,
      responseException: {
        exceptionMessage: {
          type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
          title: 'One or more validation errors occurred.',
          status: 400,
          // Item 3 of issue 13: the fields and what is wrong with them, as a sentence.
          detail:
            Object.keys(errors).length === 1
              ? Object.entries(errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`)[0]
              : `2 fields failed validation: ${Object.entries(errors)
                  .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
                  .join(' ')}`,
          instance: '/v1/api/token',
          errors,
          traceId,
        },
      },
    });

    it.each([
      ['clientId', { clientSecret: 'sandbox-secret' }, { ClientId: ['The ClientId field is required.'] }],
      [
        'clientSecret',
        { clientId: 'sandbox-client' },
        { ClientSecret: ['The ClientSecret field is required.'] },
      ],
      [
        'both',
        {},
        {
          ClientId: ['The ClientId field is required.'],
          ClientSecret: ['The ClientSecret field is required.'],
        },
      ],
      [
        'empty clientId',
        { clientId: '  ', clientSecret: 'x' },
        { ClientId: ['The ClientId field is required.'] },
      ],
    ])('answers missing %s with the exact 400 validation body', async (_name, body, errors) => {
      const res = await t.http.post('/v1/api/token').send(body).expect(400);
      expect(res.body).toEqual(validationBody(errors, res.headers['x-request-id']));
    });

    it('answers a missing header credential with the same 400 body', async () => {
      const res = await t.http
        .post('/v1/api/token')
        .set('clientId', 'sandbox-client')
        .set('accept', 'application/json')
        .expect(400);
      expect(res.body).toEqual(
        validationBody(
          { ClientSecret: ['The ClientSecret field is required.'] },
          res.headers['x-request-id'],
        ),
      );
    });

    it.each([
      ['wrong secret', 'sandbox-client', 'nope'],
      ['unknown client', 'no-such-client', 'sandbox-secret'],
    ])('answers %s with 401 in the envelope', async (_name, clientId, clientSecret) => {
      const res = await t.http.post('/v1/api/token').send({ clientId, clientSecret }).expect(401);
      expect(res.body).toMatchObject({
        isError: true,
        statusCode: 401,
        result: null,
        responseException: {
          exceptionMessage: { status: 401, title: 'Unauthorized', traceId: res.headers['x-request-id'] },
        },
      });
    });

    it('refuses a disabled client, and its tokens issued before it was disabled', async () => {
      const clients = t.app.get(ClientsService);
      const issued = await clients.createClient('sandbox', ['partner'], 'disable-me');
      const token = await t.token('disable-me', issued.clientSecret);
      await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(200);
      await clients.setDisabled('disable-me', true);
      await t.http
        .post('/v1/api/token')
        .send({ clientId: 'disable-me', clientSecret: issued.clientSecret })
        .expect(401);
      await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(401);
    });

    it('rejects unknown body fields naming the field', async () => {
      const res = await t.http
        .post('/v1/api/token')
        .send({ clientId: 'a', clientSecret: 'b', extra: 1 })
        .expect(400);
      expect(res.body.responseException.exceptionMessage.errors).toHaveProperty('extra');
    });
  });

  describe('bearer verification', () => {
    let base: { iss: string; aud: string; sub: string; tid: string; scope: string };
    let keys: SigningKeysService;
    beforeAll(() => {
      keys = t.app.get(SigningKeysService);
      base = {
        iss: t.config.JWT_ISSUER,
        aud: t.config.JWT_AUDIENCE,
        sub: 'sandbox-client',
        tid: sandboxTenantId('sandbox'),
        scope: 'partner',
      };
    });

    const expect401 = async (authorization: string | undefined) => {
      const req = t.http.get('/api/status');
      if (authorization !== undefined) req.set('Authorization', authorization);
      const res = await req.expect(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({
        status: 401,
        title: 'Unauthorized',
        traceId: res.headers['x-request-id'],
      });
    };

    it('accepts a well-formed token signed by the service key', async () => {
      const token = signEs256(claims(base), keys.signingKey.privateKey, keys.signingKey.kid);
      await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(200);
    });

    it('401s a missing token', () => expect401(undefined));
    it('401s a garbage token', () => expect401('Bearer not-a-jwt'));
    it('401s a non-bearer scheme', () => expect401('Basic c2FuZGJveC1jbGllbnQ6c2FuZGJveC1zZWNyZXQ='));
    it('401s an expired token', () =>
      expect401(
        `Bearer ${signEs256(claims(base, { iat: 1_000, nbf: 1_000, exp: 2_000 }), keys.signingKey.privateKey, keys.signingKey.kid)}`,
      ));
    it('401s a token not yet valid', () => {
      const future = Math.floor(Date.now() / 1000) + 600;
      return expect401(
        `Bearer ${signEs256(claims(base, { nbf: future, iat: future, exp: future + 3600 }), keys.signingKey.privateKey, keys.signingKey.kid)}`,
      );
    });
    it('401s alg: none', () => expect401(`Bearer ${unsignedToken(claims(base))}`));
    it('401s HS256 signed with the public key', () =>
      expect401(`Bearer ${hs256WithKey(claims(base), keys.signingKey.publicKeyPem, keys.signingKey.kid)}`));
    it('401s a wrong issuer', () =>
      expect401(
        `Bearer ${signEs256(claims(base, { iss: 'https://evil.example' }), keys.signingKey.privateKey, keys.signingKey.kid)}`,
      ));
    it('401s a wrong audience', () =>
      expect401(
        `Bearer ${signEs256(claims(base, { aud: 'other-api' }), keys.signingKey.privateKey, keys.signingKey.kid)}`,
      ));
    it('401s an unknown kid', () =>
      expect401(`Bearer ${signEs256(claims(base), freshEcKey(), 'unknown-kid')}`));
    it('401s a known kid signed by another key', () =>
      expect401(`Bearer ${signEs256(claims(base), freshEcKey(), keys.signingKey.kid)}`));
    it('401s a stripped signature', async () => {
      const token = signEs256(claims(base), keys.signingKey.privateKey, keys.signingKey.kid);
      await expect401(`Bearer ${token.split('.').slice(0, 2).join('.')}.`);
    });
    it('401s a tampered payload', async () => {
      const [h, , s] = signEs256(claims(base), keys.signingKey.privateKey, keys.signingKey.kid).split('.');
      const forged = Buffer.from(
        JSON.stringify(claims(base, { tid: sandboxTenantId('sandbox-b') })),
      ).toString('base64url');
      await expect401(`Bearer ${h}.${forged}.${s}`);
    });

    it('publishes the verification keys as a JWKS', async () => {
      const res = await t.http.get('/.well-known/jwks.json').expect(200);
      expect(res.body.keys).toEqual([
        expect.objectContaining({
          kty: 'EC',
          crv: 'P-256',
          kid: keys.signingKey.kid,
          alg: 'ES256',
          use: 'sig',
          x: expect.any(String),
          y: expect.any(String),
        }),
      ]);
      expect(res.body.keys[0]).not.toHaveProperty('d');
    });
  });

  describe('POST /oauth/token (RFC 6749 client credentials)', () => {
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

    it('issues a token with HTTP Basic client authentication', async () => {
      const res = await t.http
        .post('/oauth/token')
        .set('Authorization', basic('sandbox-client', 'sandbox-secret'))
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'partner',
      });
      await t.http.get('/api/status').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);
    });

    it('issues a token with client credentials in the body, narrowing scope on request', async () => {
      // An operator client given both scopes (sandbox-admin has only admin since #13).
      const both = await t.app
        .get(ClientsService)
        .createClient('operator', ['partner', 'admin'], 'oauth-both');
      const res = await t.http
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'client_credentials',
          client_id: both.clientId,
          client_secret: both.clientSecret,
          scope: 'partner',
        })
        .expect(200);
      expect(res.body.scope).toBe('partner');
    });

    it.each([
      ['missing grant_type', 400, 'invalid_request', {}, undefined],
      [
        'unsupported grant',
        400,
        'unsupported_grant_type',
        { grant_type: 'password' },
        basic('sandbox-client', 'sandbox-secret'),
      ],
      [
        'two client auth methods',
        400,
        'invalid_request',
        { grant_type: 'client_credentials', client_id: 'sandbox-client' },
        basic('sandbox-client', 'sandbox-secret'),
      ],
      [
        'bad secret (body)',
        401,
        'invalid_client',
        { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'x' },
        undefined,
      ],
      [
        'bad secret (Basic)',
        401,
        'invalid_client',
        { grant_type: 'client_credentials' },
        basic('sandbox-client', 'x'),
      ],
      ['no client auth', 401, 'invalid_client', { grant_type: 'client_credentials' }, undefined],
      [
        'scope beyond the client',
        400,
        'invalid_scope',
        { grant_type: 'client_credentials', scope: 'admin' },
        basic('sandbox-client', 'sandbox-secret'),
      ],
    ])('%s → %d %s', async (_name, status, error, form, authorization) => {
      const req = t.http.post('/oauth/token').type('form');
      if (authorization) req.set('Authorization', authorization);
      const res = await req.send(form).expect(status);
      expect(res.body).toEqual({ error, error_description: expect.any(String) });
      if (status === 401 && authorization) expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    });

    it('answers a JSON body with invalid_request (the grant is form-encoded)', async () => {
      const res = await t.http.post('/oauth/token').send({ grant_type: 'client_credentials' }).expect(400);
      expect(res.body.error).toBe('invalid_request');
    });
  });

  describe('scopes', () => {
    it('gives an admin token no partner routes: it carries no partner scope (design §3)', async () => {
      const token = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
      await t.http.get('/api/status').set('Authorization', `Bearer ${token}`).expect(403);
    });
  });
});
