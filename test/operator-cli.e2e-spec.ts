/**
 * The tenancy CLI and the operator tenant (issue #13 item 13), run as a real process against its
 * own database: the admin scope only for a client of an operator tenant, no accounts in one.
 */
import { databaseEnv, DIST_CLI, run } from './support/process.js';

describe('operator tenant CLI (e2e)', () => {
  let db: Awaited<ReturnType<typeof databaseEnv>>;
  beforeAll(async () => {
    db = await databaseEnv();
  });
  afterAll(() => db.cleanup());

  const cli = (...args: string[]) =>
    run(DIST_CLI, args, { ...db.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', SANDBOX: 'false' });

  it('gives the admin scope only to clients of an operator tenant, and links no account to one', async () => {
    const partner = await cli('tenant', 'create', 'firm-a', '--name', 'Firm A');
    expect(partner.code).toBe(0);
    expect(JSON.parse(partner.stdout)).toMatchObject({ slug: 'firm-a', kind: 'partner' });
    const operator = await cli('tenant', 'create', 'ops', '--name', 'Operations', '--operator');
    expect(operator.code).toBe(0);
    expect(JSON.parse(operator.stdout)).toMatchObject({ slug: 'ops', kind: 'operator' });

    const refused = await cli('client', 'create', '--tenant', 'firm-a', '--scopes', 'partner,admin');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'The admin scope is only for clients of an operator tenant; "firm-a" is a partner tenant (create one with: tenant create <slug> --operator).',
    );

    const admin = await cli('client', 'create', '--tenant', 'ops', '--client-id', 'ops-admin');
    expect(admin.code).toBe(0);
    expect(JSON.parse(admin.stdout)).toMatchObject({ clientId: 'ops-admin', scopes: ['admin'] });
    const firmClient = await cli('client', 'create', '--tenant', 'firm-a', '--client-id', 'firm-a-app');
    expect(JSON.parse(firmClient.stdout)).toMatchObject({ clientId: 'firm-a-app', scopes: ['partner'] });

    const account = await cli(
      'accounts',
      'create',
      '--tenant',
      'ops',
      '--platform',
      'coinbase',
      '--identity',
      'ops-1',
      '--source',
      'csv',
    );
    expect(account.code).toBe(1);
    expect(account.stderr).toContain('Tenant "ops" is an operator tenant; it holds no partner data.');

    const tenants = (await cli('tenant', 'list')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { slug: string; kind: string });
    expect(tenants.map(({ slug, kind }) => ({ slug, kind }))).toEqual([
      { slug: 'firm-a', kind: 'partner' },
      { slug: 'ops', kind: 'operator' },
    ]);
  }, 120_000);
});
