import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail (docs/audit.md) and report snapshots (docs/tax-report.md, "Report snapshots").
 * Beyond the generated tables: the chain head row, and a trigger that makes `audit_entry`
 * append-only (UPDATE, DELETE and TRUNCATE refused) except for the retention prune, which sets
 * `audit.prune` to `on` in its own transaction and moves the chain's anchor in the same one.
 */
export class AuditTrailAndReportSnapshots1795900000000 implements MigrationInterface {
  name = 'AuditTrailAndReportSnapshots1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_chain" ("id" smallint NOT NULL, "last_sequence" bigint NOT NULL, "last_hash" character(64) NOT NULL, "anchor_sequence" bigint NOT NULL, "anchor_hash" character(64) NOT NULL, "pruned_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b8d1381b52157dc73c080e39f09" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "audit_entry" ("sequence" bigint NOT NULL, "id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "tenant_id" uuid, "actor_kind" character varying(16) NOT NULL, "actor_id" character varying(128) NOT NULL, "action" character varying(64) NOT NULL, "target_kind" character varying(32), "target_id" character varying(128), "request_id" character varying(128), "status" smallint, "details" text NOT NULL, "prev_hash" character(64) NOT NULL, "hash" character(64) NOT NULL, CONSTRAINT "PK_c30e76145b0ecf802cd4af44910" PRIMARY KEY ("sequence"))`);
    await queryRunner.query(`CREATE INDEX "idx_audit_entry_occurred_at" ON "audit_entry"  ("occurred_at") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_entry_target" ON "audit_entry"  ("target_id", "sequence") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_entry_actor" ON "audit_entry"  ("actor_id", "sequence") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_entry_tenant" ON "audit_entry"  ("tenant_id", "sequence") `);
    await queryRunner.query(`CREATE TABLE "report_snapshot" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "account_id" uuid, "parameters" text NOT NULL, "report" text NOT NULL, "report_sha256" character(64) NOT NULL, "data_checksum" character(64) NOT NULL, "data_row_count" integer NOT NULL, "created_by" character varying(128) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5418c6b00adad99708e32914edf" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_report_snapshot_tenant_created" ON "report_snapshot"  ("tenant_id", "created_at", "id") `);
    await queryRunner.query(`INSERT INTO "audit_chain" ("id", "last_sequence", "last_hash", "anchor_sequence", "anchor_hash") VALUES (1, 0, repeat('0', 64), 0, repeat('0', 64))`);
    await queryRunner.query(`CREATE FUNCTION "audit_entry_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('audit.prune', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_entry is append-only: % refused', TG_OP USING ERRCODE = '42501';
END
$$`);
    await queryRunner.query(`CREATE TRIGGER "audit_entry_append_only" BEFORE UPDATE OR DELETE ON "audit_entry" FOR EACH ROW EXECUTE FUNCTION "audit_entry_append_only"()`);
    await queryRunner.query(`CREATE TRIGGER "audit_entry_no_truncate" BEFORE TRUNCATE ON "audit_entry" FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_append_only"()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "audit_entry_no_truncate" ON "audit_entry"`);
    await queryRunner.query(`DROP TRIGGER "audit_entry_append_only" ON "audit_entry"`);
    await queryRunner.query(`DROP FUNCTION "audit_entry_append_only"()`);
    await queryRunner.query(`DROP INDEX "public"."idx_report_snapshot_tenant_created"`);
    await queryRunner.query(`DROP TABLE "report_snapshot"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_entry_tenant"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_entry_actor"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_entry_target"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_entry_occurred_at"`);
    await queryRunner.query(`DROP TABLE "audit_entry"`);
    await queryRunner.query(`DROP TABLE "audit_chain"`);
  }
}
