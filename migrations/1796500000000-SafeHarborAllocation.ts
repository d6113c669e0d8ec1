import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 19 items 6 and 2 (docs/cost-basis.md, "Universal to per-wallet" and "Standing orders"):
 * the confirmed safe-harbor allocation of a tenant's universal pool to its accounts on
 * 2025-01-01 (one per tenant: a header row and its lots, decimals as exact text), and the
 * methods `lofo` and `ltfo` allowed in elections. Raw SQL of the ledger module.
 */
export class SafeHarborAllocation1796500000000 implements MigrationInterface {
  name = 'SafeHarborAllocation1796500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cost_basis_election" DROP CONSTRAINT "CHK_cost_basis_election_method"`);
    await queryRunner.query(`ALTER TABLE "cost_basis_election" ADD CONSTRAINT "CHK_cost_basis_election_method" CHECK ("method" IN ('fifo', 'hifo', 'lifo', 'lofo', 'ltfo'))`);
    await queryRunner.query(`CREATE TABLE "safe_harbor_allocation" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "transition_at" TIMESTAMP WITH TIME ZONE NOT NULL, "universal_method" character varying(8) NOT NULL, "first_disposal_at" TIMESTAMP WITH TIME ZONE, "confirmed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "confirmed_by" character varying(200) NOT NULL, CONSTRAINT "PK_safe_harbor_allocation" PRIMARY KEY ("id"), CONSTRAINT "UQ_safe_harbor_allocation_tenant" UNIQUE ("tenant_id"), CONSTRAINT "FK_safe_harbor_allocation_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE TABLE "safe_harbor_allocation_lot" ("allocation_id" uuid NOT NULL, "position" integer NOT NULL, "tenant_id" uuid NOT NULL, "account_id" uuid NOT NULL, "symbol" character varying(32) NOT NULL, "quantity" text NOT NULL, "cost_basis_usd" text NOT NULL, "acquired_at" TIMESTAMP WITH TIME ZONE NOT NULL, "basis_known" boolean NOT NULL, "origin_transaction_id" character varying(200) NOT NULL, CONSTRAINT "PK_safe_harbor_allocation_lot" PRIMARY KEY ("allocation_id", "position"), CONSTRAINT "FK_safe_harbor_allocation_lot_allocation" FOREIGN KEY ("allocation_id") REFERENCES "safe_harbor_allocation"("id") ON DELETE CASCADE, CONSTRAINT "FK_safe_harbor_allocation_lot_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE INDEX "IDX_safe_harbor_allocation_lot_tenant" ON "safe_harbor_allocation_lot" ("tenant_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "safe_harbor_allocation_lot"`);
    await queryRunner.query(`DROP TABLE "safe_harbor_allocation"`);
    await queryRunner.query(`DELETE FROM "cost_basis_election" WHERE "method" IN ('lofo', 'ltfo')`);
    await queryRunner.query(`ALTER TABLE "cost_basis_election" DROP CONSTRAINT "CHK_cost_basis_election_method"`);
    await queryRunner.query(`ALTER TABLE "cost_basis_election" ADD CONSTRAINT "CHK_cost_basis_election_method" CHECK ("method" IN ('fifo', 'hifo', 'lifo'))`);
  }
}
