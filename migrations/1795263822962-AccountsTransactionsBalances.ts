import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsTransactionsBalances1795263822962 implements MigrationInterface {
  name = 'AccountsTransactionsBalances1795263822962';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "account" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "collection_id" uuid NOT NULL, "identity" character varying(200) NOT NULL, "platform" character varying(64) NOT NULL, "source" character varying(32) NOT NULL, "source_options" jsonb, "address" character varying(128), "chain" character varying(32), "sync_status" character varying(32) NOT NULL, "connection_status" character varying(32) NOT NULL, "balance_source" character varying(32) NOT NULL, "last_synced_at" TIMESTAMP WITH TIME ZONE, "created_on" TIMESTAMP WITH TIME ZONE NOT NULL, "credentials_encrypted" text, "next_refresh_at" TIMESTAMP WITH TIME ZONE, "last_refresh_attempt_at" TIMESTAMP WITH TIME ZONE, "last_error" character varying(500), "data_version" integer NOT NULL DEFAULT '0', "refresh_lease_until" TIMESTAMP WITH TIME ZONE, "refresh_lease_owner" character varying(64), CONSTRAINT "PK_54115ee388cdb6d86bb4bf5b2ea" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_account_next_refresh" ON "account"  ("next_refresh_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_account_tenant_platform" ON "account"  ("tenant_id", "platform") `);
    await queryRunner.query(`CREATE INDEX "IDX_account_tenant_created" ON "account"  ("tenant_id", "created_on", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_account_tenant_collection" ON "account"  ("tenant_id", "collection_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_account_tenant_identity" ON "account"  ("tenant_id", "identity") `);
    await queryRunner.query(`CREATE TABLE "transaction" ("tenant_id" uuid NOT NULL, "account_id" uuid NOT NULL, "transaction_id" character varying(200) COLLATE "C" NOT NULL, "symbol" character varying(20) NOT NULL, "direction" character varying(16) NOT NULL, "amount" numeric NOT NULL, "price_usd" numeric, "fee_usd" numeric, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "transfer_id" character varying(200), CONSTRAINT "PK_942cc97a993088eb7e761ecdb6a" PRIMARY KEY ("tenant_id", "account_id", "transaction_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_transaction_account_transfer" ON "transaction"  ("tenant_id", "account_id", "transfer_id") WHERE transfer_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_transaction_transfer" ON "transaction"  ("tenant_id", "transfer_id", "account_id") WHERE transfer_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_transaction_account_time" ON "transaction"  ("tenant_id", "account_id", "occurred_at", "transaction_id") `);
    await queryRunner.query(`CREATE TABLE "balance_snapshot" ("account_id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "last_updated_on" TIMESTAMP WITH TIME ZONE NOT NULL, "method" character varying(8) NOT NULL, "market_value_usd" numeric NOT NULL, "realized_gain_usd" numeric NOT NULL, "unrealized_gain_usd" numeric NOT NULL, "reported_balances" jsonb, "issue" jsonb, CONSTRAINT "PK_d1b85b5f243bf838b5b028c201a" PRIMARY KEY ("account_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_balance_snapshot_tenant" ON "balance_snapshot"  ("tenant_id") `);
    await queryRunner.query(`CREATE TABLE "balance_snapshot_asset" ("account_id" uuid NOT NULL, "symbol" character varying(20) COLLATE "C" NOT NULL, "tenant_id" uuid NOT NULL, "quantity" numeric NOT NULL, "cost_basis_usd" numeric NOT NULL, "price_usd" numeric, "market_value_usd" numeric, "realized_gain_usd" numeric NOT NULL, "unrealized_gain_usd" numeric, "needs_review" boolean NOT NULL, CONSTRAINT "PK_e28b35d620c7cde46cfbb487f19" PRIMARY KEY ("account_id", "symbol"))`);
    await queryRunner.query(`ALTER TABLE "account" ADD CONSTRAINT "FK_c7cc4dfd56eae9c297242dcb153" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "transaction" ADD CONSTRAINT "FK_e2652fa8c16723c83a00fb9b17e" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "balance_snapshot" ADD CONSTRAINT "FK_d1b85b5f243bf838b5b028c201a" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "balance_snapshot_asset" ADD CONSTRAINT "FK_74d146a45de5a015324b69eaa9f" FOREIGN KEY ("account_id") REFERENCES "balance_snapshot"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "balance_snapshot_asset" DROP CONSTRAINT "FK_74d146a45de5a015324b69eaa9f"`);
    await queryRunner.query(`ALTER TABLE "balance_snapshot" DROP CONSTRAINT "FK_d1b85b5f243bf838b5b028c201a"`);
    await queryRunner.query(`ALTER TABLE "transaction" DROP CONSTRAINT "FK_e2652fa8c16723c83a00fb9b17e"`);
    await queryRunner.query(`ALTER TABLE "account" DROP CONSTRAINT "FK_c7cc4dfd56eae9c297242dcb153"`);
    await queryRunner.query(`DROP TABLE "balance_snapshot_asset"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_balance_snapshot_tenant"`);
    await queryRunner.query(`DROP TABLE "balance_snapshot"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_transaction_account_time"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_transaction_transfer"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_transaction_account_transfer"`);
    await queryRunner.query(`DROP TABLE "transaction"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_account_tenant_identity"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_account_tenant_collection"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_account_tenant_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_account_tenant_platform"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_account_next_refresh"`);
    await queryRunner.query(`DROP TABLE "account"`);
  }
}
