import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { StoredResponse } from '../../common/http/replayed-response.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

export type { StoredResponse };

export interface ClaimTimes {
  now: Date;
  /** An in-progress claim is held until then. */
  lockedUntil: Date;
  /** Keys created before this have expired and may be claimed again. */
  expiredBefore: Date;
}

/** The only code that touches the idempotency_key table. Every query is scoped to tenant and client. */
@Injectable()
export class IdempotencyRepository {
  constructor(
    @InjectRepository(IdempotencyKeyEntity) private readonly keys: Repository<IdempotencyKeyEntity>,
  ) {}

  /**
   * Claims the key for a new execution in one statement: inserts it, or takes over a row that has
   * expired or whose in-progress holder stopped renewing (a crash). True when this caller now holds it.
   */
  async claim(
    tenantId: string,
    clientId: string,
    key: string,
    fingerprint: string,
    times: ClaimTimes,
  ): Promise<boolean> {
    const rows: unknown[] = await this.keys.query(
      `INSERT INTO "idempotency_key"
         ("tenant_id", "client_id", "idempotency_key", "fingerprint", "state", "locked_until", "created_at")
       VALUES ($1, $2, $3, $4, 'in_progress', $5, $6)
       ON CONFLICT ("client_id", "idempotency_key") DO UPDATE
         SET "fingerprint" = EXCLUDED."fingerprint", "state" = 'in_progress',
             "locked_until" = EXCLUDED."locked_until", "created_at" = EXCLUDED."created_at",
             "response_status" = NULL, "response_headers" = NULL, "response_body" = NULL
         WHERE "idempotency_key"."tenant_id" = EXCLUDED."tenant_id"
           AND ("idempotency_key"."created_at" < $7
             OR ("idempotency_key"."state" = 'in_progress' AND "idempotency_key"."locked_until" < $6))
       RETURNING "client_id"`,
      [tenantId, clientId, key, fingerprint, times.lockedUntil, times.now, times.expiredBefore],
    );
    return rows.length === 1;
  }

  find(tenantId: string, clientId: string, key: string): Promise<IdempotencyKeyEntity | null> {
    return this.keys.findOneBy({ tenantId, clientId, idempotencyKey: key });
  }

  async complete(
    tenantId: string,
    clientId: string,
    key: string,
    fingerprint: string,
    response: StoredResponse,
  ): Promise<void> {
    await this.keys.update(
      { tenantId, clientId, idempotencyKey: key, fingerprint, state: 'in_progress' },
      {
        state: 'completed',
        responseStatus: response.status,
        responseHeaders: response.headers,
        responseBody: response.body,
      },
    );
  }

  /** Frees a claim whose response is not kept (5xx, 429, validation): a retry executes again. */
  async release(tenantId: string, clientId: string, key: string, fingerprint: string): Promise<void> {
    await this.keys.delete({ tenantId, clientId, idempotencyKey: key, fingerprint, state: 'in_progress' });
  }

  /** Deletes keys created before `before`, across tenants (housekeeping). Returns how many. */
  async deleteExpired(before: Date): Promise<number> {
    const result = await this.keys
      .createQueryBuilder()
      .delete()
      .where('created_at < :before', { before })
      .execute();
    return result.affected ?? 0;
  }
}
