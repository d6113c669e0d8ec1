import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key per API client, with the response kept for 24 hours (docs/idempotency.md). */
export class IdempotencyKeys1795510473038 implements MigrationInterface {
  name = 'IdempotencyKeys1795510473038';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "idempotency_key" ("client_id" character varying(128) NOT NULL, "idempotency_key" character varying(255) NOT NULL, "tenant_id" uuid NOT NULL, "fingerprint" character(64) NOT NULL, "state" character varying(16) NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE NOT NULL, "response_status" smallint, "response_headers" jsonb, "response_body" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ab6357224a986090251d9086f18" PRIMARY KEY ("client_id", "idempotency_key"))`);
    await queryRunner.query(`CREATE INDEX "idx_idempotency_key_created_at" ON "idempotency_key"  ("created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_idempotency_key_created_at"`);
    await queryRunner.query(`DROP TABLE "idempotency_key"`);
  }
}
