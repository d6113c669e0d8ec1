import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 item 4: daily USD prices of the tokens chain accounts bring (by contract or mint),
 * fetched on demand from the market provider, and what the provider said of each token (priced or
 * unpriceable), so an unknown token is asked once a week, not on every refresh.
 */
export class ChainTokenPrices1796700000000 implements MigrationInterface {
  name = 'ChainTokenPrices1796700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "chain_token" ("symbol" character varying(20) NOT NULL, "platform" character varying(40) NOT NULL, "contract" character varying(64) NOT NULL, "coingecko_id" character varying(100), "status" character varying(12) NOT NULL, "priced_from" date, "priced_to" date, "checked_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_chain_token" PRIMARY KEY ("symbol"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "chain_token_price" ("symbol" character varying(20) NOT NULL, "date" date NOT NULL, "price_usd" numeric NOT NULL, CONSTRAINT "PK_chain_token_price" PRIMARY KEY ("symbol", "date"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "chain_token_price"`);
    await queryRunner.query(`DROP TABLE "chain_token"`);
  }
}
