import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 27 item 13: an import that holds an account's refresh lease says so (what it imports), so
 * an import that never finished (its process was killed) is found when its lease is taken over,
 * and the account says `error` with the reason instead of waiting for a lease to lapse and then
 * being marked `synced` without data. The partial index serves the scheduler's sweep for them.
 */
export class RefreshLeaseImport1796630000000 implements MigrationInterface {
  name = 'RefreshLeaseImport1796630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "account" ADD "refresh_lease_import" character varying(200)`);
    await queryRunner.query(
      `CREATE INDEX "IDX_account_lease_import" ON "account" ("refresh_lease_until") WHERE refresh_lease_import IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_account_lease_import"`);
    await queryRunner.query(`ALTER TABLE "account" DROP COLUMN "refresh_lease_import"`);
  }
}
