import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { InstanceSecretsService } from '../../database/instance-secrets.service.js';

const PREFIX = 'enc1.';
const IV_BYTES = 12;

/**
 * Kept responses are encrypted at rest (AES-256-GCM): a replayed answer may hold a secret shown
 * once (a new API client's secret, a webhook signing secret), and it must not lie in the database
 * in clear for the key's 24 hours. Key: derived from ENCRYPTION_KEY (HKDF-SHA256, info
 * "idempotency-responses"), else an instance secret of its own kept in the database, like the
 * credentials key. The caller and key are bound as additional authenticated data, so a stored
 * answer copied onto another key does not decrypt. Rows written in clear before this are read as
 * they are (they expire within a day).
 */
@Injectable()
export class StoredResponseCipher {
  private key?: Promise<Buffer>;

  constructor(
    private readonly config: AppConfig,
    private readonly secrets: InstanceSecretsService,
  ) {}

  async seal(binding: string, body: string): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.keyBytes(), iv);
    cipher.setAAD(Buffer.from(binding));
    const ciphertext = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
    return PREFIX + [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
  }

  async open(binding: string, stored: string): Promise<string> {
    if (!stored.startsWith(PREFIX)) return stored;
    const [iv, tag, ciphertext] = stored.slice(PREFIX.length).split('.');
    if (!iv || !tag || ciphertext === undefined) throw new Error('Unreadable stored response');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyBytes(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(binding));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  private keyBytes(): Promise<Buffer> {
    this.key ??= (
      this.config.ENCRYPTION_KEY
        ? Promise.resolve(
            Buffer.from(
              hkdfSync(
                'sha256',
                Buffer.from(this.config.ENCRYPTION_KEY, 'base64'),
                '',
                'idempotency-responses',
                32,
              ),
            ),
          )
        : this.secrets.getOrCreate('idempotency-response-key', 32)
    ).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}
