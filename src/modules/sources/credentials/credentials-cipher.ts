import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppConfig } from '../../../config/app-config.js';
import { InstanceSecretsService } from '../../../database/instance-secrets.service.js';

const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * AES-256-GCM for connector credentials at rest (design §5). Key: ENCRYPTION_KEY (required in
 * production), else one generated on first start and kept in the database (embedded/dev mode).
 * The account id is bound as additional authenticated data, so a ciphertext copied onto another
 * account does not decrypt. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
@Injectable()
export class CredentialsCipher {
  private key?: Promise<Buffer>;

  constructor(
    private readonly config: AppConfig,
    private readonly secrets: InstanceSecretsService,
  ) {}

  async encrypt(accountId: string, credentials: Readonly<Record<string, string>>): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.keyBytes(), iv);
    cipher.setAAD(Buffer.from(`account:${accountId}`));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async decrypt(accountId: string, stored: string): Promise<Record<string, string>> {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined)
      throw new Error('Unreadable credentials');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyBytes(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`account:${accountId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as Record<string, string>;
  }

  private keyBytes(): Promise<Buffer> {
    this.key ??= (
      this.config.ENCRYPTION_KEY
        ? Promise.resolve(Buffer.from(this.config.ENCRYPTION_KEY, 'base64'))
        : this.secrets.getOrCreate('credential-encryption-key', 32)
    ).catch((error: unknown) => {
      this.key = undefined; // e.g. the database was briefly unavailable: ask again next time
      throw error;
    });
    return this.key;
  }
}
