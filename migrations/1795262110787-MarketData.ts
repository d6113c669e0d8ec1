import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MarketData1795262110787 implements MigrationInterface {
  name = 'MarketData1795262110787';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "asset" ("id" integer NOT NULL, "coingecko_id" character varying(100) NOT NULL, "symbol" character varying(20) NOT NULL, "name" character varying(200) NOT NULL, "circulating_supply" numeric, "total_supply" numeric, "max_supply" numeric, "developer_data" jsonb, "community_data" jsonb, "score_inputs_source" character varying(20) NOT NULL DEFAULT 'none', "score_inputs_as_of" TIMESTAMP WITH TIME ZONE, "source" character varying(20) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_91a1acbd8e6a53fae7d2cb4a470" UNIQUE ("coingecko_id"), CONSTRAINT "PK_1209d107fe21482beaea51b745e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_45b83954906fc214e750ba5328" ON "asset"  ("symbol") `);
    await queryRunner.query(`CREATE TABLE "market_refresh_job" ("name" character varying(64) NOT NULL, "owner" character varying(128), "lease_until" TIMESTAMP WITH TIME ZONE, "last_started_at" TIMESTAMP WITH TIME ZONE, "last_succeeded_at" TIMESTAMP WITH TIME ZONE, "last_failed_at" TIMESTAMP WITH TIME ZONE, "last_error" text, CONSTRAINT "PK_ca495a521b62441cbc1d7d23af9" PRIMARY KEY ("name"))`);
    await queryRunner.query(`CREATE TABLE "market_snapshot" ("asset_id" integer NOT NULL, "price_usd" numeric NOT NULL, "market_cap_usd" numeric, "volume24h_usd" numeric, "market_cap_rank" integer, "provider_updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "as_of" TIMESTAMP WITH TIME ZONE NOT NULL, "source" character varying(20) NOT NULL, CONSTRAINT "PK_0493c2b07f1721955b634e5e7b0" PRIMARY KEY ("asset_id"))`);
    await queryRunner.query(`CREATE TABLE "price_history" ("asset_id" integer NOT NULL, "date" date NOT NULL, "price_usd" numeric NOT NULL, "market_cap_usd" numeric, "volume_usd" numeric, CONSTRAINT "PK_1cdd43714282aa3cd44dd98bc5d" PRIMARY KEY ("asset_id", "date"))`);
    await queryRunner.query(`ALTER TABLE "market_snapshot" ADD CONSTRAINT "FK_0493c2b07f1721955b634e5e7b0" FOREIGN KEY ("asset_id") REFERENCES "asset"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "market_snapshot" DROP CONSTRAINT "FK_0493c2b07f1721955b634e5e7b0"`);
    await queryRunner.query(`DROP TABLE "price_history"`);
    await queryRunner.query(`DROP TABLE "market_snapshot"`);
    await queryRunner.query(`DROP TABLE "market_refresh_job"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_45b83954906fc214e750ba5328"`);
    await queryRunner.query(`DROP TABLE "asset"`);
  }
}
