/**
 * Rotating a client's secret revokes the tokens issued with the old one (issue 13, item 10), on
 * the full route and on the cached balances fast path, within the few seconds disabling a client
 * takes (the "client is enabled" memo, 5 s). A token issued after the rotation works at once, in
 * the same second included: tokens carry the secret generation they were issued under (`sgen`).
 */
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { AppConfig } from '../../../src/config/app-config.js';
import { ClientsService, TenancyRepository } from '../../../src/modules/tenancy/index.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

/** How long another instance (or the CLI) may take to see a rotation: the memo's 5 s and a margin. */
const PROPAGATION_MS = 6_000;

describe('secret rotation revokes earlier tokens (e2e)', () => {
  let t: TestApp;
  let clients: ClientsService;
  const balances = `/v1/api/account/${sandboxId('account:sandbox:kraken-trading')}/balances`;

  beforeAll(async () => {
    t = await startSuite({ RATE_LIMIT_PER_MINUTE: '100000', BEARER_FAILURES_PER_MINUTE: '100000' });
    clients = t.app.get(ClientsService);
  });
  afterAll(() => t.close());

  const secrets = new Map<string, string>();
  const get = (path: string, token: string) => t.http.get(path).set('Authorization', `Bearer ${token}`);

  /** A partner client of the sandbox tenant with a token already used on both paths (memos warm). */
  async function clientWithWarmToken() {
    const issued = await clients.createClient('sandbox', ['partner']);
    secrets.set(issued.clientId, issued.clientSecret);
    const token = await t.token(issued.clientId, issued.clientSecret);
    await get('/api/status', token).expect(200);
    await get(balances, token).expect(200);
    await get(balances, token).expect(200); // read cache warm: the fast path answers from here on
    return { clientId: issued.clientId, token };
  }

  it('on this instance: the old token is 401 at once, on the fast path too; a new one is 200', async () => {
    const { clientId, token } = await clientWithWarmToken();
    const rotated = await clients.rotateSecret(clientId);
    const fresh = await t.token(clientId, rotated.clientSecret); // same second as the rotation, most likely
    await get(balances, token).expect(401);
    await get('/api/status', token).expect(401);
    await get(balances, fresh).expect(200);
    await get('/api/status', fresh).expect(200);
  });

  it('from another process (CLI, another instance): the old token is 401 within the propagation window', async () => {
    const { clientId, token } = await clientWithWarmToken();
    // A ClientsService of its own, as the CLI process has: this instance's memos are not told.
    const elsewhere = new ClientsService(t.app.get(TenancyRepository), t.app.get(AppConfig));
    const rotatedAt = Date.now();
    const rotated = await elsewhere.rotateSecret(clientId);
    const fresh = await t.token(clientId, rotated.clientSecret);
    await get(balances, fresh).expect(200);
    let revokedAfterMs: number | undefined;
    while (Date.now() - rotatedAt < PROPAGATION_MS + 2_000) {
      const fast = await get(balances, token);
      if (fast.status === 401) {
        revokedAfterMs = Date.now() - rotatedAt;
        break;
      }
      expect(fast.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(revokedAfterMs).toBeDefined();
    expect(revokedAfterMs!).toBeLessThanOrEqual(PROPAGATION_MS);
    await get('/api/status', token).expect(401);
    await get(balances, fresh).expect(200);
  }, 20_000);

  it('a token issued before a rotation and never used is 401 on first use', async () => {
    const issued = await clients.createClient('sandbox', ['partner']);
    const token = await t.token(issued.clientId, issued.clientSecret);
    await clients.rotateSecret(issued.clientId);
    const res = await get('/api/status', token).expect(401);
    expect(res.body.detail).toBe('Bearer token missing or invalid.');
  });

  it('disable then enable: a token issued before the disable stays 401, a new one is 200 (issue 27 item 15)', async () => {
    const { clientId, token } = await clientWithWarmToken();
    const admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    const asAdmin = (path: string) => t.http.post(path).set('Authorization', `Bearer ${admin}`);
    await asAdmin(`/admin/clients/${clientId}/disable?tenant=sandbox`).expect(200);
    await get('/api/status', token).expect(401);
    const enabled = await asAdmin(`/admin/clients/${clientId}/enable?tenant=sandbox`).expect(200);
    expect(enabled.body).toMatchObject({ clientId, disabled: false });
    // Disabled after a leak: the leaked token must not come back with the client.
    await get('/api/status', token).expect(401);
    await get(balances, token).expect(401);
    const fresh = await t.token(clientId, secrets.get(clientId));
    await get('/api/status', fresh).expect(200);
    await get(balances, fresh).expect(200);
  });
});
