import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 18, signed webhooks (docs/events.md): partner endpoints with their encrypted signing
 * secrets, the outbox (events written in the same transaction as the change that causes them)
 * and the deliveries the worker fans the events out to, claims with a lease and retries.
 * Raw-SQL tables of the webhooks module (no entities: the module reads and writes them with SQL).
 */
export class WebhooksAndOutbox1796000000000 implements MigrationInterface {
  name = 'WebhooksAndOutbox1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "webhook_endpoint" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "description" character varying(500), "event_types" jsonb NOT NULL, "secret_encrypted" text NOT NULL, "previous_secret_encrypted" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "secret_rotated_at" TIMESTAMP WITH TIME ZONE, "status" character varying(16) NOT NULL DEFAULT 'enabled', "disabled_reason" character varying(500), "disabled_at" TIMESTAMP WITH TIME ZONE, "consecutive_failures" integer NOT NULL DEFAULT 0, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_webhook_endpoint" PRIMARY KEY ("id"), CONSTRAINT "FK_webhook_endpoint_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE INDEX "idx_webhook_endpoint_tenant" ON "webhook_endpoint" ("tenant_id", "created_at")`);
    await queryRunner.query(`CREATE TABLE "outbox_event" ("seq" BIGSERIAL NOT NULL, "id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "account_id" uuid, "endpoint_id" uuid, "type" character varying(64) NOT NULL, "body" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "dispatched_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_outbox_event" PRIMARY KEY ("seq"), CONSTRAINT "UQ_outbox_event_id" UNIQUE ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_outbox_event_undispatched" ON "outbox_event" ("seq") WHERE "dispatched_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "idx_outbox_event_created" ON "outbox_event" ("created_at")`);
    await queryRunner.query(`CREATE TABLE "webhook_delivery" ("seq" BIGSERIAL NOT NULL, "id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "event_id" uuid NOT NULL, "event_type" character varying(64) NOT NULL, "account_id" uuid, "body" text NOT NULL, "replay_of" uuid, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT 0, "next_attempt_at" TIMESTAMP WITH TIME ZONE, "lease_until" TIMESTAMP WITH TIME ZONE, "lease_owner" character varying(100), "last_attempt_at" TIMESTAMP WITH TIME ZONE, "last_status_code" integer, "last_error" character varying(500), "response_excerpt" character varying(500), "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_webhook_delivery" PRIMARY KEY ("seq"), CONSTRAINT "UQ_webhook_delivery_id" UNIQUE ("id"), CONSTRAINT "FK_webhook_delivery_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhook_delivery_fanout" ON "webhook_delivery" ("endpoint_id", "event_id") WHERE "replay_of" IS NULL`);
    await queryRunner.query(`CREATE INDEX "idx_webhook_delivery_due" ON "webhook_delivery" ("next_attempt_at") WHERE "status" = 'pending'`);
    await queryRunner.query(`CREATE INDEX "idx_webhook_delivery_order" ON "webhook_delivery" ("endpoint_id", "account_id", "seq") WHERE "status" = 'pending'`);
    await queryRunner.query(`CREATE INDEX "idx_webhook_delivery_list" ON "webhook_delivery" ("endpoint_id", "seq")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_delivery"`);
    await queryRunner.query(`DROP TABLE "outbox_event"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoint"`);
  }
}
