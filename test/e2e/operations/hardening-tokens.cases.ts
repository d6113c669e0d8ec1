import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { claims } from '../../support/tokens.js';

/** Two configured keys: "current" signs, "previous" still verifies (rotation). */
const current = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const previous = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const pem = (k: typeof current) => k.export({ format: 'pem', type: 'pkcs8' }).toString();

/** The file's app is started with these keys (operations.e2e-spec.ts). */
export const JWT_PRIVATE_KEYS = JSON.stringify([
  { kid: 'current', privateKeyPem: pem(current) },
  { kid: 'previous', privateKeyPem: pem(previous) },
]);

describe('token attacks and key rotation (e2e)', () => {
  let t: SuiteApp;
  let base: { iss: string; aud: string; sub: string; tid: string; scope: string };
  beforeAll(async () => {
    t = await startSuite({ JWT_PRIVATE_KEYS });
    base = {
      iss: t.config.JWT_ISSUER,
      aud: t.config.JWT_AUDIENCE,
      sub: 'sandbox-client',
      tid: sandboxTenantId('sandbox'),
      scope: 'partner',
    };
  });
  afterAll(() => t.close());

  const status = (token: string) => t.http.get('/api/status').set('Authorization', `Bearer ${token}`);

  it('signs with the first configured key and publishes both', async () => {
    const token = await t.token();
    expect(jwt.decode(token, { complete: true })?.header.kid).toBe('current');
    const jwks = await t.http.get('/.well-known/jwks.json').expect(200);
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toEqual(['current', 'previous']);
  });

  it('still accepts tokens signed by the previous key (rotation)', async () => {
    await status(jwt.sign(claims(base), previous, { algorithm: 'ES256', keyid: 'previous' })).expect(200);
  });

  it('rejects a swapped kid: signed by one key, naming the other', async () => {
    await status(jwt.sign(claims(base), previous, { algorithm: 'ES256', keyid: 'current' })).expect(401);
    await status(jwt.sign(claims(base), current, { algorithm: 'ES256', keyid: 'previous' })).expect(401);
  });

  it('rejects ES384/RS256/PS256-labelled tokens even with a valid-looking signature', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await status(jwt.sign(claims(base), rsa, { algorithm: 'RS256', keyid: 'current' })).expect(401);
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    await status(jwt.sign(claims(base), p384, { algorithm: 'ES384', keyid: 'current' })).expect(401);
  });

  it('answers a very long JWT header with 401, not 500', async () => {
    const header = Buffer.from(
      JSON.stringify({ alg: 'ES256', kid: 'current', pad: 'x'.repeat(8000) }),
    ).toString('base64url');
    const signed = jwt.sign(claims(base), current, { algorithm: 'ES256', keyid: 'current' }).split('.');
    const res = await status(`${header}.${signed[1]}.${signed[2]}`).expect(401);
    expect(res.body.status).toBe(401);
  });

  it('answers an Authorization header past the server limit with 431, not 500', async () => {
    const res = await t.http.get('/api/status').set('Authorization', `Bearer ${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
  });

  it('rejects a token whose tenant claim was rewritten, and one with claims missing', async () => {
    await status(
      jwt.sign({ ...claims(base), tid: undefined }, current, { algorithm: 'ES256', keyid: 'current' }),
    ).expect(401);
    const [h, , s] = jwt.sign(claims(base), current, { algorithm: 'ES256', keyid: 'current' }).split('.');
    const forged = Buffer.from(
      JSON.stringify(claims(base, { tid: sandboxTenantId('sandbox-b'), sub: 'sandbox-b-client' })),
    ).toString('base64url');
    await status(`${h}.${forged}.${s}`).expect(401);
  });

  it('rejects other schemes and empty bearer values (RFC 7235 allows extra spaces after the scheme)', async () => {
    const token = await t.token();
    await t.http.get('/api/status').set('Authorization', `Bearer  ${token}`).expect(200);
    await t.http.get('/api/status').set('Authorization', 'Bearer ').expect(401);
    await t.http.get('/api/status').set('Authorization', `Token ${token}`).expect(401);
  });
});
