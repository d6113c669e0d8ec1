import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { InstanceSecretsService } from '../../database/instance-secrets.service.js';

const VERSION = 'v1';
const IV_BYTES = 12;

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * AES-256-GCM for webhook signing secrets at rest: the same approach as the sources module's
 * CredentialsCipher (key ENCRYPTION_KEY, required in production; else an instance secret kept in
 * the database), with the endpoint id bound as additional authenticated data. Stored as
 * `v1.<iv>.<tag>.<ciphertext>` (base64url). The plain secret is never logged.
 */
@Injectable()
export class WebhookSecretCipher {
  private key?: Promise<Buffer>;

  constructor(
    private readonly config: AppConfig,
    private readonly secrets: InstanceSecretsService,
  ) {}

  async encrypt(endpointId: string, secret: string): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.keyBytes(), iv);
    cipher.setAAD(Buffer.from(`webhook-endpoint:${endpointId}`));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async decrypt(endpointId: string, stored: string): Promise<string> {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined)
      throw new Error('Unreadable webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyBytes(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`webhook-endpoint:${endpointId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  private keyBytes(): Promise<Buffer> {
    this.key ??= (
      this.config.ENCRYPTION_KEY
        ? Promise.resolve(Buffer.from(this.config.ENCRYPTION_KEY, 'base64'))
        : this.secrets.getOrCreate('webhook-secret-key', 32)
    ).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}
