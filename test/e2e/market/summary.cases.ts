/**
 * GET /portfolio/summary (e2e): BTC held and USD value from the accounts' balances, platforms, a
 * live sync status rolled up worst first, one account or all, excluded accounts, 400/404/401 and
 * tenant isolation.
 */
import { Decimal as GlobalDecimal } from 'decimal.js';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { formatAmountWithUnit, formatUsd } from '../../../src/domain/money/format.js';
import { RefreshStateRepository as AccountsRepository } from '../../../src/modules/sources/testing.js';
import { BalanceSnapshotsRepository } from '../../../src/modules/ledger/testing.js';
import { SANDBOX_ACCOUNT_FIXTURES } from '../../../src/modules/sources/index.js';
import { sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { bearer, sandboxAccount } from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const Decimal = GlobalDecimal.clone({ precision: 1_000 });
const START = new Date('2026-03-15T12:00:00.000Z');

describe('GET /portfolio/summary (e2e)', () => {
  let t: TestApp;
  let partner: string;
  let partnerB: string;
  const tenantId = sandboxTenantId('sandbox');

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
    [partner, partnerB] = await Promise.all([
      t.token(),
      t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
    ]);
  });
  afterAll(() => t.close());

  const summary = (query = '', token = partner) =>
    t.http.get(`/portfolio/summary${query}`).set(bearer(token));

  it('sums the balances of every account whose balances exist, and rolls the sync status up worst first', async () => {
    const res = await summary().expect(200);
    const ids = SANDBOX_ACCOUNT_FIXTURES.map((f) => sandboxAccount('sandbox', f.key).accountId);
    const snapshots = [
      ...(await t.app.get(BalanceSnapshotsRepository).findMany(tenantId, ids)).values(),
    ].filter((s) => !s.issue);
    const btc = snapshots
      .flatMap((s) => s.assets)
      .filter((a) => a.symbol === 'BTC')
      .reduce((sum, a) => sum.plus(a.quantity), new Decimal(0));
    const usd = snapshots.reduce((sum, s) => sum.plus(s.marketValueUsd), new Decimal(0));
    expect(res.body).toMatchObject({
      btc_balance: formatAmountWithUnit(btc, 'BTC'),
      usd_value: formatUsd(usd),
      exchanges: [...new Set(SANDBOX_ACCOUNT_FIXTURES.map((f) => f.platform))].sort(),
      sync_status: 'reconnect_required',
      accounts: SANDBOX_ACCOUNT_FIXTURES.length,
      unpriced_assets: [],
      cache_age_seconds: 0,
    });
    expect(res.body.btc_balance).toMatch(/^\d+\.\d{8} BTC$/);
    expect(res.body.usd_value).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    const excluded = Object.fromEntries(
      res.body.excluded_accounts.map((e: { account_id: string; reason: string }) => [e.account_id, e.reason]),
    );
    expect(excluded).toEqual({
      [sandboxAccount('sandbox', 'kraken-legacy').accountId]: 'inconsistent_history',
      [sandboxAccount('sandbox', 'binanceus-new').accountId]: 'no_balances_yet',
      [sandboxAccount('sandbox', 'btc-watch-wallet').accountId]: 'no_balances_yet',
      [sandboxAccount('sandbox', 'bitstamp-expired').accountId]: 'no_balances_yet',
    });
    expect(res.body.last_updated_on).toBe(START.toISOString());
  });

  it('restricts to one account: its BTC balance and market value as the balances endpoint gives them', async () => {
    const joint = sandboxAccount('sandbox', 'coinbase-joint');
    const res = await summary(`?account_id=${joint.accountId.toUpperCase()}`).expect(200);
    const balances = await t.http
      .get(`/v1/api/account/${joint.accountId}/balances`)
      .set(bearer(partner))
      .expect(200);
    const btc = balances.body.result.balances.find((b: { symbol: string }) => b.symbol === 'BTC');
    expect(res.body).toMatchObject({
      btc_balance: formatAmountWithUnit(btc.balance, 'BTC'),
      usd_value: formatUsd(balances.body.result.marketValue),
      exchanges: ['coinbase'],
      sync_status: 'synced',
      accounts: 1,
      excluded_accounts: [],
    });
  });

  it('an account without balances counts for platforms and status only', async () => {
    const res = await summary(`?account_id=${sandboxAccount('sandbox', 'binanceus-new').accountId}`).expect(
      200,
    );
    expect(res.body).toMatchObject({
      btc_balance: '0.00000000 BTC',
      usd_value: '$0.00',
      exchanges: ['binanceus'],
      sync_status: 'syncing',
      last_updated_on: null,
      cache_age_seconds: null,
    });
  });

  it('reads the sync status live, not from a cache', async () => {
    const joint = sandboxAccount('sandbox', 'coinbase-joint');
    const accounts = t.app.get(AccountsRepository);
    await accounts.updateState(tenantId, joint.accountId, { syncStatus: 'error' });
    try {
      expect((await summary(`?account_id=${joint.accountId}`).expect(200)).body.sync_status).toBe('error');
    } finally {
      await accounts.updateState(tenantId, joint.accountId, { syncStatus: 'synced' });
    }
    expect((await summary(`?account_id=${joint.accountId}`).expect(200)).body.sync_status).toBe('synced');
  });

  it('keeps tenants apart', async () => {
    const a = await summary().expect(200);
    const b = await summary('', partnerB).expect(200);
    expect(b.body.accounts).toBe(SANDBOX_ACCOUNT_FIXTURES.length);
    expect(b.body.usd_value).not.toBe(a.body.usd_value);
  });

  describe('errors', () => {
    it('400 for a malformed account_id or an unknown parameter', async () => {
      const res = await summary('?account_id=123').expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.errors).toEqual({ account_id: ['account_id must be a UUID.'] });
      expect((await summary('?accountId=x').expect(400)).body.errors).toHaveProperty('accountId');
    });

    it('404 alike for an unknown account and another tenant’s', async () => {
      const unknown = await summary('?account_id=00000000-0000-4000-8000-000000000000').expect(404);
      const foreign = await summary(
        `?account_id=${sandboxAccount('sandbox-b', 'coinbase-joint').accountId}`,
      ).expect(404);
      expect(foreign.body.detail).toBe(unknown.body.detail);
      expect(foreign.body.title).toBe(unknown.body.title);
    });

    it('401 without a bearer token', async () => {
      await t.http.get('/portfolio/summary').expect(401);
    });
  });
});
