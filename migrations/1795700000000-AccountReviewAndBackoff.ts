import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15, reconciliation and per-source scheduling: an account whose source-reported balances
 * disagree with its transactions beyond dust is marked for review (the reason names the assets
 * and amounts; `review_since` is when the disagreement was first seen), and the refresh engine
 * counts consecutive failed refreshes to back off exponentially (reset by a successful one).
 */
export class AccountReviewAndBackoff1795700000000 implements MigrationInterface {
  name = 'AccountReviewAndBackoff1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "account" ADD "review_reason" character varying(1000)`);
    await queryRunner.query(`ALTER TABLE "account" ADD "review_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "account" ADD "refresh_failures" integer NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "account" DROP COLUMN "refresh_failures"`);
    await queryRunner.query(`ALTER TABLE "account" DROP COLUMN "review_since"`);
    await queryRunner.query(`ALTER TABLE "account" DROP COLUMN "review_reason"`);
  }
}
