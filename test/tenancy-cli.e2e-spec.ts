/**
 * The tenant and client commands as a thin client of the admin services (issue 17 item 4): a
 * table for people (--table, or a terminal), JSON lines for scripts (--json, or a pipe), the new
 * list and get commands, and `--tenant` on a command for one client, as the admin API's `?tenant=`.
 */
import { databaseEnv, DIST_CLI, run } from './support/process.js';

describe('tenant and client CLI output (e2e)', () => {
  let db: Awaited<ReturnType<typeof databaseEnv>>;
  beforeAll(async () => {
    db = await databaseEnv();
  });
  afterAll(() => db.cleanup());

  const cli = (...args: string[]) =>
    run(DIST_CLI, args, { ...db.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', SANDBOX: 'false' });

  it('prints tables with --table, JSON lines with --json, and never a secret in a list', async () => {
    const tenant = await cli('tenant', 'create', 'table-firm', '--name', 'Table Firm', '--table');
    expect(tenant.code).toBe(0);
    const [header, row, ...rest] = tenant.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^SLUG +NAME +KIND +SANDBOX +TENANTID +CREATED$/);
    expect(row).toMatch(/^table-firm +Table Firm +partner +false +[0-9a-f-]{36} +\d{4}-\d\d-\d\dT/);
    expect(rest).toEqual([]);

    const created = await cli(
      'client',
      'create',
      '--tenant',
      'table-firm',
      '--client-id',
      'table-app',
      '--json',
    );
    expect(created.code).toBe(0);
    const issued = JSON.parse(created.stdout);
    expect(issued).toMatchObject({ clientId: 'table-app', scopes: ['partner'] });
    expect(created.stderr).toContain('Store the clientSecret now: it is not shown again.');

    const listed = await cli('client', 'list', '--tenant', 'table-firm', '--table');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CLIENTID +TENANT +SCOPES +DISABLED +LASTUSED +ROTATED +CREATED$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^table-app +table-firm +partner +false +- +- +\d{4}-/),
    ]);
    expect(listed.stdout).not.toContain(issued.clientSecret);

    const wrongTenant = await cli('client', 'rotate', 'table-app', '--tenant', 'no-such-firm');
    expect(wrongTenant.code).toBe(1);
    expect(wrongTenant.stdout).toBe('');
    expect(wrongTenant.stderr.trim()).toBe('tenant: Tenant "no-such-firm" does not exist.');
    // Four CLI processes, each starting Nest and the database.
  }, 180_000);
});
