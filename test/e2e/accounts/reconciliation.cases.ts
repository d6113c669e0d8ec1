/**
 * Reconciliation through HTTP (docs/sources.md, "Reconciliation"): a partner's balances carry,
 * per asset, the source-reported quantity, the calculated one and the exact difference; a
 * difference beyond dust sets `review` on the balances and on the admin account, the admin list
 * filters and counts such accounts, and a refresh that agrees clears it. The cached-balances fast
 * path answers the same body. The sandbox's `coinbase-joint` exchange reports a labelled synthetic
 * drift of 0.0005 BTC.
 */
import { ManualClock } from '../../../src/common/clock/clock.js';
import {
  bearer,
  createAccount,
  registerConnector,
  sandboxAccount,
  ScriptedConnector,
  sourceTx,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const HOUR = 3_600_000;

/** 0.75 + 0.5 = 1.25 BTC held. */
const HISTORY = [
  sourceTx({ transactionId: 'r1', amount: '0.75', priceUsd: '40000', at: '2025-01-02T00:00:00Z' }),
  sourceTx({ transactionId: 'r2', amount: '0.5', priceUsd: '50000', at: '2025-02-02T00:00:00Z' }),
];

describe('reconciliation (e2e)', () => {
  let t: TestApp;
  let clock: ManualClock;
  let partner: string;
  let admin: string;

  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startSuite({}, { clock });
    [partner, admin] = await Promise.all([t.token(), t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret)]);
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http.get(path).set(bearer(partner));
  const adminRefresh = (accountId: string) =>
    t.http.post(`/admin/accounts/${accountId}/refresh?tenant=sandbox`).set(bearer(admin)).expect(200);
  const adminList = (query: string) =>
    t.http.get(`/admin/accounts?tenant=sandbox&limit=200${query}`).set(bearer(admin)).expect(200);

  it('carries reported, calculated and difference per asset, and sets, lists and clears the review', async () => {
    const connector = new ScriptedConnector().serves(HISTORY, {
      reportedBalances: { BTC: '1.5', ETH: '0.2' },
    });
    registerConnector(t, 'reporting-exchange', connector);
    const { accountId } = await createAccount(t, admin, { source: 'reporting-exchange', platform: 'kraken' });
    const refresh = await adminRefresh(accountId);
    const reason =
      'Source-reported balances disagree with the transactions beyond dust: ' +
      'BTC: the source reports 1.5, the transactions account for 1.25 (difference 0.25); ' +
      'ETH: the source reports 0.2, the transactions account for 0 (difference 0.2).';
    const review = { status: 'needs_review', reason, since: START.toISOString() };
    expect(refresh.body).toMatchObject({
      status: 'refreshed',
      account: { syncStatus: 'synced', balanceSource: 'source_reported', refreshFailures: 0, review },
    });

    // The partner's balances: 200 (a disagreement is no inconsistent history), the figures as
    // computed from the transactions, and the reconciliation beside them.
    const first = await get(`/v1/api/account/${accountId}/balances`).expect(200);
    expect(first.body.result).toMatchObject({
      syncStatus: 'synced',
      balanceSource: 'source_reported',
      balances: [expect.objectContaining({ symbol: 'BTC', balance: '1.25' })],
      reconciliation: [
        { symbol: 'BTC', reported: '1.5', calculated: '1.25', difference: '0.25', withinDust: false },
        { symbol: 'ETH', reported: '0.2', calculated: '0', difference: '0.2', withinDust: false },
      ],
      review,
    });
    // Served again from the read cache (the fast path): the same body.
    const cached = await get(`/v1/api/account/${accountId}/balances`).expect(200);
    expect(cached.body).toEqual(first.body);

    // The admin list: filtered to the accounts needing review, and counted.
    const flagged = await adminList('&review=needs_review');
    expect(flagged.body.accounts.map((a: { accountId: string }) => a.accountId)).toContain(accountId);
    expect(flagged.body.accounts.every((a: { review: unknown }) => a.review !== null)).toBe(true);
    expect(flagged.body.needsReview).toBe(flagged.body.accounts.length);
    const all = await adminList('');
    expect(all.body.needsReview).toBe(flagged.body.needsReview);
    expect(all.body.accounts.length).toBeGreaterThan(flagged.body.accounts.length);
    await t.http
      .get('/admin/accounts?review=maybe')
      .set(bearer(admin))
      .expect(400)
      .expect((res) => expect(JSON.stringify(res.body)).toMatch(/review/));

    // The source now agrees within dust (one satoshi): the review is cleared everywhere.
    clock.advanceMs(HOUR);
    connector.serves(HISTORY, { reportedBalances: { BTC: '1.25000001' } });
    expect((await adminRefresh(accountId)).body.account.review).toBeNull();
    const cleared = await get(`/v1/api/account/${accountId}/balances`).expect(200);
    expect(cleared.body.result).toMatchObject({
      reconciliation: [
        {
          symbol: 'BTC',
          reported: '1.25000001',
          calculated: '1.25',
          difference: '0.00000001',
          withinDust: true,
        },
      ],
      review: null,
    });
    const after = await adminList('&review=needs_review');
    expect(after.body.accounts.map((a: { accountId: string }) => a.accountId)).not.toContain(accountId);
    expect(after.body.needsReview).toBe(flagged.body.needsReview - 1);
  });

  it('calculated-only balances have no reconciliation and no review', async () => {
    const wallet = sandboxAccount('sandbox', 'btc-cold-storage').accountId;
    const res = await get(`/v1/api/account/${wallet}/balances`).expect(200);
    expect(res.body.result).toMatchObject({
      balanceSource: 'calculated',
      reconciliation: null,
      review: null,
    });
  });

  it('the sandbox shows one exchange with a deliberate (synthetic) drift, the others agreeing', async () => {
    const joint = sandboxAccount('sandbox', 'coinbase-joint').accountId;
    const res = await get(`/v1/api/account/${joint}/balances`).expect(200);
    const [btc] = res.body.result.reconciliation;
    expect(btc).toMatchObject({ symbol: 'BTC', difference: '0.0005', withinDust: false });
    expect(btc.calculated).toBe(
      res.body.result.balances.find((b: { symbol: string }) => b.symbol === 'BTC').balance,
    );
    expect(res.body.result.review).toMatchObject({
      status: 'needs_review',
      reason: expect.stringContaining('BTC: the source reports'),
    });
    const main = sandboxAccount('sandbox', 'coinbase-main').accountId;
    const agreeing = await get(`/v1/api/account/${main}/balances`).expect(200);
    expect(agreeing.body.result.review).toBeNull();
    expect(
      agreeing.body.result.reconciliation.every((r: { difference: string }) => r.difference === '0'),
    ).toBe(true);
  });
});
