import { ManualClock } from '../../../src/common/clock/clock.js';
import { sandboxId } from '../../../src/modules/sandbox/index.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

describe('balances read cache (e2e)', () => {
  // The instant the file's app seeded the sandbox at (test/e2e/accounts.e2e-spec.ts).
  const clock = new ManualClock(new Date('2026-03-15T12:00:00.000Z'));
  let t: TestApp;
  let token: string;
  const accountId = sandboxId('account:sandbox:kraken-trading');
  beforeAll(async () => {
    t = await startSuite({}, { clock });
    token = await t.token();
  });
  afterAll(() => t.close());

  const balances = (query = '') =>
    t.http
      .get(`/v1/api/account/${accountId}/balances${query}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);

  it('serves a refresh made on this instance to the very next read', async () => {
    const before = (await balances()).body.result;
    clock.advanceMs(31 * 60_000);
    const forced = await balances('?forceRefresh=true');
    expect(forced.body.result.refreshed).toBe(true);
    const after = (await balances()).body.result;
    expect(after.lastUpdatedOn).toBe(forced.body.result.lastUpdatedOn);
    expect(after.lastUpdatedOn).not.toBe(before.lastUpdatedOn);
    expect(after.cacheAgeSeconds).toBe(0);
  });

  it('never serves one tenant’s cached balances to another', async () => {
    await balances();
    const other = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    await t.http
      .get(`/v1/api/account/${accountId}/balances`)
      .set('Authorization', `Bearer ${other}`)
      .expect(404);
  });
});
