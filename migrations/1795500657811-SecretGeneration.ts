import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tokens carry the secret generation they were issued under (claim `sgen`); rotating a secret
 * increments it, which revokes every earlier token (issue 13, item 10). Tokens issued before this
 * migration carry no claim and count as generation 0, so clients whose secret was already rotated
 * start at 1: their older tokens stop working (at worst a token issued after that rotation must be
 * fetched again once).
 */
export class SecretGeneration1795500657811 implements MigrationInterface {
  name = 'SecretGeneration1795500657811';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_client" ADD "secret_generation" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`UPDATE "api_client" SET "secret_generation" = 1 WHERE "secret_rotated_at" IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_client" DROP COLUMN "secret_generation"`);
  }
}
