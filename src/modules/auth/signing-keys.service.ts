import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import type { Repository } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { SigningKeyEntity } from './entities/signing-key.entity.js';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The same key as PEM, for jsonwebtoken. */
  publicKeyPem: string;
}

export interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/**
 * ES256 keys. The first key signs; every key verifies, so a new key can be published before it
 * signs and an old one kept until its tokens expire. Production: JWT_PRIVATE_KEYS. Otherwise a key
 * is generated on first start and kept in the database, so tokens survive restarts.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly logger = new Logger(SigningKeysService.name);
  private keys: SigningKey[] = [];

  constructor(
    private readonly config: AppConfig,
    @InjectRepository(SigningKeyEntity) private readonly stored: Repository<SigningKeyEntity>,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.JWT_PRIVATE_KEYS) {
      const configured = JSON.parse(this.config.JWT_PRIVATE_KEYS) as { kid: string; privateKeyPem: string }[];
      this.keys = configured.map((k) => toSigningKey(k.kid, k.privateKeyPem));
      return;
    }
    let rows = await this.stored.find({ order: { createdAt: 'DESC' } });
    if (rows.length === 0) {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const kid = `gen-${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
      await this.stored
        .createQueryBuilder()
        .insert()
        .values({ kid, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() })
        .orIgnore()
        .execute();
      rows = await this.stored.find({ order: { createdAt: 'DESC' } });
      this.logger.log(`Generated signing key ${rows[0]?.kid} (embedded mode)`);
    }
    this.keys = rows.map((row) => toSigningKey(row.kid, row.privateKeyPem));
  }

  get signingKey(): SigningKey {
    const key = this.keys[0];
    if (!key) throw new Error('No signing key loaded');
    return key;
  }

  verificationKey(kid: string): SigningKey | undefined {
    return this.keys.find((key) => key.kid === kid);
  }

  jwks(): { keys: PublicJwk[] } {
    return {
      keys: this.keys.map((key) => {
        const jwk = key.publicKey.export({ format: 'jwk' }) as {
          kty: string;
          crv: string;
          x: string;
          y: string;
        };
        return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid: key.kid, alg: 'ES256', use: 'sig' };
      }),
    };
  }
}

function toSigningKey(kid: string, privateKeyPem: string): SigningKey {
  const privateKey = createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error(`Signing key ${kid} must be an EC P-256 key for ES256`);
  }
  const publicKey = createPublicKey(privateKey);
  return {
    kid,
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}
