/**
 * A self-signed TLS certificate for 127.0.0.1, made in memory for HTTPS fakes (no openssl, no file
 * on disk): an EC P-256 key (node:crypto) and an X.509 v3 certificate DER-encoded by hand, with
 * `subjectAltName` IP 127.0.0.1 (what Node checks a TLS connection to an IP against) and
 * `basicConstraints` CA (it is its own trust anchor). The client is told to trust it explicitly
 * (ExchangeClientOptions.trustedCa): nothing process-wide changes.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

const tlv = (tag: number, content: Buffer): Buffer => {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
};
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const oid = (hex: string) => tlv(0x06, Buffer.from(hex, 'hex'));
const utcTime = (date: Date) => {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS
  const text =
    iso.slice(2, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19) +
    'Z';
  return tlv(0x17, Buffer.from(text, 'ascii'));
};

const ECDSA_WITH_SHA256 = seq(oid('2a8648ce3d040302'));
const COMMON_NAME = '550403';
const SUBJECT_ALT_NAME = '551d11';
const BASIC_CONSTRAINTS = '551d13';

export interface LocalCertificate {
  /** PEM private key of the server. */
  readonly key: string;
  /** PEM certificate, to serve and to trust. */
  readonly cert: string;
}

let cached: LocalCertificate | undefined;

/** One certificate per test process for 127.0.0.1, valid from an hour ago for a day. */
export function localCertificate(): LocalCertificate {
  if (cached) return cached;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = seq(set(seq(oid(COMMON_NAME), tlv(0x0c, Buffer.from('127.0.0.1')))));
  const serial = randomBytes(8);
  serial[0] = serial[0]! & 0x7f; // a positive INTEGER
  const now = Date.now();
  const extensions = tlv(
    0xa3,
    seq(
      seq(
        oid(BASIC_CONSTRAINTS),
        tlv(0x01, Buffer.from([0xff])),
        tlv(0x04, seq(tlv(0x01, Buffer.from([0xff])))),
      ),
      seq(oid(SUBJECT_ALT_NAME), tlv(0x04, seq(tlv(0x87, Buffer.from([127, 0, 0, 1]))))),
    ),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // v3
    tlv(0x02, serial),
    ECDSA_WITH_SHA256,
    name,
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = seq(tbs, ECDSA_WITH_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const cert = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
  cached = {
    key: createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })).export({
      type: 'pkcs8',
      format: 'pem',
    }) as string,
    cert,
  };
  return cached;
}
