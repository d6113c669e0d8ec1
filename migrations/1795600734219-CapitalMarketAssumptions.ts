import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenant capital-market assumptions (issue 20, design §9): per tenant and asset, the expected
 * compound annual return (and optionally the volatility) its projections use instead of the
 * shrunk historical default. Removed with the tenant.
 */
export class CapitalMarketAssumptions1795600734219 implements MigrationInterface {
  name = 'CapitalMarketAssumptions1795600734219';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "capital_market_assumption" ("tenant_id" uuid NOT NULL, "symbol" character varying(20) NOT NULL, "expected_return" numeric(12,8) NOT NULL, "volatility" numeric(12,8), "note" character varying(500), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a8370450735c515e921d27cad92" PRIMARY KEY ("tenant_id", "symbol"))`);
    await queryRunner.query(`ALTER TABLE "capital_market_assumption" ADD CONSTRAINT "FK_9d25780c5ea3b3bb348122caf26" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "capital_market_assumption" DROP CONSTRAINT "FK_9d25780c5ea3b3bb348122caf26"`);
    await queryRunner.query(`DROP TABLE "capital_market_assumption"`);
  }
}
