import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { Repository } from 'typeorm';
import { InstanceSecretEntity } from './instance-secret.entity.js';

/**
 * Keys that must be identical on every instance (cursor signing, credential encryption in
 * embedded mode). Generated once, first writer wins, then read by everyone.
 */
@Injectable()
export class InstanceSecretsService {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    @InjectRepository(InstanceSecretEntity) private readonly secrets: Repository<InstanceSecretEntity>,
  ) {}

  async getOrCreate(name: string, bytes = 32): Promise<Buffer> {
    const cached = this.cache.get(name);
    if (cached) return cached;
    await this.secrets
      .createQueryBuilder()
      .insert()
      .values({ name, value: randomBytes(bytes).toString('base64') })
      .orIgnore()
      .execute();
    const row = await this.secrets.findOneByOrFail({ name });
    const value = Buffer.from(row.value, 'base64');
    this.cache.set(name, value);
    return value;
  }
}
