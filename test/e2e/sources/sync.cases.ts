/**
 * The refresh engine: failures keep the old data byte for byte, concurrent refreshes collapse
 * into one connector call (in one instance and across instances through the lease), slow
 * initial syncs and the scheduler, reconnect_required, full-history replacement. Time moves with
 * an injected clock; nothing sleeps.
 *
 * The accounts it makes are its tenant's. Its first test runs the scheduler over every tenant and
 * expects exactly the sandbox's two slow initial syncs to complete: it runs first in
 * sources.e2e-spec.ts, while the sandbox is as seeded and no other suite has linked an account.
 */
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { SourceAuthorizationError, SourceUnavailableError } from '../../../src/modules/sources/index.js';
import { BalanceSnapshotsRepository } from '../../../src/modules/ledger/testing.js';
import {
  LeaseHolders,
  RefreshStateRepository as AccountsRepository,
} from '../../../src/modules/sources/testing.js';
import { LEASE_MS, RefreshService } from '../../../src/modules/sources/index.js';
import {
  bearer,
  createAccount as createTenantAccount,
  registerConnector,
  sandboxAccount,
  ScriptedConnector,
  simpleHistory,
  sourceTx,
} from '../../factories/accounts.factory.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const MINUTE = 60_000;

describe('refresh engine (e2e)', () => {
  let t: SuiteApp;
  let clock: ManualClock;
  let partner: string;
  let sandboxPartner: string;
  let admin: string;
  /** The suite's tenant (its id and slug): the accounts it makes. */
  let tenantId: string;
  let tenant: string;

  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startSuite({}, { clock, tenant: true });
    ({ id: tenantId, slug: tenant } = t.tenant!);
    [partner, sandboxPartner, admin] = await Promise.all([
      t.token(),
      t.token(SANDBOX.partner.clientId, SANDBOX.partner.secret),
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
    ]);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));
  const adminRefresh = (accountId: string) =>
    t.http.post(`/admin/accounts/${accountId}/refresh?tenant=${tenant}`).set(bearer(admin)).expect(200);
  const createAccount = (body: Record<string, unknown>) => createTenantAccount(t, admin, { tenant, ...body });

  /** Everything a partner can see of the account's data (the state fields aside). */
  async function visibleData(accountId: string) {
    const txs = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
    const balances = await get(`/v1/api/account/${accountId}/balances`).expect(200);
    const {
      balances: rows,
      lastUpdatedOn,
      marketValue,
      realizedGainLoss,
      unrealizedGainLoss,
    } = balances.body.result;
    return JSON.stringify({
      transactions: txs.body.result.transactions,
      rows,
      lastUpdatedOn,
      marketValue,
      realizedGainLoss,
      unrealizedGainLoss,
    });
  }

  /** A fresh account on its own scripted source, synced once with `history`. */
  async function syncedAccount(source: string, history = simpleHistory(source)) {
    const connector = new ScriptedConnector().serves(history);
    registerConnector(t, source, connector);
    const { accountId } = await createAccount({ source, platform: 'kraken' });
    const first = await adminRefresh(accountId);
    expect(first.body).toMatchObject({
      status: 'refreshed',
      inserted: history.length,
      account: { syncStatus: 'synced' },
    });
    return { accountId, connector };
  }

  describe('slow initial sync', () => {
    it('keeps a slow initial sync in `syncing` until the source is ready, then the scheduler completes it', async () => {
      const slow = sandboxAccount('sandbox', 'binanceus-new').accountId;
      const balances = `/v1/api/account/${slow}/balances`;
      const early = await get(`${balances}?forceRefresh=true`, sandboxPartner).expect(422);
      expect(early.body.responseException.exceptionMessage.reason).toBe('initial_sync_pending');
      const txs = await get(`/v1/api/account/${slow}/transactions`, sandboxPartner).expect(200);
      expect(txs.body.result).toMatchObject({
        transactions: [],
        syncStatus: 'syncing',
        lastSyncedAt: null,
        cacheAgeSeconds: null,
        lastUpdatedOn: null,
      });

      const refresher = t.app.get(RefreshService);
      // The sandbox's outage accounts are retried on their own backoff (docs/sources.md,
      // "Scheduling") and fail each time; only the slow syncs matter here.
      const completed = (outcomes: { status: string }[]) => outcomes.filter((o) => o.status !== 'failed');
      clock.advanceMs(14 * MINUTE);
      expect(completed(await refresher.refreshDueAccounts(10))).toEqual([]);
      await get(balances, sandboxPartner).expect(422);
      clock.advanceMs(2 * MINUTE);
      // Due now: the sandbox's two slow accounts of 15 minutes (one per tenant).
      const outcomes = completed(await refresher.refreshDueAccounts(10));
      expect(outcomes.map((o) => o.status)).toEqual(['refreshed', 'refreshed']);
      const done = await get(balances, sandboxPartner).expect(200);
      expect(done.body.result).toMatchObject({
        syncStatus: 'synced',
        lastSyncedAt: clock.now().toISOString(),
      });
    });
  });

  describe('a failed refresh keeps the previous data byte-identical', () => {
    it('when the connector fails half-way through its pages', async () => {
      const { accountId, connector } = await syncedAccount('halfway');
      const before = await visibleData(accountId);
      const lastSyncedAt = (await get(`/v1/api/account/${accountId}/balances`)).body.result.lastSyncedAt;

      clock.advanceMs(MINUTE);
      connector.failsHalfway(
        [...simpleHistory('halfway'), sourceTx({ transactionId: 'new-1', at: '2024-06-01T00:00:00Z' })],
        new SourceUnavailableError('connection reset by peer'),
      );
      const refresh = await adminRefresh(accountId);
      expect(refresh.body).toMatchObject({
        status: 'failed',
        message: 'connection reset by peer',
        account: {
          syncStatus: 'error',
          connectionStatus: 'connected',
          lastError: 'connection reset by peer',
        },
      });
      expect(await visibleData(accountId)).toBe(before);
      const balances = await get(`/v1/api/account/${accountId}/balances`).expect(200);
      expect(balances.body.result).toMatchObject({ syncStatus: 'error', lastSyncedAt });
    });

    it('when a later page holds an invalid transaction', async () => {
      const { accountId, connector } = await syncedAccount('badpage');
      const before = await visibleData(accountId);
      connector.servesPages([
        [sourceTx({ transactionId: 'fine', at: '2024-07-01T00:00:00Z' })],
        [sourceTx({ transactionId: 'broken', amount: '-1' })],
      ]);
      const refresh = await adminRefresh(accountId);
      expect(refresh.body.status).toBe('failed');
      expect(refresh.body.message).toMatch(/invalid transaction "broken": amount/);
      expect(await visibleData(accountId)).toBe(before);
    });

    it('when the database write fails after the transactions were written (rolled back together)', async () => {
      const { accountId, connector } = await syncedAccount('dbfail');
      const before = await visibleData(accountId);
      connector.serves([
        ...simpleHistory('dbfail'),
        sourceTx({ transactionId: 'new-2', at: '2024-08-01T00:00:00Z' }),
      ]);
      const snapshots = t.app.get(BalanceSnapshotsRepository);
      const spy = jest.spyOn(snapshots, 'replace').mockRejectedValueOnce(new Error('disk full'));
      try {
        const refresh = await adminRefresh(accountId);
        expect(refresh.body).toMatchObject({ status: 'failed', message: 'disk full' });
      } finally {
        spy.mockRestore();
      }
      expect(await visibleData(accountId)).toBe(before);
    });
  });

  describe('one refresh per account at a time', () => {
    it('runs the connector once for two concurrent forced refreshes', async () => {
      const { accountId, connector } = await syncedAccount('concurrent');
      clock.advanceMs(31 * MINUTE);
      connector
        .serves([
          ...simpleHistory('concurrent'),
          sourceTx({ transactionId: 'late', at: '2024-09-01T00:00:00Z' }),
        ])
        .hold();
      const calls = connector.calls;
      const first = get(`/v1/api/account/${accountId}/balances?forceRefresh=true`).then((r) => r);
      const second = get(`/v1/api/account/${accountId}/transactions?forceRefresh=true`).then((r) => r);
      await connector.entered;
      connector.release();
      const [balances, transactions] = await Promise.all([first, second]);
      expect(connector.calls - calls).toBe(1);
      expect(balances.status).toBe(200);
      expect(transactions.status).toBe(200);
      expect(
        transactions.body.result.transactions.map((tx: { transactionId: string }) => tx.transactionId),
      ).toContain('late');
      expect(balances.body.result.refreshed).toBe(true);
    });

    it('leaves the refresh to the instance holding the lease and serves the cache meanwhile', async () => {
      const { accountId, connector } = await syncedAccount('leased');
      clock.advanceMs(31 * MINUTE);
      const accounts = t.app.get(AccountsRepository);
      // Another instance, alive: its lease-holder lock is held (lease-holders.ts).
      const other = `other-instance-${randomUUID()}`;
      await t.app.get(LeaseHolders).hold(other);
      const otherInstance = await accounts.claimLease(
        tenantId,
        accountId,
        other,
        clock.now(),
        new Date(clock.now().getTime() + LEASE_MS),
      );
      expect(otherInstance).not.toBeNull();
      const calls = connector.calls;
      const res = await get(`/v1/api/account/${accountId}/balances?forceRefresh=true`).expect(200);
      expect(res.body.result.refreshed).toBe(false);
      expect(connector.calls).toBe(calls);
      // The other instance hangs, alive: its lease expires and this one takes over.
      clock.advanceMs(LEASE_MS + 1);
      const later = await get(`/v1/api/account/${accountId}/balances?forceRefresh=true`).expect(200);
      expect(later.body.result.refreshed).toBe(true);
      expect(connector.calls).toBe(calls + 1);
      await t.app.get(LeaseHolders).release(other);
    });

    it('claims due accounts in disjoint batches', async () => {
      const refresher = t.app.get(RefreshService);
      const accounts = t.app.get(AccountsRepository);
      clock.advanceMs(2 * 60 * MINUTE);
      // Two live instances (their lease-holder locks held).
      const [instanceA, instanceB] = [`instance-a-${randomUUID()}`, `instance-b-${randomUUID()}`];
      for (const instance of [instanceA, instanceB]) await t.app.get(LeaseHolders).hold(instance);
      const batchA = await accounts.claimDueAcrossTenants(
        clock.now(),
        instanceA,
        new Date(clock.now().getTime() + LEASE_MS),
        3,
      );
      const batchB = await accounts.claimDueAcrossTenants(
        clock.now(),
        instanceB,
        new Date(clock.now().getTime() + LEASE_MS),
        3,
      );
      expect(batchA).toHaveLength(3);
      expect(batchB).toHaveLength(3);
      const ids = [...batchA, ...batchB].map((c) => c.accountId);
      expect(new Set(ids).size).toBe(6);
      for (const claim of [
        ...batchA.map((c) => ({ ...c, owner: instanceA })),
        ...batchB.map((c) => ({ ...c, owner: instanceB })),
      ])
        await accounts.releaseLease(claim.tenantId, claim.accountId, claim.owner);
      for (const instance of [instanceA, instanceB]) await t.app.get(LeaseHolders).release(instance);
      expect(refresher.owner).toMatch(/:/);
    });
  });

  describe('sync states', () => {
    it('answers 422 initial_sync_pending for a syncing account whose source is not ready yet', async () => {
      const connector = new ScriptedConnector().pending(new Date(clock.now().getTime() + 10 * MINUTE));
      registerConnector(t, 'slowsource', connector);
      const { accountId } = await createAccount({ source: 'slowsource' });
      const refresh = await adminRefresh(accountId);
      expect(refresh.body).toMatchObject({ status: 'pending', account: { syncStatus: 'syncing' } });
      expect(refresh.body.account.nextRefreshAt).toBe(
        new Date(clock.now().getTime() + 10 * MINUTE).toISOString(),
      );
      const res = await get(`/v1/api/account/${accountId}/balances`).expect(422);
      expect(res.body.responseException.exceptionMessage.reason).toBe('initial_sync_pending');
    });

    it('sets reconnect_required when the source rejects the authorization, and still serves the cache', async () => {
      const { accountId, connector } = await syncedAccount('expiring');
      connector.throws(new SourceAuthorizationError('token revoked'));
      const refresh = await adminRefresh(accountId);
      expect(refresh.body.account).toMatchObject({
        syncStatus: 'reconnect_required',
        connectionStatus: 'disconnected',
        nextRefreshAt: null,
      });
      const res = await get(`/v1/api/account/${accountId}/balances`).expect(200);
      expect(res.body.result).toMatchObject({
        syncStatus: 'reconnect_required',
        connectionStatus: 'disconnected',
      });
    });

    it('answers 422 reconnect_required / initial_sync_failed when a first sync fails with nothing cached', async () => {
      const rejecting = new ScriptedConnector().throws(new SourceAuthorizationError());
      registerConnector(t, 'rejecting', rejecting);
      const failing = new ScriptedConnector().throws(new Error('boom'));
      registerConnector(t, 'failing', failing);
      const a = await createAccount({ source: 'rejecting' });
      const b = await createAccount({ source: 'failing' });
      await adminRefresh(a.accountId);
      await adminRefresh(b.accountId);
      const ra = await get(`/v1/api/account/${a.accountId}/balances`).expect(422);
      const rb = await get(`/v1/api/account/${b.accountId}/balances`).expect(422);
      expect(ra.body.responseException.exceptionMessage.reason).toBe('reconnect_required');
      expect(rb.body.responseException.exceptionMessage.reason).toBe('initial_sync_failed');
    });

    it('serves balances that disagree with the source-reported ones, with the reconciliation and a review (no 422)', async () => {
      const history = simpleHistory('reported');
      const connector = new ScriptedConnector().serves(history, { reportedBalances: { BTC: '0.95' } });
      registerConnector(t, 'reported', connector);
      const { accountId } = await createAccount({ source: 'reported' });
      await adminRefresh(accountId);
      const ok = await get(`/v1/api/account/${accountId}/balances`).expect(200);
      expect(ok.body.result).toMatchObject({
        balanceSource: 'source_reported',
        balances: [{ symbol: 'BTC', balance: '0.95' }],
        reconciliation: [{ symbol: 'BTC', reported: '0.95', calculated: '0.95', difference: '0' }],
        review: null,
      });
      connector.serves(history, { reportedBalances: { BTC: '1.5' } });
      await adminRefresh(accountId);
      const bad = await get(`/v1/api/account/${accountId}/balances`).expect(200);
      expect(bad.body.result).toMatchObject({
        balances: [{ symbol: 'BTC', balance: '0.95' }],
        reconciliation: [
          { symbol: 'BTC', reported: '1.5', calculated: '0.95', difference: '0.55', withinDust: false },
        ],
        review: {
          status: 'needs_review',
          reason:
            'Source-reported balances disagree with the transactions beyond dust: BTC: the source reports 1.5, the transactions account for 0.95 (difference 0.55).',
        },
      });
    });
  });

  describe('balances computed outside the transaction', () => {
    it('are recomputed inside it, with the same result, when a linked account changed meanwhile', async () => {
      const out = sourceTx({
        transactionId: 'move-out',
        at: '2024-05-01T00:00:00Z',
        direction: 'transfer_out',
        amount: '0.5',
        transferId: 'pair-1',
      });
      const into = sourceTx({
        transactionId: 'move-in',
        at: '2024-05-01T00:05:00Z',
        direction: 'transfer_in',
        amount: '0.5',
        transferId: 'pair-1',
      });
      const a = await syncedAccount('pair-a', [...simpleHistory('pair-a'), out]);
      const b = await syncedAccount('pair-b', [into]);
      await adminRefresh(a.accountId);
      const normal = await get(`/v1/api/account/${b.accountId}/balances`).expect(200);
      expect(normal.body.result.balances[0]).toMatchObject({ balance: '0.5', needsReview: false });

      // Make the versions read before the transaction look stale: the engine runs again inside.
      const accounts = t.app.get(AccountsRepository);
      const original = accounts.versions.bind(accounts);
      const spy = jest.spyOn(accounts, 'versions').mockImplementationOnce(async (...args) => {
        const versions = await original(...args);
        return new Map([...versions].map(([id, v]) => [id, v - 1]));
      });
      try {
        await adminRefresh(a.accountId);
      } finally {
        spy.mockRestore();
      }
      const again = await get(`/v1/api/account/${b.accountId}/balances`).expect(200);
      const strip = (r: Record<string, unknown>) => ({
        ...r,
        lastUpdatedOn: undefined,
        cacheAgeSeconds: undefined,
      });
      expect(strip(again.body.result)).toEqual(strip(normal.body.result));
    });
  });

  describe('full histories', () => {
    it('removes transactions the source no longer reports', async () => {
      const history = simpleHistory('shrinking');
      const { accountId, connector } = await syncedAccount('shrinking', history);
      connector.serves(history.slice(0, 5));
      const refresh = await adminRefresh(accountId);
      expect(refresh.body).toMatchObject({
        status: 'refreshed',
        inserted: 0,
        updated: 0,
        deleted: history.length - 5,
      });
      const txs = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
      expect(txs.body.result.transactions).toHaveLength(5);
    });

    it('updates a transaction whose fields changed at the source, without duplicating it', async () => {
      const history = simpleHistory('changing');
      const { accountId, connector } = await syncedAccount('changing', history);
      connector.serves([{ ...history[0], amount: '0.2' }, ...history.slice(1)]);
      const refresh = await adminRefresh(accountId);
      expect(refresh.body).toMatchObject({ status: 'refreshed', inserted: 0, updated: 1, deleted: 0 });
      const txs = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
      expect(txs.body.result.transactions[0]).toMatchObject({
        transactionId: history[0].transactionId,
        amount: '0.2',
      });
      expect(txs.body.result.transactions).toHaveLength(history.length);
    });
  });
});
