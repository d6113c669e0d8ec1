import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyScheduler } from './idempotency.scheduler.js';
import { IdempotencyService } from './idempotency.service.js';
import { StoredResponseCipher } from './stored-response.cipher.js';

/**
 * Idempotency-Key for every authenticated POST/PUT/PATCH/DELETE (issue 18 item 5). Owns the
 * idempotency_key table; the interceptor is global, so a new write endpoint is covered with no code.
 */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKeyEntity])],
  providers: [
    IdempotencyRepository,
    IdempotencyService,
    StoredResponseCipher,
    IdempotencyScheduler,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
