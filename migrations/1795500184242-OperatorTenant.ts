import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OperatorTenant1795500184242 implements MigrationInterface {
  name = 'OperatorTenant1795500184242';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tenant" ADD "kind" character varying(16) NOT NULL DEFAULT 'partner'`);
    await queryRunner.query(`ALTER TABLE "tenant" ADD CONSTRAINT "CHK_tenant_kind" CHECK ("kind" IN ('partner', 'operator'))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tenant" DROP CONSTRAINT "CHK_tenant_kind"`);
    await queryRunner.query(`ALTER TABLE "tenant" DROP COLUMN "kind"`);
  }
}
