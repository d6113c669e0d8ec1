import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialTenancy1795261121274 implements MigrationInterface {
  name = 'InitialTenancy1795261121274';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "tenant" ("id" uuid NOT NULL, "slug" character varying(64) NOT NULL, "name" character varying(200) NOT NULL, "is_sandbox" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_abfd243f7bd832e806d19c5a919" UNIQUE ("slug"), CONSTRAINT "PK_da8c6efd67bb301e810e56ac139" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "api_client" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "client_id" character varying(128) NOT NULL, "secret_hash" text NOT NULL, "scopes" text array NOT NULL, "disabled" boolean NOT NULL DEFAULT false, "last_used_at" TIMESTAMP WITH TIME ZONE, "secret_rotated_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_a0ad7eb2aef50308b512c483ad5" UNIQUE ("client_id"), CONSTRAINT "PK_82a5ec6981d2be903a9eb1d9b9a" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_e3e40b5c15074f91a39ec2f970" ON "api_client"  ("tenant_id") `);
    await queryRunner.query(`CREATE TABLE "signing_key" ("kid" character varying(64) NOT NULL, "private_key_pem" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_00d7e305393ab903d6eb06c11f9" PRIMARY KEY ("kid"))`);
    await queryRunner.query(`CREATE TABLE "instance_secret" ("name" character varying(64) NOT NULL, "value" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e1da09bd14e6c83b59ab8a261bb" PRIMARY KEY ("name"))`);
    await queryRunner.query(`ALTER TABLE "api_client" ADD CONSTRAINT "FK_e3e40b5c15074f91a39ec2f9706" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_client" DROP CONSTRAINT "FK_e3e40b5c15074f91a39ec2f9706"`);
    await queryRunner.query(`DROP TABLE "instance_secret"`);
    await queryRunner.query(`DROP TABLE "signing_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e3e40b5c15074f91a39ec2f970"`);
    await queryRunner.query(`DROP TABLE "api_client"`);
    await queryRunner.query(`DROP TABLE "tenant"`);
  }
}
