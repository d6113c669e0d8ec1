/**
 * Service tier: the operator tenant (design §3, issue #13 item 13) on a database seeded before it
 * existed. Such a database has no `tenant.kind` and `sandbox-admin` in tenant `sandbox` with
 * partner and admin; a start puts it right: the pending migration (OperatorTenant), then the
 * sandbox seed's tenants step. That is the start-up's own order (openDatabase's migrate, then the
 * seeder at bootstrap); this spec runs the two on a real database that the migration's `down`
 * took back to the old shape (it was an e2e case with two application starts on one database,
 * test/e2e/contract/operator-migration.cases.ts). What a token and the routes make of the
 * client's tenant and scopes is tested through HTTP in the contract world
 * (operator-tenant.cases.ts: the token's `tid` and `scope`, 403 on partner routes).
 */
import { DataSource } from 'typeorm';
import { OperatorTenant1795500184242 } from '../../migrations/1795500184242-OperatorTenant.js';
import { Clock } from '../../src/common/clock/clock.js';
import { migrate } from '../../src/database/database.module.js';
import { sandboxTenantId, SandboxModule } from '../../src/modules/sandbox/index.js';
import { SandboxSeeder } from '../../src/modules/sandbox/testing.js';
import { ClientsService } from '../../src/modules/tenancy/index.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';
import { SANDBOX, usingPostgres } from '../support/test-database.js';

describe('a database seeded before the operator tenant existed (service tier)', () => {
  let s: ServiceModule;

  beforeAll(async () => {
    // The sandbox's tenants and clients as today's start seeds them (the seeder's one step here).
    s = await startServiceModule({
      imports: [SandboxModule],
      clock: new Clock(),
      prices: new FixedMarketPrices({}),
      env: { SANDBOX: 'true' },
    });
  });
  afterAll(() => s?.close());

  it('moves sandbox-admin from tenant `sandbox` (partner, admin) to `operator` (admin) on start-up', async () => {
    const dataSource = s.get(DataSource);
    const clients = s.get(ClientsService);
    expect(await clients.verifyCredentials(SANDBOX.admin.clientId, SANDBOX.admin.secret)).toMatchObject({
      tenantId: sandboxTenantId('operator'),
      scopes: ['admin'],
    });

    // Back to the old shape: no `kind`, no operator tenant, the admin in `sandbox`.
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
    expect(
      await dataSource.query(
        `SELECT "tenant_id", "scopes" FROM "api_client" WHERE "client_id" = 'sandbox-admin'`,
      ),
    ).toEqual([{ tenant_id: sandboxTenantId('sandbox'), scopes: ['partner', 'admin'] }]);

    // The start: migrations, then the seed.
    await migrate(dataSource, !usingPostgres());
    await s.get(SandboxSeeder).onApplicationBootstrap();

    expect(await dataSource.query(`SELECT "slug", "kind" FROM "tenant" ORDER BY "slug"`)).toEqual([
      { slug: 'operator', kind: 'operator' },
      { slug: 'sandbox', kind: 'partner' },
      { slug: 'sandbox-b', kind: 'partner' },
    ]);
    expect(
      await dataSource.query(
        `SELECT "tenant_id", "scopes" FROM "api_client" WHERE "client_id" = 'sandbox-admin'`,
      ),
    ).toEqual([{ tenant_id: sandboxTenantId('operator'), scopes: ['admin'] }]);
    // What POST /v1/api/token signs into the token's `tid` and `scope`.
    expect(await clients.verifyCredentials(SANDBOX.admin.clientId, SANDBOX.admin.secret)).toMatchObject({
      tenantId: sandboxTenantId('operator'),
      scopes: ['admin'],
    });
  });
});
