import { createHmac, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

const b64url = (value: object | Buffer) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

export interface ClaimsInput {
  iss: string;
  aud: string;
  sub: string;
  tid: string;
  scope: string;
  iat?: number;
  nbf?: number;
  exp?: number;
  jti?: string;
}

export function claims(base: ClaimsInput, overrides: Partial<ClaimsInput> = {}): Required<ClaimsInput> {
  const now = Math.floor(Date.now() / 1000);
  return { iat: now, nbf: now, exp: now + 3600, jti: randomUUID(), ...base, ...overrides };
}

export function signEs256(payload: object, privateKey: KeyObject, kid: string): string {
  return jwt.sign(payload, privateKey, { algorithm: 'ES256', keyid: kid });
}

export function unsignedToken(payload: object): string {
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
}

/** The classic confusion attack: HS256 with the server's public key as the HMAC secret. */
export function hs256WithKey(payload: object, key: string, kid: string): string {
  const head = `${b64url({ alg: 'HS256', typ: 'JWT', kid })}.${b64url(payload)}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

export function freshEcKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}
