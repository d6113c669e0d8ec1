/**
 * Service tier: the cost-basis choices and the balances a write recomputes run in the compute pool
 * (issue 28: every computation whose cost grows with a tenant's history, off the request thread),
 * and answer what the domain computes directly from the same ledger: the safe-harbor proposal,
 * a lot selection's check and the balance snapshots of a refresh. The heavy requests hold a slot
 * of the tenant's fair queue (HeavyWorkAdmission): beyond its queue, 429 with Retry-After.
 *
 * History (the clock at 2026-03-15 12:00 UTC, BTC at 60,000):
 *   acct-a buys 0.1 BTC on each of 2024-01-01 … 2024-01-20 at 50,000 + 100·i (20 lots), sends
 *   0.5 BTC to acct-b on 2024-10-01 (a transfer between own accounts), sells 0.3 on 2025-03-01 at
 *   65,000 and buys 0.2 on 2025-06-01 at 55,000.
 *   acct-b receives the 0.5 and buys 0.25 on 2025-02-01 at 62,000.
 * FIFO per account: acct-a's first five lots (50,000 … 50,400) went to acct-b; the 2025 sale takes
 * acct-a's next three (50,500, 50,600, 50,700): proceeds 19,500, basis 15,180, gain 4,320.
 * Safe harbor (FIFO pool of the 20 lots, accounts in the order linked): acct-a holds 1.5 on
 * 2025-01-01 and takes lots 0–14 (0.1 × (15 × 50,000 + 100 × 105) = 76,050), acct-b the 0.5 of
 * lots 15–19 (0.1 × (5 × 50,000 + 100 × 85) = 25,850).
 */
import { ManualClock } from '../../src/common/clock/clock.js';
import { DomainError, ErrorCode } from '../../src/common/errors/domain-error.js';
import { computeBalanceSnapshots } from '../../src/domain/balances/index.js';
import {
  computeSafeHarborAllocation,
  methodForElections,
  type LedgerEntry,
} from '../../src/domain/cost-basis/index.js';
import { AccountsModule } from '../../src/modules/accounts/index.js';
import { ComputePool, HeavyWorkAdmission } from '../../src/modules/compute/index.js';
import { CostBasisModule } from '../../src/modules/cost-basis/index.js';
import { LotSelectionsService, SafeHarborService } from '../../src/modules/cost-basis/testing.js';
import { LedgerModule, LedgerService } from '../../src/modules/ledger/index.js';
import { ReportSnapshotsModule } from '../../src/modules/report-snapshots/index.js';
import { ConnectorRegistry, RefreshService, SourcesModule } from '../../src/modules/sources/index.js';
import { TaxModule } from '../../src/modules/tax/index.js';
import { AuditModule } from '../../src/modules/audit/index.js';
import { insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const DAY = 86_400_000;

const A_HISTORY = [
  ...Array.from({ length: 20 }, (_, i) =>
    sourceTx({
      transactionId: `a-buy-${String(i).padStart(2, '0')}`,
      at: new Date(Date.UTC(2024, 0, 1) + i * DAY).toISOString(),
      direction: 'buy',
      amount: '0.1',
      priceUsd: String(50_000 + 100 * i),
    }),
  ),
  sourceTx({
    transactionId: 'a-out',
    at: '2024-10-01T00:00:00Z',
    direction: 'transfer_out',
    amount: '0.5',
    priceUsd: null,
    transferId: 'x1',
  }),
  sourceTx({
    transactionId: 'a-sell',
    at: '2025-03-01T00:00:00Z',
    direction: 'sell',
    amount: '0.3',
    priceUsd: '65000',
  }),
  sourceTx({
    transactionId: 'a-buy-late',
    at: '2025-06-01T00:00:00Z',
    direction: 'buy',
    amount: '0.2',
    priceUsd: '55000',
  }),
];
const B_HISTORY = [
  sourceTx({
    transactionId: 'b-in',
    at: '2024-10-01T00:00:00Z',
    direction: 'transfer_in',
    amount: '0.5',
    priceUsd: null,
    transferId: 'x1',
  }),
  sourceTx({
    transactionId: 'b-buy',
    at: '2025-02-01T00:00:00Z',
    direction: 'buy',
    amount: '0.25',
    priceUsd: '62000',
  }),
];

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('cost-basis choices and balances in the compute pool (service tier)', () => {
  let s: ServiceModule;
  let tenantId: string;
  let a: string;
  let b: string;
  let pool: ComputePool;
  let kinds: string[];

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [
        LedgerModule,
        SourcesModule,
        AccountsModule,
        AuditModule,
        TaxModule,
        CostBasisModule,
        ReportSnapshotsModule,
      ],
      clock: new ManualClock(NOW),
      prices: new FixedMarketPrices({ BTC: '60000' }, NOW),
      // One heavy request of the tenant at a time, one waiting: the third is a 429.
      env: { HEAVY_WORK_PER_TENANT: '1', HEAVY_WORK_TENANT_QUEUE: '1' },
    });
    pool = s.get(ComputePool);
    kinds = [];
    // Every task the pool is given, by kind (the services hold the one pool of the module).
    const run = pool.run.bind(pool);
    pool.run = ((task: Parameters<ComputePool['run']>[0]) => {
      kinds.push(task.kind);
      return run(task);
    }) as ComputePool['run'];
    tenantId = await insertTenant(s.dataSource, 'service-compute-offload');
    s.get(ConnectorRegistry).register('offload-a', new ScriptedConnector().serves(A_HISTORY));
    s.get(ConnectorRegistry).register('offload-b', new ScriptedConnector().serves(B_HISTORY));
    a = await insertAccount(s.dataSource, tenantId, {
      source: 'offload-a',
      createdOn: new Date(NOW.getTime() - 2000),
    });
    b = await insertAccount(s.dataSource, tenantId, {
      source: 'offload-b',
      createdOn: new Date(NOW.getTime() - 1000),
    });
    for (const id of [a, b]) {
      expect(await s.get(RefreshService).refresh(tenantId, id, 'admin')).toMatchObject({
        status: 'refreshed',
      });
    }
  });

  afterAll(() => s?.close());

  const ledger = () => s.get(LedgerService);
  const direct = async (entries: LedgerEntry[]) => ({
    entries,
    elections: await ledger().costBasisElections(tenantId),
    selections: await ledger().lotSelectionsByDisposal(tenantId),
    transition: await ledger().safeHarborTransition(tenantId),
  });

  it('a refresh computes the balances in the pool: the stored snapshots are the domain’s over the ledger', async () => {
    expect(kinds.filter((kind) => kind === 'balanceSnapshots').length).toBeGreaterThanOrEqual(2);
    const { entries, ...choices } = await direct(await ledger().ledgerForTenant(tenantId));
    const expected = computeBalanceSnapshots({
      ...choices,
      entries,
      accountIds: [a, b],
      pricesUsd: new Map([['BTC', '60000']]),
      reportedBalances: new Map([
        [a, null],
        [b, null],
      ]),
      computedAt: NOW,
    });
    const stored = await ledger().snapshotsOf(tenantId, [a, b]);
    expect(stored.get(a)).toEqual(expected[0]);
    expect(stored.get(b)).toEqual(expected[1]);
    // Worked by hand: acct-a sold lots 5–7 (50,500 + 50,600 + 50,700 at 0.1) for 19,500.
    expect(stored.get(a)!.realizedGainUsd).toBe('4320');
    expect(stored.get(a)!.assets[0]).toMatchObject({ symbol: 'BTC', quantity: '1.4' });
  });

  it('the safe-harbor proposal is computed in the pool and is the domain’s allocation', async () => {
    kinds.length = 0;
    const view = await s.get(SafeHarborService).view(tenantId, undefined, null, { limit: 1000 });
    expect(kinds).toEqual(['safeHarbor']);
    const { entries, elections, selections } = await direct(await ledger().ledgerForTenant(tenantId));
    const allocation = computeSafeHarborAllocation({
      entries,
      universalMethod: 'fifo',
      methodFor: methodForElections(elections),
      selections,
      accountOrder: [a, b],
    });
    expect(view.positions).toEqual(allocation.positions.map((p) => ({ ...p, applied: true })));
    expect(view.assets).toEqual(allocation.assets);
    // The pool of 2 BTC, oldest first: acct-a (1.5 held on 2025-01-01) takes lots 0–14, acct-b the last 5.
    expect(view.positions.map((p) => [p.accountId, p.quantity, p.allocatedCostBasisUsd])).toEqual([
      [a, '1.5', '76050'],
      [b, '0.5', '25850'],
    ]);
  });

  it('a lot selection is checked in the pool, with the same answers', async () => {
    const selections = s.get(LotSelectionsService);
    const select = (lots: [string, string][]) =>
      selections.create(tenantId, {
        accountId: a,
        transactionId: 'a-sell',
        lots: lots.map(([lotId, quantity]) => ({ lotId, quantity })),
        recordedBy: 'service-test',
      });
    kinds.length = 0;
    const later = await refusal(select([['a-buy-late', '0.3']]));
    expect(later.fieldErrors).toEqual({
      'lots[0].lot_id': ['Lot a-buy-late was acquired after the disposal a-sell.'],
    });
    const gone = await refusal(select([['a-buy-00', '0.3']]));
    expect(gone.fieldErrors?.['lots[0].lot_id']).toEqual([
      'Lot a-buy-00 is not an open BTC lot of the account just before the disposal a-sell.',
    ]);
    const tooMuch = await refusal(select([['a-buy-19', '0.2']]));
    expect(tooMuch.fieldErrors?.['lots[0].quantity']).toEqual([
      'Lot a-buy-19 holds 0.1 BTC just before the disposal; 0.2 was asked of it.',
    ]);
    const notADisposal = await refusal(
      selections.create(tenantId, { accountId: a, transactionId: 'a-buy-01', lots: [], recordedBy: 't' }),
    );
    expect(notADisposal.fieldErrors?.transaction_id?.[0]).toMatch(/is a buy, not a disposal/);
    expect(kinds).toEqual([
      'lotSelectionCheck',
      'lotSelectionCheck',
      'lotSelectionCheck',
      'lotSelectionCheck',
    ]);
    // Recorded after its sale (late): accepted, not applied; the balances recomputed in the pool.
    kinds.length = 0;
    const stored = await select([
      ['a-buy-19', '0.1'],
      ['a-buy-18', '0.1'],
      ['a-buy-17', '0.1'],
    ]);
    expect(stored).toMatchObject({ transactionId: 'a-sell', identifiedLate: true });
    expect(kinds).toEqual(['lotSelectionCheck', 'balanceSnapshots']);
    expect((await ledger().snapshotOf(tenantId, a))!.realizedGainUsd).toBe('4320');
  });

  it('the safe-harbor proposal and a lot selection wait in the tenant’s heavy-work slot; beyond its queue, 429', async () => {
    const admission = s.get(HeavyWorkAdmission);
    let release!: () => void;
    const held = admission.run(tenantId, () => new Promise<void>((r) => (release = r)));
    // Takes the one place in the tenant's queue.
    const waiting = s.get(SafeHarborService).view(tenantId, undefined, null, {});
    while (admission.queued < 1) await new Promise((r) => setImmediate(r));
    const busy = await refusal(s.get(SafeHarborService).view(tenantId, undefined, null, {}));
    expect(busy.code).toBe(ErrorCode.RateLimited);
    expect(busy.retryAfterSeconds).toBe(2);
    const busySelection = await refusal(
      s.get(LotSelectionsService).create(tenantId, {
        accountId: a,
        transactionId: 'a-sell',
        lots: [['a-buy-19', '0.3']].map(([lotId, quantity]) => ({ lotId, quantity })),
        recordedBy: 'service-test',
      }),
    );
    expect(busySelection.code).toBe(ErrorCode.RateLimited);
    release();
    await held;
    expect((await waiting).status).toBe('proposed');
  });
});
