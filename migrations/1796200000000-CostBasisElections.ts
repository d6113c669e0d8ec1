import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 19 item 1, method elections (docs/cost-basis.md, "Method elections"): the lot-selection
 * method a tenant (account_id NULL) or one of its accounts elected, from a date on. Append-only:
 * a change is a new row, so the history of elections is kept; raw SQL of the ledger module.
 */
export class CostBasisElections1796200000000 implements MigrationInterface {
  name = 'CostBasisElections1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "cost_basis_election" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "account_id" uuid, "method" character varying(8) NOT NULL, "effective_from" date NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, "recorded_by" character varying(200) NOT NULL, CONSTRAINT "PK_cost_basis_election" PRIMARY KEY ("id"), CONSTRAINT "CHK_cost_basis_election_method" CHECK ("method" IN ('fifo', 'hifo', 'lifo')), CONSTRAINT "FK_cost_basis_election_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE, CONSTRAINT "FK_cost_basis_election_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE INDEX "idx_cost_basis_election_tenant" ON "cost_basis_election" ("tenant_id", "recorded_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "cost_basis_election"`);
  }
}
