import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 19 item 2, specific identification (docs/cost-basis.md, "Specific identification"): the
 * lots an advisor chose for one disposal of one account, as an ordered JSON list of
 * {lot_id, quantity} (quantities as decimal text). At most one per disposal; raw SQL of the ledger module.
 */
export class LotSelections1796300000000 implements MigrationInterface {
  name = 'LotSelections1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "lot_selection" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "account_id" uuid NOT NULL, "transaction_id" character varying(200) NOT NULL, "lots" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, "recorded_by" character varying(200) NOT NULL, CONSTRAINT "PK_lot_selection" PRIMARY KEY ("id"), CONSTRAINT "UQ_lot_selection_disposal" UNIQUE ("tenant_id", "account_id", "transaction_id"), CONSTRAINT "FK_lot_selection_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE, CONSTRAINT "FK_lot_selection_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "lot_selection"`);
  }
}
