import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Portfolios1795262572617 implements MigrationInterface {
  name = 'Portfolios1795262572617';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "portfolio" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6936bb92ca4b7cda0ff28794e48" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_17ddf2fbc550a11696ac3b4f33" ON "portfolio"  ("tenant_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "portfolio_allocation" ("portfolio_id" uuid NOT NULL, "symbol" character varying(20) NOT NULL, "percentage" numeric(11,8) NOT NULL, CONSTRAINT "PK_9a11eb6a7fb58f7a60b6fe86a3a" PRIMARY KEY ("portfolio_id", "symbol"))`);
    await queryRunner.query(`ALTER TABLE "portfolio" ADD CONSTRAINT "FK_f08aadd72cc7ec9716bc9165937" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "portfolio_allocation" ADD CONSTRAINT "FK_c1c27bb767273873c9d60d928df" FOREIGN KEY ("portfolio_id") REFERENCES "portfolio"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "portfolio_allocation" DROP CONSTRAINT "FK_c1c27bb767273873c9d60d928df"`);
    await queryRunner.query(`ALTER TABLE "portfolio" DROP CONSTRAINT "FK_f08aadd72cc7ec9716bc9165937"`);
    await queryRunner.query(`DROP TABLE "portfolio_allocation"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_17ddf2fbc550a11696ac3b4f33"`);
    await queryRunner.query(`DROP TABLE "portfolio"`);
  }
}
