/**
 * Service tier: the refresh engine (sources module) on a real database with a scripted connector,
 * fixed market prices and a manual clock; the ledger module is real. No HTTP, no accounts module:
 * the account rows are written as AccountsService.create writes them.
 */
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../src/common/clock/clock.js';
import { ErrorCode } from '../../src/common/errors/domain-error.js';
import { LedgerModule, LedgerService } from '../../src/modules/ledger/index.js';
import {
  ConnectorRegistry,
  LEASE_MS,
  RefreshService,
  SourceAuthorizationError,
  SourcesModule,
  STALE_AFTER_MS,
} from '../../src/modules/sources/index.js';
import { LeaseHolders, RefreshStateRepository } from '../../src/modules/sources/testing.js';
import { accountState, insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const SOURCE = 'scripted';

/** Two buys and a sale; worked by hand below (FIFO). */
const HISTORY = [
  sourceTx({
    transactionId: 'b1',
    direction: 'buy',
    amount: '1',
    priceUsd: '30000',
    at: '2024-01-01T00:00:00Z',
  }),
  sourceTx({
    transactionId: 'b2',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    at: '2024-02-01T00:00:00Z',
  }),
  sourceTx({
    transactionId: 's1',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '50000',
    at: '2024-03-01T00:00:00Z',
  }),
];

describe('refresh engine (service tier)', () => {
  let s: ServiceModule;
  let clock: ManualClock;
  let tenantId: string;
  let connector: ScriptedConnector;

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    s = await startServiceModule({
      imports: [LedgerModule, SourcesModule],
      clock,
      prices: new FixedMarketPrices({ BTC: '60000' }),
    });
    tenantId = await insertTenant(s.dataSource, 'service-refresh');
  });

  afterAll(() => s?.close());

  beforeEach(() => {
    clock.set(NOW);
    connector = new ScriptedConnector();
  });

  async function account(timeoutMs?: number): Promise<string> {
    s.get(ConnectorRegistry).register(SOURCE, connector, timeoutMs ? { timeoutMs } : {});
    return insertAccount(s.dataSource, tenantId, { source: SOURCE, createdOn: clock.now() });
  }

  it('stores the history and its balances in one write and marks the account synced', async () => {
    const id = await account();
    connector.serves(HISTORY);
    const outcome = await s.get(RefreshService).refresh(tenantId, id, 'admin');
    expect(outcome).toEqual({ status: 'refreshed', inserted: 3, updated: 0, deleted: 0 });

    // FIFO: the sale takes 0.5 of the 30000 lot (cost 15000, proceeds 25000: +10000). Left: 0.5 at
    // 30000 (15000) and 1 at 40000: 1.5 BTC costing 55000, worth 1.5 x 60000 = 90000 (+35000).
    const snapshot = await s.get(LedgerService).snapshotOf(tenantId, id);
    expect(snapshot).toMatchObject({ method: 'fifo', realizedGainUsd: '10000', unrealizedGainUsd: '35000' });
    expect(snapshot!.assets).toEqual([
      expect.objectContaining({
        symbol: 'BTC',
        quantity: '1.5',
        costBasisUsd: '55000',
        marketValueUsd: '90000',
        realizedGainUsd: '10000',
        unrealizedGainUsd: '35000',
      }),
    ]);
    expect(await accountState(s.dataSource, id)).toEqual({
      syncStatus: 'synced',
      connectionStatus: 'connected',
      lastSyncedAt: NOW,
      nextRefreshAt: new Date(NOW.getTime() + STALE_AFTER_MS),
      lastError: null,
      leaseOwner: null,
    });
  });

  it('removes what a full history no longer has and updates what changed', async () => {
    const id = await account();
    await s.get(RefreshService).refresh(tenantId, id, 'admin');
    connector.serves(HISTORY);
    await s.get(RefreshService).refresh(tenantId, id, 'admin');
    // The sale is gone and the second buy was at 42000: 2 BTC costing 72000, nothing realized.
    connector.serves([HISTORY[0], { ...HISTORY[1], priceUsd: '42000' }]);
    const outcome = await s.get(RefreshService).refresh(tenantId, id, 'admin');
    expect(outcome).toEqual({ status: 'refreshed', inserted: 0, updated: 1, deleted: 1 });
    const snapshot = await s.get(LedgerService).snapshotOf(tenantId, id);
    expect(snapshot!.assets[0]).toMatchObject({ quantity: '2', costBasisUsd: '72000', realizedGainUsd: '0' });
  });

  it('keeps the data and asks for a reconnect when the source rejects the authorization', async () => {
    const id = await account();
    connector.serves(HISTORY);
    await s.get(RefreshService).refresh(tenantId, id, 'admin');
    const before = await s.get(LedgerService).snapshotOf(tenantId, id);
    clock.advanceMs(STALE_AFTER_MS);
    connector.throws(new SourceAuthorizationError());
    const outcome = await s.get(RefreshService).refresh(tenantId, id, 'admin');
    expect(outcome).toMatchObject({ status: 'failed', syncStatus: 'reconnect_required' });
    expect(await s.get(LedgerService).snapshotOf(tenantId, id)).toEqual(before);
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'reconnect_required',
      connectionStatus: 'disconnected',
      // Retrying cannot help: the account waits for new credentials.
      nextRefreshAt: null,
      lastSyncedAt: NOW,
    });
  });

  it('gives up on a connector that does not answer within its timeout', async () => {
    const id = await account(50);
    connector.hold();
    const outcome = await s.get(RefreshService).refresh(tenantId, id, 'admin');
    connector.release();
    expect(outcome).toEqual({
      status: 'failed',
      syncStatus: 'error',
      message: 'The source did not answer within 0.05 s.',
    });
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'error',
      nextRefreshAt: new Date(NOW.getTime() + STALE_AFTER_MS),
      leaseOwner: null,
    });
    expect(await s.get(LedgerService).snapshotOf(tenantId, id)).toBeNull();
  });

  it('leaves a pending source in syncing and retries when it says', async () => {
    const id = await account();
    const readyAt = new Date(NOW.getTime() + 15 * 60_000);
    connector.pending(readyAt);
    expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toEqual({
      status: 'pending',
      retryAt: readyAt,
    });
    expect(await accountState(s.dataSource, id)).toMatchObject({
      syncStatus: 'syncing',
      nextRefreshAt: readyAt,
    });
  });

  it('answers busy while another instance holds the lease, and takes over once it expired', async () => {
    const id = await account();
    connector.serves(HISTORY);
    const state = s.get(RefreshStateRepository);
    const until = new Date(NOW.getTime() + LEASE_MS);
    // Another instance, alive (its lease-holder lock held): only the lease's expiry frees it.
    const other = `other-instance-${randomUUID()}`;
    await s.get(LeaseHolders).hold(other);
    expect(await state.claimLease(tenantId, id, other, NOW, until)).not.toBeNull();
    expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toEqual({ status: 'busy' });
    expect(connector.calls).toBe(0);
    clock.set(new Date(until.getTime() + 1));
    expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toMatchObject({ status: 'refreshed' });
    expect(connector.calls).toBe(1);
    await s.get(LeaseHolders).release(other);
  });

  it('is a 404 for another tenant’s account', async () => {
    const id = await account();
    const other = await insertTenant(s.dataSource, 'service-refresh-other');
    await expect(s.get(RefreshService).refresh(other, id, 'admin')).rejects.toMatchObject({
      code: ErrorCode.NotFound,
    });
    expect(connector.calls).toBe(0);
  });
});
