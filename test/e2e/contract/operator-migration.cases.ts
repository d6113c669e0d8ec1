/**
 * The operator tenant (design §3, issue #13 item 13), from test/operator-tenant.e2e-spec.ts: a
 * database seeded before operator tenants existed (sandbox-admin in tenant `sandbox` with partner
 * and admin) is put right on start-up. Two applications of its own, one after the other, on a
 * database on disk (a schema of its own on PostgreSQL): the second starts on what the first left.
 *
 * After the file's app is done with (test/e2e/contract.e2e-spec.ts imports it last):
 * @nestjs/passport registers each application's bearer strategy on passport's one global
 * instance, so once another application has started, the file's app no longer verifies its own
 * tokens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { OperatorTenant1795500184242 } from '../../../migrations/1795500184242-OperatorTenant.js';
import { sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { bearer } from '../../factories/accounts.factory.js';
import { createTestSchema, SANDBOX, startTestApp, usingPostgres } from '../../support/test-app.js';

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

const OPERATOR_TENANT_ID = sandboxTenantId('operator');

describe('a database seeded before the operator tenant existed (e2e)', () => {
  it('moves sandbox-admin from tenant `sandbox` (partner, admin) to `operator` (admin) on start-up', async () => {
    const schema = usingPostgres() ? await createTestSchema() : undefined;
    const dir = schema ? undefined : mkdtempSync(join(tmpdir(), 'operator-migration-'));
    const overrides: Record<string, string> = dir ? { DATA_DIR: join(dir, 'data') } : {};
    try {
      // Today's database, then rolled back to the old shape: no `kind`, the admin in `sandbox`.
      const first = await startTestApp(overrides, { schema: schema?.schema });
      const dataSource = first.app.get(DataSource);
      const runner = dataSource.createQueryRunner();
      try {
        await new OperatorTenant1795500184242().down(runner);
        await runner.query(`DELETE FROM "migrations" WHERE "name" = $1`, ['OperatorTenant1795500184242']);
        await runner.query(
          `UPDATE "api_client" SET "tenant_id" = $1, "scopes" = '{partner,admin}' WHERE "client_id" = 'sandbox-admin'`,
          [sandboxTenantId('sandbox')],
        );
        await runner.query(`DELETE FROM "tenant" WHERE "slug" = 'operator'`);
      } finally {
        await runner.release();
      }
      await first.close();

      const second = await startTestApp(overrides, { schema: schema?.schema });
      try {
        const kinds = await second.app
          .get(DataSource)
          .query(`SELECT "slug", "kind" FROM "tenant" ORDER BY "slug"`);
        expect(kinds).toEqual([
          { slug: 'operator', kind: 'operator' },
          { slug: 'sandbox', kind: 'partner' },
          { slug: 'sandbox-b', kind: 'partner' },
        ]);
        const admin = await second.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
        expect(claimsOf(admin)).toMatchObject({ tid: OPERATOR_TENANT_ID, scope: 'admin' });
        await second.http.get('/v1/api/accounts').set(bearer(admin)).expect(403);
        await second.http
          .get('/admin/accounts?tenant=operator')
          .set(bearer(admin))
          .expect(200, {
            accounts: [],
            nextCursor: null,
            counts: { syncing: 0, synced: 0, reconnect_required: 0, error: 0 },
            needsReview: 0,
          });
      } finally {
        await second.close();
      }
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
      await schema?.drop();
    }
  }, 120_000);
});
